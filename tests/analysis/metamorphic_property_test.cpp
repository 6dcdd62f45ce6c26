// SPDX-License-Identifier: GPL-2.0-or-later
// The metamorphic property suite: seeded generated captures, each put through a transformation
// whose effect on the figures is known. Every case ends in one of two ways: the figures equal
// the untransformed ones within the tolerance stated beside it, or the input is refused
// (core::InputError) — and every figure that is produced satisfies every invariant
// (analysis::broken_invariants). PPSBENCH_PROPERTY_CASES sets the cases per property (default
// 200, a few seconds in all; dev.sh's long mode runs many more).

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "generated_capture.hpp"
#include "ppsbench/analysis/invariants.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::test {
namespace {

using stats::RunStatistics;
using stats::Summary;

std::uint64_t cases() {
    if (const char* text = std::getenv("PPSBENCH_PROPERTY_CASES")) {
        return std::max<std::uint64_t>(1, std::strtoull(text, nullptr, 10));
    }
    return 200;
}

void expect_invariants(const RunStatistics& r) {
    for (const auto& broken : analysis::broken_invariants(r)) {
        ADD_FAILURE() << "invariant '" << broken.name << "' broken: " << broken.detail;
    }
}

RunStatistics analyzed(const GeneratedCapture& c, bool keep_series = false) {
    stats::AnalysisOptions options = c.options;
    options.keep_series = keep_series;
    RunStatistics r = stats::analyze(c.pulses, options);
    expect_invariants(r);
    return r;
}

bool refused(const GeneratedCapture& c) {
    try {
        expect_invariants(stats::analyze(c.pulses, c.options));
    } catch (const core::InputError&) {
        return true;
    }
    return false;
}

// Equal within `relative` of the larger magnitude, plus `absolute` ns.
void expect_close(double expected, double actual, double relative, double absolute,
                  const char* what) {
    const double allowed = relative * std::max(std::abs(expected), std::abs(actual)) + absolute;
    EXPECT_NEAR(expected, actual, allowed) << what;
}

void expect_same_summary(const Summary& a, const Summary& b, double relative, double absolute) {
    EXPECT_EQ(a.count, b.count);
    expect_close(a.mean, b.mean, relative, absolute, "mean");
    expect_close(a.stddev, b.stddev, relative, absolute, "σ");
    expect_close(a.min, b.min, relative, absolute, "min");
    expect_close(a.max, b.max, relative, absolute, "max");
    expect_close(a.peak_to_peak, b.peak_to_peak, relative, absolute, "p2p");
    expect_close(a.median, b.median, relative, absolute, "median");
}

// The headline, the counts and the steps: what a transformation that changes nothing must keep.
void expect_same_figures(const RunStatistics& a, const RunStatistics& b) {
    EXPECT_EQ(a.pulses, b.pulses);
    EXPECT_EQ(a.missed_pulses, b.missed_pulses);
    EXPECT_EQ(a.clock_steps.size(), b.clock_steps.size());
    EXPECT_EQ(a.offset_ns.has_value(), b.offset_ns.has_value());
    expect_same_summary(a.headline(), b.headline(), 1e-9, 1e-6);
    expect_same_summary(a.detrended_ns, b.detrended_ns, 1e-6, 1e-3);
}

// The summary of the base run's offsets of the pulses `keep` says yes to: what a subset of
// the pulses must give, since each offset depends on its own timestamp only.
template <typename Keep>
Summary offsets_of(const RunStatistics& base, Keep keep) {
    std::vector<double> subset;
    for (std::size_t i = 0; i < base.series->pulse.size(); ++i) {
        if (keep(base.series->pulse[i])) {
            subset.push_back(base.series->offset_ns[i]);
        }
    }
    return stats::summarize(subset);
}

// Runs `property` on `cases()` seeded captures, naming the seed of a failing one.
template <typename Property>
void for_each_case(std::uint64_t salt, Property property, std::size_t min_pulses = 100) {
    for (std::uint64_t seed = 1; seed <= cases(); ++seed) {
        core::Random rng(seed * 7919 + salt);
        const GeneratedCapture base = generate_capture(rng, min_pulses);
        SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(base.pulses.size()) +
                     " pulses, P " + std::to_string(base.options.period_ns) + " ns, jitter " +
                     std::to_string(base.jitter_ns) + " ns");
        property(base, rng);
        if (::testing::Test::HasFailure()) {
            return;  // one seed's story is enough to read
        }
    }
}

