// SPDX-License-Identifier: GPL-2.0-or-later
// The bias of a PPS path against a hardware reference of the same two-source run: figures
// checked against independent values (numpy's percentiles, tabulated Student t and the
// binomial order-statistic ranks), and the pairing of two real capture files as
// `ppsbench run --source ptp:... --source pps:...` writes them.
#include "ppsbench/analysis/bias.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "cli.hpp"
#include "polled_capture.hpp"
#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::analysis {
namespace {

using testing::TempDir;

TEST(DescribeBias, MeanMedianTailAndTheirIntervals) {
    // 1..10 µs late: mean 5.5 µs, s = 3.0277 µs, numpy median 5.5 µs, p99 9.91 µs.
    std::vector<double> late;
    for (int i = 10; i >= 1; --i) {
        late.push_back(i * 1000.0);
    }
    const Bias b = describe_bias(late);
    EXPECT_EQ(b.pairs, 10U);
    EXPECT_DOUBLE_EQ(b.mean_ns, 5500);
    EXPECT_NEAR(b.stddev_ns, 3027.6503540974917, 1e-6);
    EXPECT_DOUBLE_EQ(b.median_ns, 5500);
    EXPECT_NEAR(b.p99_ns, 9910, 1e-9);  // numpy.percentile(range(1000, 11000, 1000), 99)
    EXPECT_DOUBLE_EQ(b.min_ns, 1000);
    EXPECT_DOUBLE_EQ(b.max_ns, 10000);
    // t_{0.975}(9) = 2.262157 (tables): 5500 ± 2.262157 · 3027.65 / √10.
    const double half = 2.2621571627 * 3027.6503540974917 / std::sqrt(10.0);
    EXPECT_NEAR(b.mean_interval.lo, 5500 - half, 1e-3);
    EXPECT_NEAR(b.mean_interval.hi, 5500 + half, 1e-3);
    // Ranks 5 ∓ 1.96·√10/2 = 5 ∓ 3.10: the 1st and the 10th value (1-based, 9 + 1).
    EXPECT_DOUBLE_EQ(b.median_interval.lo, 1000);
    EXPECT_DOUBLE_EQ(b.median_interval.hi, 10000);
}

TEST(DescribeBias, TheMedianIntervalNarrowsWithPairs) {
    // 300 values 0..299: ranks floor(150 − 16.97) = 133 and ceil(150 + 16.97) + 1 = 168.
    std::vector<double> late;
    for (int i = 0; i < 300; ++i) {
        late.push_back(i);
    }
    const Bias b = describe_bias(late);
    EXPECT_DOUBLE_EQ(b.median_ns, 149.5);
    EXPECT_DOUBLE_EQ(b.median_interval.lo, 132);
    EXPECT_DOUBLE_EQ(b.median_interval.hi, 167);
}

// Two files of one two-source run: path A the PHC (realtime, with its conversion columns),
// path B the PPS device, 2 µs late on every edge but one 30 µs edge, and one edge A missed.
struct DualFiles {
    TempDir dir;
    std::string reference = dir.file("run-1.csv");
    std::string pps = dir.file("run-2.csv");
    explicit DualFiles(std::int64_t usual_late_ns = 2'000, bool pps_clear_edges = false) {
        const std::int64_t t0 = 1'780'000'000'000'000'000;
        store::RunMeta a;
        a.source = "ptp:/dev/ptp0";
        a.dual = store::DualLink{"A", "pps:/dev/pps0", pps, false, "feedc0de"};
        store::RunMeta b;
        b.source = "pps:/dev/pps0";
        b.dual = store::DualLink{"B", "ptp:/dev/ptp0", reference, true, "feedc0de"};
        store::CaptureWriter ref(reference, a, false,
                                 {"phc_offset_ns", "phc_offset_uncertainty_ns"});
        store::CaptureWriter path(pps, b, false);
        for (std::int64_t k = 0; k < 200; ++k) {
            const std::int64_t edge = t0 + k * 1'000'000'000;
            if (k != 50) {
                const std::array<std::int64_t, 2> extras{-37'000'000'000, 150 + k % 3};
                ref.write_rows(std::array{core::Pulse{static_cast<std::uint64_t>(k + 1), edge}},
                               extras);
            }
            // A little scatter, so the median has an interval: ±200 ns around the usual.
            const std::int64_t late = k == 7 ? 30'000 : usual_late_ns + (k % 5 - 2) * 100;
            path.write(std::array{core::Pulse{static_cast<std::uint64_t>(k + 1), edge + late}});
            if (pps_clear_edges) {  // the PPS path also captured the falling edges
                path.write(std::array{core::Pulse{static_cast<std::uint64_t>(k + 1),
                                                  edge + 200'000'000, core::Edge::clear_edge}});
            }
        }
    }
};

TEST(ReferenceBias, PairsThePathWithItsReferenceEdgeByEdge) {
    DualFiles files;
    const auto bias = reference_bias(store::read_capture_file(files.pps));
    ASSERT_TRUE(bias);
    EXPECT_EQ(bias->reference, "ptp:/dev/ptp0");
    EXPECT_EQ(bias->pairs, 199U);
    EXPECT_EQ(bias->unpaired, 1U);
    EXPECT_DOUBLE_EQ(bias->median_ns, 2000);
    EXPECT_DOUBLE_EQ(bias->max_ns, 30'000);
    EXPECT_DOUBLE_EQ(bias->min_ns, 1800);
    // The scatter sums to 0 over each 5 edges; without edge 50 (−200, unpaired) and edge 7
    // (30 µs instead of +0) it sums to +200 over the other 198.
    EXPECT_NEAR(bias->mean_ns, (198 * 2000.0 + 200 + 30'000) / 199, 1e-9);
    EXPECT_EQ(bias->reference_uncertainty_ns, 152);
    // The reference itself has no reference.
    EXPECT_FALSE(reference_bias(store::read_capture_file(files.reference)));
}

// A polled reference (poll:) of one run: it polled every other period (its file holds those
// edges and their half-brackets), and the polling itself made the PPS path earlier on the
// polled periods (6 µs late instead of 11.7 µs: the Pi 5's RP1 link kept out of L1). The bias
// is the unpolled periods' against the interpolated edge; the polled periods' is apart.
TEST(ReferenceBias, AgainstAPolledReferenceIsOfTheUnpolledPeriodsWithTheDisturbanceApart) {
    TempDir dir;
    const std::string reference = dir.file("poll-2.csv");
    const std::string pps = dir.file("poll-1.csv");
    const std::int64_t t0 = 1'780'000'000'000'000'000;
    // The clock runs 20 ppm fast against the true edges: interpolation must follow it.
    const auto edge_at = [&](std::int64_t k) { return t0 + k * 1'000'020'000; };
    std::vector<core::Pulse> path;
    std::vector<testing::PolledEdge> polled_edges;
    for (std::int64_t k = 0; k < 101; ++k) {
        const bool polled = k % 2 == 0;
        path.push_back({static_cast<std::uint64_t>(k + 1), edge_at(k) + (polled ? 6'000 : 11'700)});
        if (polled) {
            polled_edges.push_back(
                {{static_cast<std::uint64_t>(k + 1), edge_at(k)}, 400 + k % 3, 850});
        }
    }
    testing::write_polled_run(pps, reference, path, polled_edges);
    const auto bias = reference_bias(store::read_capture_file(pps));
    ASSERT_TRUE(bias);
    EXPECT_EQ(bias->pairs, 50U) << "the 50 unpolled periods between polled ones";
    EXPECT_NEAR(bias->median_ns, 11'700, 1.0);
    EXPECT_NEAR(bias->mean_ns, 11'700, 1.0);
    EXPECT_EQ(bias->polled_pairs, 51U);
    EXPECT_DOUBLE_EQ(bias->polled_median_ns, 6'000);
    EXPECT_EQ(bias->reference_uncertainty_ns, 402);
    EXPECT_EQ(bias->unpaired, 0U);
    // What the polling cost: the periods it found, its read interval, the half-bracket it buys.
    EXPECT_EQ(bias->poll_periods, 51U);
    EXPECT_DOUBLE_EQ(bias->poll_read_interval_ns, 850);
    EXPECT_DOUBLE_EQ(bias->poll_uncertainty_median_ns, 401);
    // Saved and read back, the disturbance and the cost stay.
    const Bias back = bias_from_json(to_json(*bias));
    EXPECT_EQ(back.polled_pairs, 51U);
    EXPECT_DOUBLE_EQ(back.polled_median_ns, 6'000);
    EXPECT_EQ(back.poll_periods, 51U);
    EXPECT_DOUBLE_EQ(back.poll_read_interval_ns, 850);
    EXPECT_DOUBLE_EQ(back.poll_uncertainty_median_ns, 401);
    auto bad = to_json(*bias);
    bad["polled"]["periods"] = "51";
    EXPECT_THROW(bias_from_json(bad), core::InputError);
    // The report's footnote says it.
    const auto report = testing::run_ppsbench({"report", pps});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    std::string text = report.out;  // one line, however the footnote is wrapped
    std::replace(text.begin(), text.end(), '\n', ' ');
    EXPECT_TRUE(testing::contains(text,
                                  "It polled 51 periods, reading the level every 850 ns: each "
                                  "polled edge is bracketed to ±401 ns (median)."))
        << report.out;
    // Every other reference's document has no "polled" object.
    DualFiles phc;
    EXPECT_FALSE(to_json(*reference_bias(store::read_capture_file(phc.pps))).contains("polled"));
}

TEST(ReferenceBias, OfACaptureOfBothEdgesIsPerEdge) {
    // The reference latched rising edges only: the clear-edge run has no pair, hence no bias.
    DualFiles files(2'000, true);
    const auto file = store::read_capture_file(files.pps);
    EXPECT_EQ(reference_bias(file, core::Edge::assert_edge)->pairs, 199U);
    EXPECT_EQ(reference_bias(file, core::Edge::assert_edge)->unpaired, 1U);
    EXPECT_EQ(reference_bias(file, core::Edge::clear_edge)->pairs, 0U);
    EXPECT_TRUE(std::isnan(reference_bias(file, core::Edge::clear_edge)->median_ns));
}

TEST(ReferenceBias, IsFoundBesideTheFileWhenTheRunsDirectoryMoved) {
    DualFiles files;
    auto file = store::read_capture_file(files.pps);
    file.run_meta.dual->peer_file = "/gone/run-1.csv";
    EXPECT_TRUE(reference_bias(file));
    file.run_meta.dual->peer_file = "/gone/other.csv";
    EXPECT_THROW(reference_bias(file), core::InputError);
}

TEST(ReferenceBias, IsARegistryFigureOfTheRun) {
    DualFiles files;
    const auto run = analyze_capture(store::read_capture_file(files.pps), {});
    EXPECT_DOUBLE_EQ(find_metric("bias_median").value(run), 2000);
    EXPECT_DOUBLE_EQ(find_metric("bias_sigma").value(run), run.bias->stddev_ns);
    EXPECT_DOUBLE_EQ(find_metric("bias_max").value(run), 30'000);
    EXPECT_EQ(find_metric("bias_mean").json_key, "bias_mean_ns");
    const auto reference = analyze_capture(store::read_capture_file(files.reference), {});
    EXPECT_TRUE(std::isnan(find_metric("bias_median").value(reference)));
}

TEST(BiasGate, FailsOnlyOnGrowthTheIntervalsSupport) {
    DualFiles stock(2'000);
    DualFiles rt(12'000);  // the PPS path's timestamps now 10 µs later
    const auto before = analyze_capture(store::read_capture_file(stock.pps), {});
    const auto after = analyze_capture(store::read_capture_file(rt.pps), {});
    GateLimits limits;
    limits.max_bias_growth_ns = 5'000;
    const auto grown = evaluate_gate(&before, after, limits);
    ASSERT_EQ(grown.checks.size(), 1U);
    EXPECT_TRUE(grown.failed());
    EXPECT_DOUBLE_EQ(grown.checks[0].measured, 10'000);
    EXPECT_LE(grown.checks[0].growth_interval.lo, 10'000);
    EXPECT_GT(grown.checks[0].growth_interval.lo, 5'000);
    // The same run against itself: no growth.
    EXPECT_FALSE(evaluate_gate(&before, before, limits).failed());
    // Two-sided: the bias falling by 10 µs leaves a calibrated offset as wrong as it rising.
    const auto fell = evaluate_gate(&after, before, limits);
    EXPECT_TRUE(fell.failed());
    EXPECT_DOUBLE_EQ(fell.checks[0].measured, -10'000);
    EXPECT_LT(fell.checks[0].growth_interval.hi, -5'000);
    limits.max_bias_growth_ns = 20'000;
    EXPECT_FALSE(evaluate_gate(&before, after, limits).failed());
    EXPECT_FALSE(evaluate_gate(&after, before, limits).failed());

    GateLimits absolute;  // --max bias_median=5us
    absolute.maxima.push_back(parse_metric_limit("bias_median=5us", "--max"));
    EXPECT_FALSE(evaluate_gate(nullptr, before, absolute).failed());
    EXPECT_TRUE(evaluate_gate(nullptr, after, absolute).failed());
    // The reference path has no bias of its own: bad input or usage, never a pass.
    const auto reference = analyze_capture(store::read_capture_file(stock.reference), {});
    EXPECT_THROW(evaluate_gate(nullptr, reference, absolute), core::InputError);
    EXPECT_THROW(evaluate_gate(&before, reference, limits), core::UsageError);
}

}  // namespace
}  // namespace ppsbench::analysis
