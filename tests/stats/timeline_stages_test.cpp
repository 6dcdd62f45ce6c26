// SPDX-License-Identifier: GPL-2.0-or-later
// The timeline stages of analyze() (period check, selection, pulse index, missed pulses, phase)
// apply their rules only to the intervals a scan lists as unusual and a closed form to the
// stretches between them (src/stats/unusual_intervals.hpp). Each is pinned here to its rule
// applied to every interval, as the stages did before (kept below as the reference), on random
// captures with every kind of break in the rhythm (random_capture.hpp), to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "pulse_train.hpp"
#include "random_capture.hpp"
// Internal: the stages themselves.
#include "../../src/stats/period_check.hpp"
#include "../../src/stats/phase.hpp"
#include "../../src/stats/phase_blocks.hpp"
#include "../../src/stats/selection.hpp"
#include "../../src/stats/train_detail.hpp"
#include "../../src/stats/unusual_intervals.hpp"

namespace ppsbench::stats {
namespace {

using detail::UnusualIntervals;

bool one_edge(const std::vector<core::Pulse>& pulses) {
    return std::all_of(pulses.begin(), pulses.end(),
                       [](const core::Pulse& p) { return p.edge == core::Edge::assert_edge; });
}

// The intervals a list must name: pulse i whose interval from i − 1 is outside [low, high] or
// (with sequences) whose number is not the one before plus one.
template <typename T, typename S>
std::vector<std::size_t> unusual_by_hand(const T& t, const S& s, std::size_t n,
                                         const UnusualIntervals& u) {
    std::vector<std::size_t> out;
    for (std::size_t i = 1; i < n; ++i) {
        const std::int64_t d = t[i] - t[i - 1];
        bool usual = d >= u.low_ns && d <= u.high_ns;
        if (u.sequences) {
            usual = usual && s[i] == s[i - 1] + 1 && s[i] > s[i - 1];
        }
        if (!usual) {
            out.push_back(i);
        }
    }
    return out;
}

// Every unusual interval is listed (a list may name more: time jumps, pulses around them).
void expect_lists(const std::vector<std::size_t>& list, const std::vector<std::size_t>& needed) {
    EXPECT_TRUE(std::includes(list.begin(), list.end(), needed.begin(), needed.end()));
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
}

TEST(TimelineStages, TheScanListsEveryUnusualIntervalAndNoOther) {
    std::mt19937_64 rng(1);
    for (int trial = 0; trial < 400; ++trial) {
        test::CaptureShape shape = test::random_shape(rng);
        shape.both_edges = false;
        const auto pulses = test::random_capture(rng, shape);
        const core::PackedPulses packed(pulses);
        for (const bool sequences : {true, false}) {
            SCOPED_TRACE(::testing::Message() << "trial " << trial << ", sequences " << sequences);
            const auto scan = detail::scan_file_order(packed, shape.period_ns, sequences);
            const bool negative =
                std::any_of(pulses.begin(), pulses.end(),
                            [](const core::Pulse& p) { return p.timestamp_ns < 0; });
            ASSERT_EQ(scan.has_value(), !negative);
            if (!scan) {
                continue;
            }
            EXPECT_EQ(scan->low_ns, shape.period_ns - shape.period_ns / 5);
            EXPECT_EQ(scan->high_ns, shape.period_ns + shape.period_ns / 5);
            const auto t = test::timestamps(pulses);
            std::vector<std::uint64_t> s;
            for (const core::Pulse& p : pulses) {
                s.push_back(p.sequence);
            }
            const auto needed = unusual_by_hand(t, s, pulses.size(), *scan);
            // Listed unless the list would be long (then every stage takes each interval).
            EXPECT_EQ(scan->listed, needed.size() <= pulses.size() / 16 + 64);
            if (scan->listed) {
                EXPECT_EQ(scan->at, needed);
            } else {
                EXPECT_TRUE(scan->at.empty());
            }
            const auto listed =
                detail::list_unusual(t, s, pulses.size(), shape.period_ns, sequences);
            EXPECT_EQ(listed.listed, scan->listed);
            EXPECT_EQ(listed.at, scan->at);
        }
    }
}

// The scan's inner loop on every path: the first unusual interval and the timestamps read up
// to it, anywhere in its four-interval steps, with intervals on both sides of each bound, of
// every sign, and widths on both sides of 2^31 (SSE2 takes those below).
TEST(TimelineStages, EveryPathOfTheScansLoopFindsTheFirstUnusualInterval) {
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 5000; ++trial) {
        const std::uint64_t low = rng() % 2 == 0 ? 800 : 800'000'000;
        const std::uint64_t width =
            rng() % 5 == 0 ? (std::uint64_t{1} << 31) + rng() % 3 : 2 * low / 4;
        const std::size_t n = 2 + rng() % 40;
        std::vector<std::int64_t> t{static_cast<std::int64_t>(rng() >> (rng() % 2 == 0 ? 1 : 0))};
        for (std::size_t i = 1; i < n; ++i) {
            const auto r = rng() % 40;
            const std::uint64_t d = r == 0   ? low - 1
                                    : r == 1 ? low + width + 1
                                    : r == 2 ? low + width
                                    : r == 3 ? low
                                    : r == 4 ? rng()
                                    : r == 5 ? low + (std::uint64_t{1} << 32)
                                             : low + rng() % (width + 1);
            t.push_back(static_cast<std::int64_t>(static_cast<std::uint64_t>(t.back()) + d));
        }
        const std::size_t from = 1 + rng() % (n - 1);
        const std::size_t to = from + rng() % (n - from + 1);
        std::size_t plain = to;
        std::uint64_t plain_signs = 5;
        for (std::size_t i = from; i < to; ++i) {
            plain_signs |= static_cast<std::uint64_t>(t[i]);
            if (static_cast<std::uint64_t>(t[i]) - static_cast<std::uint64_t>(t[i - 1]) - low >
                width) {
                plain = i;
                break;
            }
        }
        std::uint64_t signs = 5;
        std::uint64_t scalar_signs = 5;
        EXPECT_EQ(detail::first_unusual(t, from, to, low, width, signs), plain)
            << "trial " << trial;
        EXPECT_EQ(detail::first_unusual_scalar(t, from, to, low, width, scalar_signs), plain);
        EXPECT_EQ(signs, plain_signs);
        EXPECT_EQ(scalar_signs, plain_signs);
    }
}

// The phase over a stretch of usual intervals on every path: the same bits for every phase the
// SSE2 conversion takes (|v| < 2^51: zero, both signs, the extremes), blocks of every length.
TEST(TimelineStages, EveryPathOfThePhaseBlockGivesTheSameBits) {
    std::mt19937_64 rng(6);
    const std::int64_t widest = (std::int64_t{1} << 51) - 1;
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t count = rng() % 40;
        const std::uint64_t period = rng() % 2 == 0 ? 1'000'000'000 : rng() >> 20;
        const std::uint64_t start = rng();
        std::vector<std::int64_t> t(count);
        for (std::size_t j = 0; j < count; ++j) {
            const auto r = rng() % 8;
            const std::int64_t v = r == 0   ? 0
                                   : r == 1 ? widest
                                   : r == 2 ? -widest
                                   : r == 3
                                       ? -1
                                       : static_cast<std::int64_t>(rng() % (2 * widest)) - widest;
            t[j] =
                static_cast<std::int64_t>(static_cast<std::uint64_t>(v) + start + (j + 1) * period);
        }
        std::vector<double> fast(count);
        std::vector<double> plain(count);
        std::uint64_t fast_base = start;
        std::uint64_t plain_base = start;
        detail::usual_phase_block(t.data(), count, fast_base, period, fast.data());
        detail::usual_phase_block_scalar(t.data(), count, plain_base, period, plain.data());
        EXPECT_EQ(fast_base, plain_base);
        for (std::size_t j = 0; j < count; ++j) {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(fast[j]), std::bit_cast<std::uint64_t>(plain[j]))
                << "trial " << trial << ", pulse " << j;
        }
    }
}