TEST(MetamorphicProperty, ShiftingByWholePeriodsChangesNothing) {
    for_each_case(1, [](const GeneratedCapture& base, core::Random& rng) {
        const auto periods = static_cast<std::int64_t>(rng.below(100'000'000)) + 1;
        expect_same_figures(analyzed(base), analyzed(shifted(base, periods)));
    });
}

TEST(MetamorphicProperty, DuplicatedLinesAreCountedAndChangeNothing) {
    for_each_case(2, [](const GeneratedCapture& base, core::Random& rng) {
        GeneratedCapture doubled = base;
        std::size_t added = 0;
        doubled.pulses.clear();
        const double rate = rng.chance(0.3) ? 1.0 : rng.uniform();
        for (const auto& p : base.pulses) {
            doubled.pulses.push_back(p);
            if (rng.chance(rate)) {
                doubled.pulses.push_back(p);
                ++added;
            }
        }
        const RunStatistics r = analyzed(doubled);
        expect_same_figures(analyzed(base), r);
        EXPECT_EQ(r.duplicates, added);
    });
}

TEST(MetamorphicProperty, ShufflingChangesNothing) {
    for_each_case(3, [](const GeneratedCapture& base, core::Random& rng) {
        GeneratedCapture shuffled = base;
        for (std::size_t i = shuffled.pulses.size() - 1; i > 0; --i) {
            std::swap(shuffled.pulses[i], shuffled.pulses[rng.below(i + 1)]);
        }
        const RunStatistics r = analyzed(shuffled);
        expect_same_figures(analyzed(base), r);
        EXPECT_GT(r.out_of_order, 0u);
    });
}

TEST(MetamorphicProperty, DecimatingKeepsTheOffsetsAndCountsTheRestMissed) {
    for_each_case(4, [](const GeneratedCapture& base, core::Random& rng) {
        const std::size_t every = 2 + rng.below(9);
        const auto keep = [every](std::size_t i) { return i % every == 0; };
        const RunStatistics full = analyzed(base, true);
        const RunStatistics r = analyzed(kept(base, keep));
        ASSERT_TRUE(r.offset_ns);
        expect_same_summary(offsets_of(full, keep), *r.offset_ns, 1e-9, 1e-6);
        const std::size_t last = (base.pulses.size() - 1) / every * every;
        EXPECT_EQ(r.missed_pulses, last + 1 - r.pulses);
        EXPECT_EQ(r.missed_by_sequence, r.missed_pulses);
    });
}

TEST(MetamorphicProperty, IndependentLossUpToNinetyPercentKeepsThePeriod) {
    for_each_case(
        5,
        [](const GeneratedCapture& base, core::Random& rng) {
            const double loss = rng.uniform(0, 0.9);
            std::vector<bool> keep(base.pulses.size());
            for (std::size_t i = 0; i < keep.size(); ++i) {
                keep[i] = i == 0 || !rng.chance(loss);
            }
            const auto keeps = [&keep](std::size_t i) { return static_cast<bool>(keep[i]); };
            const RunStatistics full = analyzed(base, true);
            const GeneratedCapture lossy = kept(base, keeps);
            if (lossy.pulses.size() < 2) {
                return;
            }
            const RunStatistics r = analyzed(lossy);
            ASSERT_TRUE(r.offset_ns);
            expect_same_summary(offsets_of(full, keeps), *r.offset_ns, 1e-9, 1e-6);
            EXPECT_TRUE(r.clock_steps.empty());
            EXPECT_EQ(r.missed_pulses,
                      lossy.pulses.back().sequence - lossy.pulses.front().sequence + 1 - r.pulses);
            // Without the kernel's numbers, time alone counts the slots (up to half lost: the
            // period is then the most common interval by a clear margin).
            if (loss <= 0.5) {
                const RunStatistics by_time = analyzed(renumbered(lossy));
                ASSERT_TRUE(by_time.offset_ns);
                expect_same_summary(*r.offset_ns, *by_time.offset_ns, 1e-9, 1e-6);
                EXPECT_EQ(by_time.missed_by_time, r.missed_pulses);
            }
        },
        400);
}

