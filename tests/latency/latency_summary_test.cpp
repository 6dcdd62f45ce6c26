// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/latency_summary.hpp"

#include <gtest/gtest.h>

#include <array>
#include <sstream>

#include "cli.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/latency_tables.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::latency {
namespace {

// A latency file as `ppsbench latency` writes it: drive→ts is 10 µs + k·100 ns, ts→wake 50 µs.
std::string write_latency_file(const testing::TempDir& dir) {
    const auto path = dir.file("lat.csv");
    store::CaptureWriter writer(path,
                                {{"kind", "latency"},
                                 {"label", "rt"},
                                 {"clock", "monotonic"},
                                 {"source", "gpio:gpiochip0:27"},
                                 {"drive", "gpiochip0:17"},
                                 {"period_ns", 20'000'000}},
                                false, {"drive_ns", "wake_ns"});
    for (std::int64_t k = 0; k < 101; ++k) {
        const std::int64_t drive = 5'000'000'000 + k * 10'000'000;
        const core::Pulse pulse{static_cast<std::uint64_t>(k / 2 + 1), drive + 10'000 + k * 100,
                                k % 2 == 0 ? core::Edge::assert_edge : core::Edge::clear_edge};
        const std::array<std::int64_t, 2> extras{drive, pulse.timestamp_ns + 50'000};
        writer.write_rows({&pulse, 1}, extras);
    }
    writer.write_note("end", {{"edges_driven", 102},
                              {"unseen_edges", 1},
                              {"stray_events", 2},
                              {"cpu_idle_fraction", 0.875}});
    writer.close();
    return path;
}

TEST(LatencySummary, DistributionsFromTheFileColumns) {
    testing::TempDir dir;
    const auto file = store::read_capture_file(write_latency_file(dir));
    ASSERT_TRUE(analysis::is_latency_file(file));
    const auto s = analysis::summarize_latency(file);
    EXPECT_EQ(s.label, "rt");
    EXPECT_EQ(s.drive_to_kernel.summary.count, 101U);
    EXPECT_DOUBLE_EQ(s.drive_to_kernel.p50, 15'000.0);
    EXPECT_DOUBLE_EQ(s.drive_to_kernel.p90, 19'000.0);
    EXPECT_DOUBLE_EQ(s.drive_to_kernel.summary.max, 20'000.0);
    EXPECT_DOUBLE_EQ(s.kernel_to_wake.p99, 50'000.0);
    EXPECT_DOUBLE_EQ(s.kernel_to_wake.summary.stddev, 0.0);
    EXPECT_EQ(s.unseen_edges, 1U);
    EXPECT_EQ(s.stray_events, 2U);
    ASSERT_TRUE(s.cpu_idle_fraction);
    EXPECT_DOUBLE_EQ(*s.cpu_idle_fraction, 0.875);

    const auto table = render::latency_table({s});
    // A row per path: drive→ts, then ts→wake, each with the run's edges and idle CPU.
    ASSERT_EQ(table.rows.size(), 2U);
    EXPECT_EQ(table.rows[0][1].text, "drive→ts");
    EXPECT_EQ(table.rows[1][1].text, "ts→wake");
    EXPECT_DOUBLE_EQ(table.rows[0][5].value, 19'000.0);  // p90
    EXPECT_DOUBLE_EQ(table.rows[1][6].value, 50'000.0);  // p99
    EXPECT_DOUBLE_EQ(table.rows[0].back().value, 87.5);
    EXPECT_DOUBLE_EQ(table.rows[1].back().value, 87.5);
    EXPECT_FALSE(render::histogram_lines(s.drive_to_kernel.histogram).empty());
}

TEST(LatencySummary, OrdinaryCapturesAreNotLatencyFiles) {
    store::CaptureFile plain;
    plain.path = "plain.csv";
    EXPECT_FALSE(analysis::is_latency_file(plain));
    EXPECT_THROW(analysis::summarize_latency(plain), core::InputError);
}

TEST(LatencySummary, ReportPrintsTheLatencyTable) {
    testing::TempDir dir;
    const auto r = testing::run_ppsbench({"report", write_latency_file(dir)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("drive→ts"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ts→wake"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("p50"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("15.0 µs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("87.5 %"), std::string::npos) << r.out;
}

// main: the latency table was about 140 columns wide; like the other tables it fits 100.
TEST(LatencySummary, TheTableFitsAHundredColumns) {
    testing::TempDir dir;
    const auto r = testing::run_ppsbench({"report", write_latency_file(dir)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        EXPECT_LE(render::display_width(line), 100U) << line;
    }
}

}  // namespace
}  // namespace ppsbench::latency
