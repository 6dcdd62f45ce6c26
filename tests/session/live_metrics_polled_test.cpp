// SPDX-License-Identifier: GPL-2.0-or-later
// A monitor run with a poll: reference beside the PPS path writes the PPS path's bias live:
// ppsbench_live_bias_seconds of the unpolled periods (the figure the alert rule compares with
// chrony's offset, report's bias_mean), and ppsbench_live_bias_polled_seconds, the polled
// periods' own, the disturbance polling causes. The progress line says which is which.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <thread>

#include "live_sources.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/session/live_metrics.hpp"

namespace ppsbench::session {
namespace {

using core::ns_per_second;
constexpr std::int64_t monitor_start = 1'780'000'000 * ns_per_second;

// As capture::PollSource describes itself: one edge, on the periods its pattern polls.
capture::SourceInfo poll_source(core::EdgeSelection edges = core::EdgeSelection::assert_only) {
    capture::SourceInfo info;
    info.spec = "poll:gpiochip0:18";
    info.kind = "poll";
    info.edges = edges;
    info.cadence = core::Cadence::sampled;
    info.sequences = core::SequenceEvidence::synthetic;
    info.hardware_reference = true;
    return info;
}

std::optional<double> window_value(const std::string& text, const std::string& name,
                                   const std::string& window) {
    std::smatch match;
    const std::regex line("\n" + name + R"(\{[^}]*path="A"[^}]*window=")" + window +
                          R"("\} (\S+))");
    if (!std::regex_search(text, match, line)) {
        return std::nullopt;
    }
    return std::stod(match[1]);
}

// A deleter type, not decltype(&std::fclose): glibc declares fclose nonnull, and g++ 14 warns
// that a template argument drops the attribute.
struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

struct PolledMonitor {
    capture::SourceInfo pps = pps_source();
    capture::SourceInfo poll;
    std::unique_ptr<std::FILE, FileCloser> progress{std::tmpfile()};
    std::unique_ptr<LiveMetrics> live;

    explicit PolledMonitor(capture::SourceInfo reference) : poll(std::move(reference)) {
        LiveMetricsOptions o;
        o.interval = std::chrono::hours{1};  // no interval closes during a test
        o.progress_stream = progress.get();
        o.progress_interval = std::chrono::milliseconds{10};
        o.label = "pi";
        live = std::make_unique<LiveMetrics>(
            o, std::vector<LivePath>{{"A", "pi-A", &pps}, {"B", "pi-B", &poll}});
    }

    // 20 periods: the PPS path 11.7 µs late, 6 µs on the polled (even) periods.
    void capture() {
        capture::CaptureProgress progress;
        for (std::int64_t k = 0; k < 20; ++k) {
            const std::int64_t edge = monitor_start + k * ns_per_second;
            const bool polled = k % 2 == 0;
            const std::array pulse{
                core::Pulse{static_cast<std::uint64_t>(k + 1), edge + (polled ? 6'000 : 11'700)}};
            ++progress.pulses;
            live->update(0, pulse, progress);
            if (polled) {
                const std::array ref{core::Pulse{static_cast<std::uint64_t>(k + 1), edge}};
                live->update(1, ref, progress);
            }
        }
    }

    // The progress thread's lines until one matches `expected` (it prints every 10 ms; at most
    // 10 s, so a missing line fails instead of hanging).
    std::string progress_until(const std::regex& expected) {
        std::string text;
        for (int i = 0; i < 1000 && !std::regex_search(text, expected); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds{10});
            std::fflush(progress.get());
            std::rewind(progress.get());
            text.clear();
            char buffer[4096];
            while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, progress.get())) {
                text.append(buffer, n);
            }
        }
        return text;
    }
};

TEST(LiveBiasAgainstPoll, TheUnpolledPeriodsAreTheBiasThePolledOnesTheDisturbance) {
    PolledMonitor monitor(poll_source());
    monitor.capture();
    const std::string text = monitor.live->prometheus_text();
    // 9 unpolled periods between polled ones (the 20th waits for a polled edge after it).
    EXPECT_NEAR(*window_value(text, "ppsbench_live_bias_seconds", "run"), 11.7e-6, 1e-12) << text;
    EXPECT_NEAR(*window_value(text, "ppsbench_live_bias_polled_seconds", "run"), 6e-6, 1e-12)
        << text;
    EXPECT_TRUE(
        std::regex_search(text, std::regex("# TYPE ppsbench_live_bias_polled_seconds gauge")));
    EXPECT_FALSE(std::regex_search(text, std::regex(R"(ppsbench_live_bias\w*\{[^}]*path="B")")))
        << "the reference has no bias against itself";
    const std::regex line(R"(bias \(unpolled periods\) vs poll:gpiochip0:18 run \+11\.7 µs )"
                          R"(\(9 pairs\), last .*; polled periods run \+6000 ns \(10 pairs\))");
    const std::string lines = monitor.progress_until(line);
    EXPECT_TRUE(std::regex_search(lines, line)) << lines;
}

// A PHC reference pairs every edge: no polled series, as before.
TEST(LiveBiasAgainstPoll, AReferenceOfEveryEdgeHasNoPolledSeries) {
    capture::SourceInfo phc = poll_source();
    phc.spec = "ptp:/dev/ptp0";
    phc.cadence = core::Cadence::every_edge;
    PolledMonitor monitor(phc);
    monitor.capture();
    const std::string text = monitor.live->prometheus_text();
    EXPECT_TRUE(window_value(text, "ppsbench_live_bias_seconds", "run")) << text;
    EXPECT_FALSE(std::regex_search(text, std::regex("ppsbench_live_bias_polled_seconds")));
}

// Polling the clear edge while the PPS path captures assert edges (run gives both sources one
// --edge, so only a hand-made pair of sources can): nothing pairs, and no figure is written
// rather than one of edges 0.2 s or more apart.
TEST(LiveBiasAgainstPoll, AReferenceOfTheOtherEdgeGivesNoFigure) {
    PolledMonitor monitor(poll_source(core::EdgeSelection::clear_only));
    monitor.capture();
    const std::string text = monitor.live->prometheus_text();
    EXPECT_TRUE(std::regex_search(text, std::regex("# TYPE ppsbench_live_bias_seconds gauge")));
    EXPECT_FALSE(window_value(text, "ppsbench_live_bias_seconds", "run")) << text;
}

}  // namespace
}  // namespace ppsbench::session