// The period check as it was: every interval of the edge in time order, sorted, the densest
// window, then the intervals within 5 % of it, copied.
detail::PeriodFinding period_by_hand(const std::vector<core::Pulse>& pulses, std::int64_t period_ns,
                                     core::Cadence cadence, bool kernel_sequences) {
    std::vector<core::Pulse> edge;
    for (const core::Pulse& p : pulses) {
        if (p.edge == core::Edge::assert_edge) {
            edge.push_back(p);
        }
    }
    std::stable_sort(edge.begin(), edge.end(), [](const core::Pulse& a, const core::Pulse& b) {
        return a.timestamp_ns < b.timestamp_ns;
    });
    detail::PeriodFinding f;
    if (edge.size() < 2) {
        return f;
    }
    const std::size_t stride = std::max<std::size_t>(1, (edge.size() - 1) / 65536);
    std::vector<double> x;
    for (std::size_t i = stride; i < edge.size(); i += stride) {
        const std::int64_t d = edge[i].timestamp_ns - edge[i - 1].timestamp_ns;
        const auto events = kernel_sequences
                                ? sequence_advance(edge[i - 1].sequence, edge[i].sequence)
                                : std::nullopt;
        if (d > 0) {
            x.push_back(static_cast<double>(d) / static_cast<double>(events.value_or(1)));
        }
    }
    if (x.empty()) {
        return f;
    }
    std::sort(x.begin(), x.end());
    std::vector<std::size_t> in_window(x.size());
    std::size_t most = 0;
    for (std::size_t i = 0, j = 0; i < x.size(); ++i) {
        j = std::max(j, i);
        while (j < x.size() && x[j] <= x[i] * (1 + detail::period_bound)) {
            ++j;
        }
        in_window[i] = j - i;
        most = std::max(most, in_window[i]);
    }
    double rough = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (2 * in_window[i] >= most) {
            std::vector<double> window(x.begin() + static_cast<std::ptrdiff_t>(i),
                                       x.begin() + static_cast<std::ptrdiff_t>(i + in_window[i]));
            rough = median_in_place(window);
            break;
        }
    }
    std::vector<double> near;
    for (double v : x) {
        if (std::abs(v - rough) <= 0.05 * rough) {
            near.push_back(v);
        }
    }
    f.support = near.size();
    f.mode_ns = median_in_place(near);
    const double spread = robust_stddev_in_place(near, f.mode_ns);
    const auto p = static_cast<double>(period_ns);
    if (cadence == core::Cadence::sampled) {
        f.multiple = std::max<std::int64_t>(1, std::llround(f.mode_ns / p));
    }
    const double expected = p * static_cast<double>(f.multiple);
    f.rate_error = f.mode_ns / expected - 1;
    const double uncertainty =
        3 * 1.2533 * spread / std::sqrt(static_cast<double>(f.support)) / expected;
    f.consistent = f.support < 2 || std::abs(f.rate_error) <= detail::period_bound + uncertainty;
    return f;
}