TEST(MetamorphicProperty, SparseSamplesFoldOnThePeriodWithoutMissedPulses) {
    for_each_case(
        6,
        [](const GeneratedCapture& base, core::Random& rng) {
            const std::size_t poll = std::size_t{1} << (3 + rng.below(4));  // 8 … 64 periods
            const auto keep = [poll](std::size_t i) { return i % poll == 0; };
            const RunStatistics full = analyzed(base, true);
            GeneratedCapture sparse = renumbered(kept(base, keep));
            sparse.options.cadence = core::Cadence::sampled;
            const RunStatistics r = analyzed(sparse);
            ASSERT_TRUE(r.offset_ns);
            expect_same_summary(offsets_of(full, keep), *r.offset_ns, 1e-9, 1e-6);
            EXPECT_EQ(r.missed_pulses, 0u);
            EXPECT_EQ(r.unseen_events, 0u);
            EXPECT_TRUE(r.clock_steps.empty());
        },
        400);
}

TEST(MetamorphicProperty, HalfAPeriodLaterIsTheSameJitterHalfAPeriodAway) {
    for_each_case(7, [](const GeneratedCapture& base, core::Random&) {
        const auto p = static_cast<double>(base.options.period_ns);
        const RunStatistics a = analyzed(base);
        const RunStatistics b = analyzed(delayed(base, base.options.period_ns / 2));
        ASSERT_TRUE(a.offset_ns && b.offset_ns);
        expect_close(a.offset_ns->stddev, b.offset_ns->stddev, 1e-9, 1e-6, "σ");
        expect_close(a.offset_ns->peak_to_peak, b.offset_ns->peak_to_peak, 1e-9, 1e-6, "p2p");
        EXPECT_NEAR(std::abs(folded(b.offset_ns->mean - a.offset_ns->mean, p)), p / 2, 1e-3);
        EXPECT_EQ(a.clock_steps.size(), b.clock_steps.size());
    });
}

TEST(MetamorphicProperty, AFreeRunningClockIsAnalysedByItsResiduals) {
    for_each_case(8, [](const GeneratedCapture& base, core::Random& rng) {
        // A few ppm over the run's seconds (at 100 ms periods ten times that, so that the drift
        // stands five standard errors clear of the jitter, which analyze() asks of it).
        const double ppm = (rng.chance(0.5) ? 1 : -1) * rng.uniform(2, 20) * 1e9 /
                           static_cast<double>(base.options.period_ns);
        const RunStatistics a = analyzed(base);
        const RunStatistics b = analyzed(free_running(base, ppm));
        EXPECT_TRUE(b.free_running);
        EXPECT_FALSE(b.offset_ns.has_value());
        EXPECT_TRUE(b.clock_steps.empty());
        // Rounding the scaled timestamps to whole ns adds up to 0.29 ns of σ.
        expect_close(a.detrended_ns.stddev, b.headline().stddev, 1e-3, 0.5, "residual σ");
        EXPECT_EQ(a.pulses, b.pulses);
        EXPECT_EQ(b.missed_pulses, 0u);
    });
}

