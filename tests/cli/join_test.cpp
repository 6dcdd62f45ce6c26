// SPDX-License-Identifier: GPL-2.0-or-later
// `report --join FILE...` (issue 25 item 5): the files of one `run --rotate` are one run. The
// property: a capture cut into parts at any pulses, given in any order, reports exactly what
// the whole capture reports. A part missing, parts of two runs, a part twice and parts that
// overlap are refused (exit 2) with one line naming the files.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

constexpr const char* run_id = "0123456789abcdef0123456789abcdef";

// A capture's pulse lines: `n` pulses one second apart from 2026-01-01 with seeded jitter,
// one missed pulse and one 30 µs outlier, so every stage has something to find.
std::vector<std::string> pulse_lines(std::uint64_t seed, int n) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, 2000.0);
    std::vector<std::string> lines;
    for (int i = 1; i <= n; ++i) {
        if (i == n / 3) {
            continue;  // missed
        }
        auto offset = static_cast<std::int64_t>(jitter(rng)) + (i == n / 2 ? 30'000 : 0);
        lines.push_back(
            fmt::format("{},assert,{}", i,
                        1'767'225'600'000'000'000 + std::int64_t{i} * 1'000'000'000 + offset));
    }
    return lines;
}

std::string header(const std::string& rotation) {
    return "# ppsbench capture 1\n# meta {\"source\":\"pps:/dev/pps0\",\"label\":\"monitor\"" +
           rotation + "}\nsequence,edge,timestamp_ns\n";
}

std::string rotation(const std::string& id, std::size_t index) {
    return fmt::format(
        ",\"rotation\":{{\"run_id\":\"{}\",\"index\":{},\"interval_ns\":"
        "86400000000000}}",
        id, index);
}

// Part `index` of run `id`: the lines [from, to) and an end record.
std::string part_text(const std::vector<std::string>& lines, std::size_t from, std::size_t to,
                      const std::string& id, std::size_t index, bool last) {
    std::string text = header(rotation(id, index));
    for (std::size_t i = from; i < to; ++i) {
        text += lines[i] + "\n";
    }
    text += fmt::format("# end {{\"stop_reason\":\"{}\",\"pulses\":{},\"pulses_in_file\":{}}}\n",
                        last ? "count" : "rotated", to, to - from);
    return text;
}

// The runs of a JSON report without what names the files.
nlohmann::json figures(const std::string& json) {
    auto document = nlohmann::json::parse(json, nullptr, false);
    EXPECT_FALSE(document.is_discarded()) << json;
    for (auto& run : document["runs"]) {
        run.erase("file");
        run.erase("warnings");
    }
    return document["runs"];
}

TEST(Join, PartsCutAnywhereAndGivenInAnyOrderReportWhatTheWholeCaptureReports) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        TempDir dir;
        const auto lines = pulse_lines(seed, 200 + static_cast<int>(seed) * 37);
        testing::write_text(dir.file("whole.csv"),
                            part_text(lines, 0, lines.size(), run_id, 0, true));
        const auto whole = run_ppsbench({"report", "--format", "json", dir.file("whole.csv")});
        ASSERT_EQ(whole.exit_code, 0) << whole.err;

        std::mt19937_64 rng(seed);
        const std::size_t parts = 2 + seed % 4;
        std::vector<std::size_t> cuts{0, lines.size()};
        while (cuts.size() < parts + 1) {
            const std::size_t cut = 1 + rng() % (lines.size() - 1);
            if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end()) {
                cuts.push_back(cut);
            }
        }
        std::sort(cuts.begin(), cuts.end());
        std::vector<std::string> args{"report", "--format", "json", "--join"};
        for (std::size_t p = 0; p < parts; ++p) {
            const auto path = dir.file(fmt::format("day-{}.csv", p));
            testing::write_text(path,
                                part_text(lines, cuts[p], cuts[p + 1], run_id, p, p + 1 == parts));
            args.push_back(path);
        }
        std::shuffle(args.begin() + 4, args.end(), rng);
        const auto joined = run_ppsbench(args);
        ASSERT_EQ(joined.exit_code, 0) << joined.err;
        EXPECT_EQ(figures(joined.out), figures(whole.out)) << "seed " << seed;
        EXPECT_TRUE(
            contains(nlohmann::json::parse(joined.out)["runs"][0]["file"].get<std::string>(),
                     fmt::format("day-0.csv … {} ({} parts)",
                                 dir.file(fmt::format("day-{}.csv", parts - 1)), parts)));
    }
}