void expect_same(const detail::PeriodFinding& a, const detail::PeriodFinding& b) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.mode_ns), std::bit_cast<std::uint64_t>(b.mode_ns));
    EXPECT_EQ(a.support, b.support);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.rate_error),
              std::bit_cast<std::uint64_t>(b.rate_error));
    EXPECT_EQ(a.multiple, b.multiple);
    EXPECT_EQ(a.consistent, b.consistent);
}

void expect_same(const detail::Selection& a, const detail::Selection& b) {
    EXPECT_EQ(a.identity, b.identity);
    EXPECT_EQ(a.size, b.size);
    EXPECT_EQ(a.other_edge, b.other_edge);
    EXPECT_EQ(a.duplicates, b.duplicates);
    EXPECT_EQ(a.out_of_order, b.out_of_order);
    EXPECT_EQ(a.jump_at, b.jump_at);
    EXPECT_EQ(a.jump_ns, b.jump_ns);
    EXPECT_EQ(a.correction, b.correction);
    for (std::size_t i = 0; i < a.size; ++i) {
        ASSERT_EQ(a.pulse(i), b.pulse(i)) << i;
    }
}

// The selection and the period check read the file order's list where the capture holds one
// edge, and every pulse otherwise: the same answers, and the same refusals.
TEST(TimelineStages, TheListedPeriodCheckAndSelectionAreThoseOfEveryPulse) {
    std::mt19937_64 rng(2);
    for (int trial = 0; trial < 400; ++trial) {
        const test::CaptureShape shape = test::random_shape(rng);
        const auto pulses = test::random_capture(rng, shape);
        const core::PackedPulses packed(pulses);
        const bool sequences = rng() % 4 != 0;
        const bool can_step = rng() % 3 != 0;
        const auto cadence =
            shape.sampled_every > 1 ? core::Cadence::sampled : core::Cadence::every_edge;
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        std::optional<UnusualIntervals> scan;
        if (one_edge(pulses)) {
            scan = detail::scan_file_order(packed, shape.period_ns, sequences);
        }
        const UnusualIntervals* list = scan && scan->listed ? &*scan : nullptr;
        const auto edge = core::Edge::assert_edge;
        expect_same(detail::find_period(packed, edge, shape.period_ns, cadence, sequences, list),
                    period_by_hand(pulses, shape.period_ns, cadence, sequences));
        expect_same(detail::find_period(packed, edge, shape.period_ns, cadence, sequences, list),
                    detail::find_period(packed, edge, shape.period_ns, cadence, sequences));
        std::string every_error;
        std::string listed_error;
        std::optional<detail::Selection> every;
        std::optional<detail::Selection> listed;
        try {
            every = detail::select_pulses(packed, edge, shape.period_ns, can_step, sequences);
        } catch (const core::InputError& e) {
            every_error = e.what();
        }
        try {
            listed =
                detail::select_pulses(packed, edge, shape.period_ns, can_step, sequences, list);
        } catch (const core::InputError& e) {
            listed_error = e.what();
        }
        ASSERT_EQ(listed_error, every_error);
        if (!every) {
            continue;
        }
        expect_same(*listed, *every);
        // Each selection's own list names every unusual interval among the selected pulses.
        for (const detail::Selection* s : {&*listed, &*every}) {
            const detail::TimestampColumn t{*s};
            const detail::SequenceColumn q{*s};
            if (s->unusual.listed) {
                expect_lists(s->unusual.at, unusual_by_hand(t, q, s->size, s->unusual));
            }
            EXPECT_EQ(s->unusual.sequences, sequences);
        }
    }
}