// Any run of 3 pulses or more (3 … 64 here, where main judged no drift under 32): ±10 ppm added
// is flagged as a free-running clock with the detrended σ unchanged (a line added to the phase
// changes no residual of the line fitted to it), or the run says its drift was not judged — never
// a ramp passed off as jitter.
TEST(MetamorphicProperty, TenPpmOnAnyShortRunIsFlaggedOrSaidToBeUnjudged) {
    for_each_case(17, [](const GeneratedCapture& whole, core::Random& rng) {
        const std::size_t n = 3 + rng.below(62);
        const GeneratedCapture base = kept(whole, [n](std::size_t i) { return i < n; });
        const double ppm = rng.chance(0.5) ? 10 : -10;
        SCOPED_TRACE(std::to_string(n) + " pulses, " + std::to_string(ppm) + " ppm, jitter " +
                     std::to_string(base.jitter_ns) + " ns");
        const RunStatistics a = analyzed(base);
        const RunStatistics b = analyzed(free_running(base, ppm));
        EXPECT_EQ(a.pulses, b.pulses);
        if (b.free_running) {
            EXPECT_FALSE(b.offset_ns.has_value());
            // Rounding the scaled timestamps to whole ns adds up to 0.29 ns of σ.
            expect_close(a.detrended_ns.stddev, b.headline().stddev, 1e-3, 0.5, "residual σ");
            EXPECT_TRUE(b.clock_steps.empty());
        } else {
            EXPECT_FALSE(b.drift_judged);
        }
    });
}

TEST(MetamorphicProperty, ARelabelledPeriodIsRefusedOrAnalysedAsFreeRunning) {
    for_each_case(9, [](const GeneratedCapture& base, core::Random& rng) {
        GeneratedCapture relabelled = base;
        const auto p = base.options.period_ns;
        switch (rng.below(4)) {
            case 0:  // a whole multiple: the pulses are a fraction of it apart
                relabelled.options.period_ns = p * static_cast<std::int64_t>(2 + rng.below(9));
                break;
            case 1:  // a fraction: consecutive kernel numbers a whole number of periods apart
                relabelled.options.period_ns = p / static_cast<std::int64_t>(2 + rng.below(9));
                break;
            case 2: {  // off by more than any clock: 0.2 % … 30 %
                const double off = (rng.chance(0.5) ? 1 : -1) * rng.uniform(0.002, 0.3);
                relabelled.options.period_ns = std::llround(static_cast<double>(p) * (1 + off));
                break;
            }
            default: {  // off by a crystal's error: 50 … 800 ppm, which is a free-running clock
                const double off = (rng.chance(0.5) ? 1 : -1) * rng.uniform(50e-6, 800e-6);
                relabelled.options.period_ns = std::llround(static_cast<double>(p) * (1 + off));
                const RunStatistics a = analyzed(base);
                const RunStatistics b = analyzed(relabelled);
                EXPECT_TRUE(b.free_running);
                expect_close(a.detrended_ns.stddev, b.headline().stddev, 1e-3, 0.5, "σ");
                EXPECT_EQ(b.missed_pulses, 0u);
                EXPECT_TRUE(b.clock_steps.empty());
                return;
            }
        }
        EXPECT_TRUE(refused(relabelled)) << "period " << relabelled.options.period_ns;
    });
}

// Off by a crystal's error for long enough that the phase runs through half a period or more
// (main folded it first: a sawtooth, σ ≈ P/√12 and no free-running note).
TEST(MetamorphicProperty, APeriodSlightlyOffOverALongRunIsStillFreeRunning) {
    for_each_case(
        13,
        [](const GeneratedCapture& base, core::Random& rng) {
            const auto n = static_cast<double>(base.pulses.size());
            const double off = (rng.chance(0.5) ? 1 : -1) *
                               std::min(950e-6, rng.uniform(0.6, 3.0) / n);  // 0.6 … 1.4 P
            GeneratedCapture relabelled = base;
            relabelled.options.period_ns =
                std::llround(static_cast<double>(base.options.period_ns) * (1 + off));
            SCOPED_TRACE("off " + std::to_string(off * 1e6) + " ppm");
            const RunStatistics a = analyzed(base);
            const RunStatistics b = analyzed(relabelled);
            EXPECT_TRUE(b.free_running);
            expect_close(a.detrended_ns.stddev, b.headline().stddev, 1e-3, 0.5, "σ");
            EXPECT_EQ(b.missed_pulses, 0u);
            EXPECT_TRUE(b.clock_steps.empty());
        },
        1200);
}

