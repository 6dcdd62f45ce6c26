// SPDX-License-Identifier: GPL-2.0-or-later
// Hostile captures (issue 12): extreme timestamps must give an analysis or a one-line error,
// never an internal error or an allocation in proportion to a gap's length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string capture_header() {
    return "# ppsbench capture 1\n# meta {\"clock\":\"realtime\",\"edge\":\"assert\",\"format\":"
           "\"ppsbench.capture/1\",\"period_ns\":1000000000}\nsequence,edge,timestamp_ns\n";
}

// 1 GB is far more than 40 pulses need. AddressSanitizer reserves terabytes of shadow address
// space at start-up, so under it `ulimit -v` would stop every program; there the sanitizer's
// own limits bound the same thing (one allocation, and the resident set).
#if defined(__SANITIZE_ADDRESS__)
const std::string memory_bound =
    "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1000:hard_rss_limit_mb="
    "1000\" ";
#else
const std::string memory_bound = "ulimit -v 1000000; ";
#endif

// Found by fuzz/capture_reader_fuzz on its seed corpus: a timestamp of 2^63 − 1 made the
// stability grid span 9·10⁹ periods (a 74 GB allocation; 'internal error: std::bad_alloc' on
// main). A year's clock step in 40 pulses asked for 31 M slots.
TEST(HostileCapture, ExtremeTimestampsDoNotAllocateInProportionToTheGap) {
    TempDir dir;
    const auto extreme = dir.file("extreme.csv");
    testing::write_text(extreme,
                        capture_header() + "1,assert,9223372036854775807\n2,assert,1000000000\n");
    std::string year = capture_header();
    for (int i = 1; i <= 40; ++i) {
        const long long jump = i > 20 ? 31'536'000'000'000'000LL : 0;
        year += std::to_string(i) + ",assert," +
                std::to_string(1'767'225'600'000'000'000LL + jump + i * 1'000'000'000LL) + "\n";
    }
    testing::write_text(dir.file("year.csv"), year);
    for (const auto& path : {extreme, dir.file("year.csv")}) {
        const auto result = testing::run_program(
            {"/bin/sh", "-c", memory_bound + "'" + PPSBENCH_BINARY + "' report '" + path + "'"});
        EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2)
            << path << ": " << result.exit_code << "\n"
            << result.err;
        EXPECT_FALSE(contains(result.err, "internal error")) << result.err;
    }
}

testing::CommandResult report_bounded(const std::string& path,
                                      const std::string& options = " --format json") {
    return testing::run_program(
        {"/bin/sh", "-c",
         memory_bound + "'" + PPSBENCH_BINARY + "' report '" + path + "'" + options});
}

// 40 pulses from 2026-01-01, the clock stepped by `jump` before the 21st; sequence numbers run
// on (the kernel saw nothing unusual).
std::string stepped_capture(long long jump) {
    std::string text = capture_header();
    for (long long i = 1; i <= 40; ++i) {
        const long long t = 1'767'225'600'000'000'000LL + i * 1'000'000'000LL + (i % 7) * 1'000 +
                            (i > 20 ? jump : 0);
        text += std::to_string(i) + ",assert," + std::to_string(t) + "\n";
    }
    return text;
}

