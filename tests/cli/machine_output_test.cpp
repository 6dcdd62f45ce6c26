// SPDX-License-Identifier: GPL-2.0-or-later
// Machine outputs stay machine-readable (issue 12): with --format json|csv stdout holds only that
// format, a failed write to stdout is an error, Prometheus series are unique.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string hardirq_capture(const TempDir& dir, const std::string& name) {
    const auto path = dir.file(name);
    EXPECT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "300", "-o", path}).exit_code,
        0);
    return path;
}

// main: a text histogram followed the JSON document.
TEST(MachineOutput, JsonWithHistogramIsOneDocumentWithTheHistogramAsData) {
    TempDir dir;
    const auto run = hardirq_capture(dir, "a.csv");
    const auto result = run_ppsbench({"report", "--format", "json", "--histogram", run});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto document = nlohmann::json::parse(result.out);  // throws on trailing text
    const auto& histogram = document["runs"][0]["histogram"];
    ASSERT_TRUE(histogram.is_object()) << result.out;
    std::uint64_t total =
        histogram["underflow"].get<std::uint64_t>() + histogram["overflow"].get<std::uint64_t>();
    for (const auto& count : histogram["counts"]) {
        total += count.get<std::uint64_t>();
    }
    EXPECT_EQ(total, 300U);
    const auto csv = run_ppsbench({"report", "--format", "csv", "--histogram", run});
    EXPECT_EQ(csv.exit_code, 2);
    EXPECT_TRUE(contains(csv.err, "--histogram: a CSV holds one table")) << csv.err;
}

// main: 'report --format json x.csv > /dev/full' exited 0, the documented way to save a baseline.
TEST(MachineOutput, AFailedWriteToStdoutIsExitTwo) {
    TempDir dir;
    const auto run = hardirq_capture(dir, "a.csv");
    const auto result = testing::run_program(
        {"/bin/sh", "-c",
         std::string("'") + PPSBENCH_BINARY + "' report --format json '" + run + "' > /dev/full"});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(contains(result.err, "cannot write to standard output")) << result.err;
}

// main: two series with identical labels, which node_exporter's textfile collector rejects.
TEST(MachineOutput, PrometheusSeriesAreUniqueOrRefused) {
    TempDir dir;
    const auto a = hardirq_capture(dir, "a.csv");
    const auto b = hardirq_capture(dir, "b.csv");
    const auto prom = dir.file("p.prom");
    const auto twice = run_ppsbench({"report", a, a, "--prometheus", prom});
    EXPECT_EQ(twice.exit_code, 2);
    EXPECT_TRUE(contains(twice.err, a + " is named twice")) << twice.err;
    EXPECT_FALSE(std::filesystem::exists(prom));
    ASSERT_EQ(run_ppsbench({"report", a, b, "--prometheus", prom}).exit_code, 0);
    // Same label, source and host: the file label tells them apart.
    std::set<std::string> series;
    std::istringstream lines(testing::read_text(prom));
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line[0] != '#') {
            const auto name_and_labels = line.substr(0, line.rfind(' '));
            EXPECT_TRUE(series.insert(name_and_labels).second) << "duplicate: " << line;
        }
    }
    EXPECT_GT(series.size(), 10U);
}

}  // namespace
}  // namespace ppsbench