// A clock step of `size` at a random pulse at least 20 from either end.
GeneratedCapture with_step(const GeneratedCapture& base, core::Random& rng, std::int64_t size) {
    const std::size_t at = 20 + rng.below(base.pulses.size() - 40);
    return stepped(base, at, size);
}

std::int64_t step_size(core::Random& rng, std::int64_t p) {
    switch (rng.below(6)) {
        case 0:
            return p / 2;
        case 1:
            return -p / 2;
        case 2:
            return -p * 7 / 10;
        case 3:
            return std::int64_t{86'400} * 1'000'000'000;  // a day
        case 4:
            return (rng.chance(0.5) ? 1 : -1) * static_cast<std::int64_t>(rng.below(50)) * p +
                   static_cast<std::int64_t>(rng.uniform(-0.49, 0.49) * static_cast<double>(p));
        default:
            return static_cast<std::int64_t>(rng.uniform(-0.49, 0.49) * static_cast<double>(p));
    }
}

TEST(MetamorphicProperty, AClockStepOfAnySizeIsOneStepWithKernelSequences) {
    for_each_case(10, [](const GeneratedCapture& base, core::Random& rng) {
        const std::int64_t size = step_size(rng, base.options.period_ns);
        if (std::abs(static_cast<double>(size)) < 100 * base.jitter_ns) {
            return;  // below what the phase shows as a step
        }
        SCOPED_TRACE("step " + std::to_string(size) + " ns");
        const RunStatistics a = analyzed(base);
        const RunStatistics b = analyzed(with_step(base, rng, size));
        ASSERT_EQ(b.clock_steps.size(), 1u);
        EXPECT_NEAR(b.clock_steps.front().size_ns, static_cast<double>(size), 5 * base.jitter_ns);
        EXPECT_EQ(b.pulses, a.pulses);
        EXPECT_EQ(b.missed_pulses, 0u);
        // Sizing a step misjudges it by about σ·√(8/N): at N ≥ 20 a side, under 10 % on σ.
        expect_close(a.headline().stddev, b.headline().stddev, 0.1, 0, "σ");
    });
}

TEST(MetamorphicProperty, WithoutSequenceEvidenceAStepIsKnownModuloThePeriod) {
    for_each_case(11, [](const GeneratedCapture& base, core::Random& rng) {
        // A step back by more than a period interleaves the two segments in time, and without
        // sequence numbers time order is all there is: such steps go forward here.
        std::int64_t size = step_size(rng, base.options.period_ns);
        if (size < -base.options.period_ns) {
            size = -size;
        }
        const auto p = static_cast<double>(base.options.period_ns);
        const double seen = folded(static_cast<double>(size), p);
        SCOPED_TRACE("step " + std::to_string(size) + " ns");
        const RunStatistics a = analyzed(base);
        const RunStatistics b = analyzed(renumbered(with_step(base, rng, size)));
        if (std::abs(seen) < 100 * base.jitter_ns) {
            EXPECT_TRUE(b.clock_steps.empty());  // whole periods: invisible in the phase
            return;
        }
        ASSERT_EQ(b.clock_steps.size(), 1u);
        // ±P/2 is one step of either sign.
        const double found = b.clock_steps.front().size_ns;
        EXPECT_NEAR(std::abs(folded(found - seen, p)), 0, 5 * base.jitter_ns) << found;
        expect_close(a.headline().stddev, b.headline().stddev, 0.1, 0, "σ");
    });
}

// The same figure, or absent (NaN: not enough data, as the period jitter of a sampled log,
// whose samples are never one period apart) in both.
void expect_same_figure(double expected, double actual, const char* what) {
    EXPECT_EQ(std::isnan(expected), std::isnan(actual)) << what;
    if (!std::isnan(expected) && !std::isnan(actual)) {
        expect_close(expected, actual, 1e-12, 0, what);
    }
}

// σ with the flagged outliers left out, of every series: a summary keeps only σ of these.
void expect_same_without_outliers(const RunStatistics& a, const RunStatistics& b) {
    EXPECT_EQ(a.offset_ns_without_outliers.has_value(), b.offset_ns_without_outliers.has_value());
    expect_same_figure(a.headline_without_outliers().stddev, b.headline_without_outliers().stddev,
                       "headline σ without outliers");
    expect_same_figure(a.detrended_ns_without_outliers.stddev,
                       b.detrended_ns_without_outliers.stddev, "residual σ without outliers");
    expect_same_figure(a.period_jitter_ns_without_outliers.stddev,
                       b.period_jitter_ns_without_outliers.stddev,
                       "period jitter σ without outliers");
}

// Every stability figure at every τ written: the same τ and the same value (NaN stays NaN).
void expect_same_stability(const std::optional<stats::Stability>& a,
                           const std::optional<stats::Stability>& b) {
    ASSERT_EQ(a.has_value(), b.has_value());
    if (!a) {
        return;
    }
    ASSERT_EQ(a->tau_s.size(), b->tau_s.size());
    const auto same = [](const std::vector<double>& x, const std::vector<double>& y,
                         const char* what) {
        ASSERT_EQ(x.size(), y.size()) << what;
        for (std::size_t i = 0; i < x.size(); ++i) {
            SCOPED_TRACE("τ #" + std::to_string(i));
            expect_same_figure(x[i], y[i], what);
        }
    };
    same(a->tau_s, b->tau_s, "τ");
    same(a->adev, b->adev, "adev");
    same(a->mdev, b->mdev, "mdev");
    same(a->tdev_s, b->tdev_s, "tdev");
    same(a->mtie_s, b->mtie_s, "mtie");
}

TEST(MetamorphicProperty, ASavedSummaryReadsBackTheSameFigures) {
    for_each_case(12, [](const GeneratedCapture& generated, core::Random& rng) {
        // Every kind of run a summary can hold: every edge, a free-running clock (its headline
        // is the residuals), a sampled log; with the stability figures half the time.
        GeneratedCapture base = generated;
        switch (rng.below(3)) {
            case 0:
                break;
            case 1:
                base = free_running(base, (rng.chance(0.5) ? 1 : -1) * rng.uniform(2, 20) * 1e9 /
                                              static_cast<double>(base.options.period_ns));
                break;
            default:
                base = renumbered(kept(base, [](std::size_t i) { return i % 8 == 0; }));
                base.options.cadence = core::Cadence::sampled;
                break;
        }
        base.options.compute_stability = rng.chance(0.5);
        analysis::Report report;
        analysis::RunAnalysis run;
        run.label = "generated";
        run.file = "generated.csv";
        run.meta = store::RunMeta{};
        run.stats = analyzed(base);
        report.runs.push_back(run);
        std::istringstream saved(analysis::report_document(report).dump());
        const auto back = analysis::read_report_document(saved, "generated.json");
        ASSERT_EQ(back.size(), 1u);
        expect_invariants(back.front().stats);
        EXPECT_NO_THROW(analysis::require_invariants(back.front(), "generated.json"));
        const RunStatistics& read = back.front().stats;
        EXPECT_EQ(read.pulses, run.stats.pulses);
        EXPECT_EQ(read.missed_pulses, run.stats.missed_pulses);
        EXPECT_EQ(read.cadence, run.stats.cadence);
        EXPECT_EQ(read.free_running, run.stats.free_running);
        expect_same_summary(run.stats.headline(), read.headline(), 1e-12, 0);
        expect_same_without_outliers(run.stats, read);
        expect_same_stability(run.stats.stability, read.stability);
    });
}

}  // namespace
}  // namespace ppsbench::test