// The files of a real `run --rotate`, joined, are every pulse of the run once.
TEST(Join, ARealRotatedRunIsOneRun) {
    TempDir dir;
    const auto run = run_ppsbench({"run", "--source", "sim:threaded", "--pace", "realtime",
                                   "--period", "50ms", "--duration", "2.5s", "--rotate", "1s", "-o",
                                   dir.file("pps-%Y%m%dT%H%M%S.csv"), "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::vector<std::string> args{"report", "--format", "json", "--join"};
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        args.push_back(entry.path().string());
    }
    ASSERT_GE(args.size(), 6U) << "at least two parts";
    const auto joined = run_ppsbench(args);
    ASSERT_EQ(joined.exit_code, 0) << joined.err;
    const auto document = nlohmann::json::parse(joined.out);
    ASSERT_EQ(document["runs"].size(), 1U);
    EXPECT_NEAR(document["runs"][0]["pulses"].get<double>(), 50.0, 2.0);
    EXPECT_EQ(document["runs"][0]["missed_pulses"], 0);
    EXPECT_EQ(document["runs"][0]["duplicates"], 0);
    // gate and compare take the same parts as their current run.
    std::vector<std::string> gate{"gate", "--join", "--min-pulses", "40", "--max", "missed=0"};
    gate.insert(gate.end(), args.begin() + 4, args.end());
    EXPECT_EQ(run_ppsbench(gate).exit_code, 0);
}

struct JoinRefusal {
    std::string name;
    std::vector<std::string> files;  // what each file is: "ID:INDEX:FROM:TO" or "plain"
    std::string message;
};

TEST(Join, GapsTwoRunsRepeatsAndOverlapsAreRefusedNamingTheFiles) {
    const auto lines = pulse_lines(9, 90);
    const std::string other = "ffffffffffffffffffffffffffffffff";
    const std::vector<JoinRefusal> cases{
        {"missing part",
         {"0:0:30", "2:60:89"},
         "part 1 of run " + std::string(run_id) +
             " is missing between {0} (part 0) and {1} "
             "(part 2)"},
        {"parts of two runs", {"0:0:30", "o1:30:60"}, "are parts of two runs"},
        {"a part twice", {"0:0:30", "0:0:30"}, "are both part 0 of run"},
        {"overlap", {"0:0:40", "1:30:60"}, "(part 0, pulses to 2026-01-01T00:00:4"},
        {"no rotation", {"0:0:30", "plain"}, "{1} is not a part of a 'run --rotate' run"},
    };
    for (const auto& c : cases) {
        TempDir dir;
        std::vector<std::string> args{"report", "--join"};
        for (std::size_t i = 0; i < c.files.size(); ++i) {
            const auto path = dir.file(fmt::format("f{}.csv", i));
            const auto& spec = c.files[i];
            if (spec == "plain") {
                testing::write_text(path, header("") + lines[0] + "\n");
            } else {
                const bool theirs = spec[0] == 'o';
                std::istringstream s(spec.substr(theirs ? 1 : 0));
                std::size_t index = 0;
                std::size_t from = 0;
                std::size_t to = 0;
                char colon = 0;
                s >> index >> colon >> from >> colon >> to;
                testing::write_text(
                    path, part_text(lines, from, to, theirs ? other : run_id, index, false));
            }
            args.push_back(path);
        }
        const auto result = run_ppsbench(args);
        EXPECT_EQ(result.exit_code, 2) << c.name << ": " << result.out;
        EXPECT_TRUE(result.out.empty()) << c.name;
        const auto message = fmt::format(fmt::runtime(c.message), args[2], args[3]);
        EXPECT_TRUE(contains(result.err, message)) << c.name << ": " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1)
            << c.name << ": " << result.err;
    }
}

}  // namespace
}  // namespace ppsbench