std::vector<std::int64_t> index_by_hand(const detail::TimestampColumn& t, std::size_t n,
                                        double period) {
    std::vector<std::int64_t> k;
    for (std::size_t i = 0; i < n; ++i) {
        k.push_back(
            i == 0 ? 0 : k.back() + std::llround(static_cast<double>(t[i] - t[i - 1]) / period));
    }
    return k;
}

detail::MissedPulses missed_by_hand(const detail::Selection& s, bool have_sequences, double period,
                                    std::int64_t nominal, bool can_step) {
    const detail::TimestampColumn t{s};
    const detail::SequenceColumn q{s};
    detail::MissedPulses m;
    for (std::size_t i = 1; i < s.size; ++i) {
        IntervalEvidence e{t[i] - t[i - 1], std::nullopt, std::nullopt};
        if (have_sequences) {
            e.events = sequence_advance(q[i - 1], q[i]);
        }
        const IntervalVerdict v = classify_interval(e, {period, nominal, can_step});
        m.unseen += v.unseen;
        if (v.missed > 0) {
            m.total += v.missed;
            m.by_time += v.missed_by_time;
            m.by_sequence += v.missed_by_sequence;
            m.gaps.push_back({i, v.missed, v.missed_by_sequence, v.missed_by_time});
        }
    }
    return m;
}

// The phase as it was computed: every pulse folded around the first one's offset, the window
// centred on the median of an even sample of those, then PhaseRule::for_each() (which the
// stability grid still uses to compute the phase again).
std::vector<double> phase_by_hand(const detail::Selection& s, const detail::PulseIndex& index,
                                  bool realtime, std::int64_t period_ns) {
    detail::PhaseRule rule{realtime, 0, period_ns};
    const detail::TimestampColumn t{s};
    if (realtime && s.size > 0) {
        detail::PhaseFolder around(phase_offset_ns(t[0], period_ns), period_ns);
        std::vector<double> folded;
        for (std::size_t i = 0; i < s.size; ++i) {
            folded.push_back(static_cast<double>(around(t[i])));
        }
        std::vector<double> sample = even_sample(folded);
        rule.centre = phase_offset_ns(std::llround(median_in_place(sample)), period_ns);
    }
    std::vector<double> v(s.size);
    rule.for_each(s, index, {}, [&v](std::size_t i, std::int64_t, double x) { v[i] = x; });
    return v;
}

void expect_bits(const std::vector<double>& a, const std::vector<double>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(a[i]), std::bit_cast<std::uint64_t>(b[i]))
            << "pulse " << i;
    }
}