// A Pi without a real-time clock stepped at boot: on main, +1 day was 86 400 missed pulses,
// +1 year 31 536 001 and 350 MB, +50 years over 6 GB.
TEST(HostileCapture, AWholeSecondStepWithContiguousSequenceNumbersIsOneClockStep) {
    TempDir dir;
    constexpr long long day = 86'400'000'000'000LL;
    for (const long long jump : {day, 365 * day, 50 * 365 * day, -day, -700'000'000LL}) {
        SCOPED_TRACE("step of " + std::to_string(jump) + " ns");
        const auto path = dir.file("step.csv");
        testing::write_text(path, stepped_capture(jump));
        const auto result = report_bounded(path);
        ASSERT_EQ(result.exit_code, 0) << result.err;
        const auto run = nlohmann::json::parse(result.out).at("runs").at(0);
        EXPECT_EQ(run.at("pulses"), 40);
        EXPECT_EQ(run.at("missed_pulses"), 0);
        EXPECT_EQ(run.at("unseen_events"), 0);
        ASSERT_EQ(run.at("clock_steps").size(), 1u);
        // To within the capture's 6 µs of sawtooth: 20 pulses a side do not pin it closer.
        EXPECT_NEAR(run.at("clock_steps").at(0).at("size_ns").get<double>(),
                    static_cast<double>(jump), 1e-9 * std::abs(static_cast<double>(jump)) + 3000);
        EXPECT_LT(run.at("offset_ns").at("stddev").get<double>(), 5'000.0);
    }
}

TEST(HostileCapture, ASequenceNumberOf2To64Minus1IsNotMillionsOfMissedPulses) {
    TempDir dir;
    std::string text = capture_header();
    for (long long i = 1; i <= 40; ++i) {
        const std::string sequence = i == 25 ? "18446744073709551615" : std::to_string(i);
        text += sequence + ",assert," +
                std::to_string(1'767'225'600'000'000'000LL + i * 1'000'000'000LL) + "\n";
    }
    const auto path = dir.file("sequence.csv");
    testing::write_text(path, text);
    const auto result = report_bounded(path);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto run = nlohmann::json::parse(result.out).at("runs").at(0);
    EXPECT_EQ(run.at("missed_pulses"), 0);
    EXPECT_EQ(run.at("unseen_events"), 0);
    EXPECT_EQ(run.at("pulses"), 40);
}

TEST(HostileCapture, TimestampsNoClockGivesAreRefusedWithFileAndLine) {
    TempDir dir;
    const auto path = dir.file("bad.csv");
    for (const std::string bad : {"-1", "-9223372036854775808", "4611686018427387904",
                                  "9223372036854775807", "9223372036854775808"}) {
        testing::write_text(path, capture_header() + "1,assert,1767225601000000000\n2,assert," +
                                      bad + "\n3,assert,1767225603000000000\n");
        const auto result = report_bounded(path, "");
        EXPECT_EQ(result.exit_code, 2) << bad << ": " << result.err;
        EXPECT_TRUE(contains(result.err, path + ":5:")) << bad << ": " << result.err;
        EXPECT_FALSE(contains(result.err, "internal error")) << result.err;
    }
}

TEST(HostileCapture, AUtf8ByteOrderMarkAtTheStartIsAccepted) {
    TempDir dir;
    const auto path = dir.file("bom.csv");
    testing::write_text(path, "\xEF\xBB\xBF" + stepped_capture(0));
    const auto result = report_bounded(path);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(nlohmann::json::parse(result.out).at("runs").at(0).at("pulses"), 40);
}

// Two's-complement addition: a generated timestamp may run past 2^63 − 1 and come back
// negative, which is one more hostile value (and no undefined behaviour in the generator).
std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// A hostile capture, drawn from a fixed seed: steps, gaps, duplicates, reordering, extremes,
// torn lines, a byte order mark, both edges, a monotonic clock.
std::string hostile_capture(std::mt19937_64& rng) {
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto pick = [&](auto const& list) { return list[rng() % list.size()]; };
    struct Line {
        std::uint64_t sequence;
        std::int64_t timestamp;
        bool clear;
    };
    const std::size_t n = rng() % 300;
    const std::int64_t starts[] = {1'767'225'600'000'000'000LL, 0, 3'000'000'000LL,
                                   (std::int64_t{1} << 62) - 200'000'000'000LL,
                                   static_cast<std::int64_t>(rng() >> 2)};
    const std::uint64_t first_sequences[] = {1, 0, (std::uint64_t{1} << 32) - 100,
                                             std::numeric_limits<std::uint64_t>::max() - 150};
    std::int64_t t = pick(std::vector<std::int64_t>(std::begin(starts), std::end(starts)));
    std::uint64_t sequence =
        pick(std::vector<std::uint64_t>(std::begin(first_sequences), std::end(first_sequences)));
    const bool both = chance(0.2);
    std::normal_distribution<double> jitter(0, 2'000);
    std::vector<Line> lines;
    const std::vector<std::int64_t> jumps = {3'000'000,
                                             -3'000'000,
                                             700'000'000,
                                             -700'000'000,
                                             86'400'000'000'000,
                                             -86'400'000'000'000,
                                             31'536'000'000'000'000,
                                             1'576'800'000'000'000'000,
                                             -1'576'800'000'000'000'000};
    for (std::size_t i = 0; i < n; ++i) {
        t = wrapping_add(t, 1'000'000'000);
        ++sequence;
        if (chance(0.02)) {
            t = wrapping_add(t, pick(jumps));  // a clock step
        }
        if (chance(0.02)) {
            const auto skipped = static_cast<std::int64_t>(rng() % 5 + 1);
            t = wrapping_add(t, skipped * 1'000'000'000);  // missed pulses
            sequence += static_cast<std::uint64_t>(skipped);
        }
        if (chance(0.02)) {
            sequence += rng() % 3 + 1;  // unseen events
        }
        const auto noisy = wrapping_add(t, static_cast<std::int64_t>(jitter(rng)));
        lines.push_back({sequence, noisy, false});
        if (both) {
            lines.push_back({sequence, wrapping_add(noisy, 200'000'000), true});
        }
        if (chance(0.03)) {
            lines.push_back(lines.back());  // a duplicate line
        }
    }
    for (std::size_t k = 0; k < lines.size() / 50 + 1 && lines.size() > 1; ++k) {
        if (chance(0.5)) {
            const std::size_t i = rng() % (lines.size() - 1);
            std::swap(lines[i], lines[i + 1]);  // reordered
        }
    }
    for (std::size_t k = 0; k < 3 && !lines.empty(); ++k) {
        if (chance(0.15)) {
            const std::int64_t extremes[] = {std::numeric_limits<std::int64_t>::max(),
                                             std::int64_t{1} << 62,
                                             (std::int64_t{1} << 62) - 1,
                                             0,
                                             -1,
                                             std::numeric_limits<std::int64_t>::min()};
            lines[rng() % lines.size()].timestamp =
                pick(std::vector<std::int64_t>(std::begin(extremes), std::end(extremes)));
        }
        if (chance(0.15)) {
            const std::uint64_t extremes[] = {std::numeric_limits<std::uint64_t>::max(), 0,
                                              std::uint64_t{1} << 32, std::uint64_t{1} << 63};
            lines[rng() % lines.size()].sequence =
                pick(std::vector<std::uint64_t>(std::begin(extremes), std::end(extremes)));
        }
    }
    std::string text = chance(0.2) ? "\xEF\xBB\xBF" : "";
    text += "# ppsbench capture 1\n# meta {\"clock\":\"";
    text += chance(0.2) ? "monotonic" : "realtime";
    text += "\",\"edge\":\"";
    text += both ? "both" : "assert";
    text +=
        "\",\"format\":\"ppsbench.capture/1\",\"period_ns\":1000000000}\n"
        "sequence,edge,timestamp_ns\n";
    for (const Line& line : lines) {
        text += std::to_string(line.sequence) + (line.clear ? ",clear," : ",assert,") +
                std::to_string(line.timestamp) + "\n";
    }
    if (chance(0.2) && text.size() > 10) {
        text.resize(text.size() - 1 - rng() % 8);  // torn: the run was cut off mid-line
    }
    return text;
}

// The property: whatever the capture holds, report ends with 0, 1 or 2, never an internal
// error or a sanitizer report, within the memory bound above (a gap never allocates in
// proportion to its length), and what it prints in JSON is JSON.
TEST(HostileCapture, GeneratedHostileCapturesGiveAnAnalysisOrAOneLineError) {
    TempDir dir;
    std::mt19937_64 rng(20261201);
    int analysed = 0;
    int refused = 0;
    for (int i = 0; i < 60; ++i) {
        const auto path = dir.file("hostile-" + std::to_string(i) + ".csv");
        testing::write_text(path, hostile_capture(rng));
        const auto result = report_bounded(path);
        SCOPED_TRACE(path + "\n" + result.err);
        EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1 || result.exit_code == 2)
            << result.exit_code;
        EXPECT_FALSE(contains(result.err, "internal error"));
        EXPECT_FALSE(contains(result.err, "Sanitizer"));
        EXPECT_FALSE(contains(result.err, "runtime error"));
        if (result.exit_code == 0) {
            ++analysed;
            EXPECT_TRUE(nlohmann::json::accept(result.out));
        } else {
            ++refused;
            EXPECT_TRUE(contains(result.err, path));  // names the file (and line)
        }
    }
    // Both outcomes occur, so the generator exercises both paths.
    EXPECT_GT(analysed, 10);
    EXPECT_GT(refused, 3);
}

}  // namespace
}  // namespace ppsbench
