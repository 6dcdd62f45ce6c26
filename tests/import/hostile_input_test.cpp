// SPDX-License-Identifier: GPL-2.0-or-later
// Every importer is a pure function of its text; none may crash, hang or throw anything but
// core::InputError on any bytes (later fuzzed with libFuzzer through the same entry points).
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/ntp_peerstats.hpp"
#include "ppsbench/import/ppstest.hpp"

namespace ppsbench::import {
namespace {

// Runs every parser on `text`; an InputError (a refusal) is fine, anything else fails.
void parse_everything(const std::string& text) {
    SCOPED_TRACE(::testing::Message() << "input of " << text.size() << " bytes");
    (void)identify(text);
    const auto run = [&](auto f) {
        std::istringstream in(text);
        try {
            f(in);
        } catch (const core::InputError&) {
        }
    };
    run([](std::istream& in) { chrony::import_tracking_log(in, "t", {}); });
    run([](std::istream& in) { chrony::import_refclocks_log(in, "r", {}); });
    run([](std::istream& in) { import_ppstest(in, "p", {}); });
    run([](std::istream& in) { import_ntp_peerstats(in, "n", {}); });
}

const char* const tracking_line =
    "2017-08-22 13:22:36 203.0.113.15     2     -3.541      0.075 -8.621e-06 N  2  2.940e-03 "
    "-2.084e-04  1.534e-02  3.472e-04  8.304e-03\n";

TEST(HostileInput, EmptyBlankAndTornInputs) {
    for (const std::string text :
         {"", "\n", "\r\n\r\n", "   \t", "=====", "2017-08-22 13:22", "source 0 - assert ",
          "source 0 - assert 1700000000.", "60000 3600.125 127.127.22.0 9714 -0.0000"}) {
        parse_everything(text);
    }
}

TEST(HostileInput, HugeNumbersNanAndInvalidUtf8AreRefusedLineByLine) {
    // Each is one field of a valid line replaced.
    const std::vector<std::pair<std::string, std::string>> fields = {
        {"-8.621e-06", "nan"},         {"-8.621e-06", "inf"},
        {"-8.621e-06", "1e999"},       {"     2  ", " 1e300 "},
        {"     2  ", " 99999999999 "}, {"203.0.113.15", "\xff\xfe"},
        {"2017-08-22", "9999-12-31"},  {"2017-08-22", "0000-01-01"},
        {"13:22:36", "99:99:99"},      {"N  2", "N -2"},
        {"203.0.113.15", "\x1b[31m"}};
    for (const auto& [from, to] : fields) {
        std::string bad = tracking_line;
        bad.replace(bad.find(from), from.size(), to);
        std::istringstream in(bad + tracking_line);
        const auto r = chrony::import_tracking_log(in, "t", {});
        EXPECT_EQ(r.entries.size(), 1U) << "with " << to;
        ASSERT_EQ(r.problem_count, 1U) << "with " << to;
        for (const char c : r.problems[0].message) {
            EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "the message stays printable ASCII";
        }
        parse_everything(bad);
    }
    std::istringstream refclocks(
        "2009-11-30 14:33:27.000000 \xc3\x28   0 N 1  4.9e-07 -6.7e-07  1.0e-06\n"
        "2009-11-30 14:33:27.000000 PPS    0 N 1  nan -6.7e-07  1.0e-06\n"
        "2009-11-30 14:33:28.000000 PPS    0 N 1  1e308 -6.7e-07  1.0e-06\n"
        "2009-11-30 14:33:29.000000 PPS    0 N 1  4.9e-07 -6.7e-07  1.0e-06\n");
    const auto r = chrony::import_refclocks_log(refclocks, "r", {});
    EXPECT_EQ(r.pulses.size(), 1U);
    EXPECT_EQ(r.problem_count, 3U);
    EXPECT_NO_THROW((void)r.metadata.dump()) << "metadata is valid UTF-8 JSON";

    std::istringstream ppstest(
        "source 0 - assert 99999999999999999999.000000000, sequence: 1\n"
        "source 0 - assert 1700000000.0000000001, sequence: 1\n"
        "source 0 - assert 1700000000.000000001, sequence: 99999999999999999999999\n"
        "source 0 - assert -1700000000.000000001, sequence: 1\n"
        "source 0 - assert 1700000001.000000001, sequence: 2\n");
    const auto p = import_ppstest(ppstest, "p", {});
    EXPECT_EQ(p.pulses.size(), 1U);
    EXPECT_EQ(p.problem_count, 4U);

    std::istringstream peerstats(
        "99999999999 3600.1 127.127.22.0 9714 0.0 0.0 0.0 0.0\n"
        "60000 1e300 127.127.22.0 9714 0.0 0.0 0.0 0.0\n"
        "60000 3600.1 127.127.22.0 9714 nan 0.0 0.0 0.0\n"
        "60000 3601.1 \xff 9714 0.0 0.0 0.0 0.0\n"
        "60000 3602.1 127.127.22.0 9714 0.000000001 0.0 0.0 0.0\n");
    const auto n = import_ntp_peerstats(peerstats, "n", {});
    EXPECT_EQ(n.pulses.size(), 1U);
    EXPECT_EQ(n.problem_count, 4U);
}

TEST(HostileInput, RandomBytesAndMangledFixtures) {
    std::mt19937_64 rng(13);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int round = 0; round < 200; ++round) {
        std::string text(static_cast<std::size_t>(byte(rng)) * 4, '\0');
        for (auto& c : text) {
            c = static_cast<char>(byte(rng));
        }
        parse_everything(text);
    }
    for (const char* name : {"ppstest-assert-clear.txt", "ppstest-assert-only.txt", "ntp-peerstats",
                             "chrony-statistics.log"}) {
        const auto good = testing::fixture(name);
        for (int round = 0; round < 50; ++round) {
            std::string text = good;
            for (int k = 0; k < 8; ++k) {
                text[static_cast<std::size_t>(rng() % text.size())] = static_cast<char>(byte(rng));
            }
            parse_everything(text.substr(0, rng() % text.size()));  // torn anywhere
        }
    }
}

}  // namespace
}  // namespace ppsbench::import