// After the selection: the pulse index, the missed pulses and the phase from its list equal those
// from every interval, on the selections of the test above (and across the phase's 256-pulse
// blocks: stretches of every length).
TEST(TimelineStages, TheIndexTheMissedPulsesAndThePhaseFromTheListAreThoseOfEveryInterval) {
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 400; ++trial) {
        const test::CaptureShape shape = test::random_shape(rng);
        const auto pulses = test::random_capture(rng, shape);
        const core::PackedPulses packed(pulses);
        const bool sequences = rng() % 4 != 0;
        const bool realtime = rng() % 4 != 0;
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        std::optional<UnusualIntervals> scan;
        if (one_edge(pulses)) {
            scan = detail::scan_file_order(packed, shape.period_ns, sequences);
        }
        if (one_edge(pulses) && !scan) {
            continue;  // a negative timestamp: refused (the test above)
        }
        const UnusualIntervals* list = scan && scan->listed ? &*scan : nullptr;
        std::optional<detail::Selection> s;
        try {
            s = detail::select_pulses(packed, core::Edge::assert_edge, shape.period_ns,
                                      realtime && sequences, sequences, list);
        } catch (const core::InputError&) {
            continue;
        }
        const std::size_t n = s->size;
        const detail::TimestampColumn t{*s};
        const double period = detail::estimate_period(t, n, shape.period_ns);
        const detail::PulseIndex index(t, n, period, s->unusual);
        EXPECT_EQ(index.dense(), index_by_hand(t, n, period));
        EXPECT_EQ(index.dense(), detail::PulseIndex(t, n, period).dense());
        const detail::MissedPulses missed =
            detail::find_missed(t, detail::SequenceColumn{*s}, n, sequences, period,
                                shape.period_ns, realtime, s->unusual);
        const detail::MissedPulses expected =
            missed_by_hand(*s, sequences, period, shape.period_ns, realtime);
        EXPECT_EQ(missed.total, expected.total);
        EXPECT_EQ(missed.by_sequence, expected.by_sequence);
        EXPECT_EQ(missed.by_time, expected.by_time);
        EXPECT_EQ(missed.unseen, expected.unseen);
        ASSERT_EQ(missed.gaps.size(), expected.gaps.size());
        for (std::size_t g = 0; g < missed.gaps.size(); ++g) {
            EXPECT_EQ(missed.gaps[g].index, expected.gaps[g].index);
            EXPECT_EQ(missed.gaps[g].missed, expected.gaps[g].missed);
            EXPECT_EQ(missed.gaps[g].missed_by_sequence, expected.gaps[g].missed_by_sequence);
            EXPECT_EQ(missed.gaps[g].missed_by_time, expected.gaps[g].missed_by_time);
        }
        const auto clock = realtime ? core::ClockId::realtime : core::ClockId::monotonic;
        const detail::PhaseSeries phase =
            detail::phase_series(*s, index, clock, shape.period_ns, 0);
        expect_bits(phase.values_ns.to_doubles(),
                    phase_by_hand(*s, index, realtime, shape.period_ns));
    }
}

// Long usual stretches around the phase's blocks and the scan's steps, one break at a time.
TEST(TimelineStages, AOneBreakCaptureGivesThePhaseOfEveryIntervalAtEveryBlockBoundary) {
    std::mt19937_64 rng(4);
    for (const std::size_t n : {255UL, 256UL, 257UL, 511UL, 513UL, 1000UL}) {
        // size_t{…}: n − 1 is a size_t, not an unsigned long on 32-bit ARM.
        for (const std::size_t at : {std::size_t{1}, std::size_t{2}, std::size_t{255},
                                     std::size_t{256}, std::size_t{257}, n - 1}) {
            test::CaptureShape shape;
            shape.slots = n;
            auto pulses = test::random_capture(rng, shape);
            if (at >= pulses.size()) {
                continue;
            }
            for (std::size_t i = at; i < pulses.size(); ++i) {
                pulses[i].timestamp_ns += 3 * shape.period_ns / 2;  // a step the phase unwraps
            }
            const core::PackedPulses packed(pulses);
            const auto scan = detail::scan_file_order(packed, shape.period_ns, true);
            ASSERT_TRUE(scan && scan->listed);
            EXPECT_EQ(scan->at, std::vector<std::size_t>{at});
            const detail::Selection s = detail::select_pulses(packed, core::Edge::assert_edge,
                                                              shape.period_ns, false, true, &*scan);
            const detail::PulseIndex index(detail::TimestampColumn{s}, s.size, 1e9, s.unusual);
            const detail::PhaseSeries phase =
                detail::phase_series(s, index, core::ClockId::realtime, shape.period_ns, 0);
            SCOPED_TRACE(::testing::Message() << "n " << n << ", break at " << at);
            expect_bits(phase.values_ns.to_doubles(),
                        phase_by_hand(s, index, true, shape.period_ns));
        }
    }
}

}  // namespace
}  // namespace ppsbench::stats
