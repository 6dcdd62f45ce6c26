// SPDX-License-Identifier: GPL-2.0-or-later
#include "phase.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "all_within.hpp"
#include "phase_blocks.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats::detail {

namespace {

// The window's centre: first centred on the first pulse, then on the median of those offsets,
// from an even sample (the pulses even_sample() picks). Robust unless the first pulse is itself
// half a period away from all the others. PhaseFolder's offsets depend on the timestamp alone,
// so the sampled pulses are folded on their own.
template <typename Timestamps>
std::int64_t window_centre(const Timestamps& t, std::size_t n, std::int64_t period_ns) {
    constexpr std::size_t most = 65536;
    PhaseFolder around(phase_offset_ns(t[0], period_ns), period_ns);
    std::vector<double> sample;
    sample.reserve(std::min(n, most));
    for (std::size_t j = 0; j < std::min(n, most); ++j) {
        sample.push_back(static_cast<double>(around(t[n <= most ? j : j * n / most])));
    }
    const auto median = static_cast<std::int64_t>(std::llround(median_in_place(sample)));
    return phase_offset_ns(median, period_ns);
}

// The unwrapped phase (PhaseRule::for_each(), realtime), appended to `values`: the first
// offset in the window, then each offset the one before plus the interval's remainder modulo P
// nearest zero (the one in (−P/2, P/2], which is the difference PhaseUnwrapper leaves between
// two folded offsets). A usual interval, more than P/2 and at most 3P/2, has the remainder
// t_i − t_{i−1} − P: the division is left to the unusual ones.
template <typename Timestamps>
void unwrapped_phase(const Timestamps& t, std::size_t n, const UnusualIntervals& unusual,
                     std::int64_t centre, std::int64_t period_ns, PhaseBuffer& values) {
    std::int64_t v = PhaseFolder(centre, period_ns)(t[0]);
    values.push_back(static_cast<double>(v));
    const bool use_list = unusual.listed && unusual.low_ns > period_ns / 2 &&
                          unusual.high_ns - period_ns <= period_ns / 2;
    unusual.walk(
        n, use_list,
        [&](std::size_t first, std::size_t last) {
            // v_i = t_i − base_i with base_i = base_{i−1} + P, in wrapping arithmetic: the same
            // integers as v += t_i − t_{i−1} − P wherever those fit in int64.
            auto base = static_cast<std::uint64_t>(t[first - 1]) - static_cast<std::uint64_t>(v);
            const auto p = static_cast<std::uint64_t>(period_ns);
            // A block at a time through 2 KB on the stack: a vector grown value by value checks
            // its capacity each time, and one sized first is filled with zeros first, each as
            // dear as the phase itself.
            constexpr std::size_t block = 256;
            double phase[block];
            for (std::size_t i = first; i < last;) {
                const std::size_t count = std::min(block, last - i);
                if constexpr (std::is_same_v<Timestamps, RawTimestampColumn>) {
                    // Each usual interval moves v by at most P/5: SSE2 converts exactly while
                    // |v| stays under 2^51.
                    const std::int64_t* raw = t.pulses.timestamps_ns().data() + i;
                    const std::uint64_t room = (std::uint64_t{1} << 51) - 1;
                    const std::uint64_t far =
                        v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
                    if (far < room && count * (p / 5 + 1) < room - far) {
                        usual_phase_block(raw, count, base, p, phase);
                    } else {
                        usual_phase_block_scalar(raw, count, base, p, phase);
                    }
                } else {
                    for (std::size_t j = 0; j < count; ++j) {
                        base += p;
                        phase[j] = static_cast<double>(
                            static_cast<std::int64_t>(static_cast<std::uint64_t>(t[i + j]) - base));
                    }
                }
                v = static_cast<std::int64_t>(static_cast<std::uint64_t>(t[i + count - 1]) - base);
                values.append(phase, count);
                i += count;
            }
        },
        [&](std::size_t i) {
            std::int64_t r = (t[i] - t[i - 1]) % period_ns;
            r += r < 0 ? period_ns : 0;
            v += r > period_ns - r ? r - period_ns : r;
            values.push_back(static_cast<double>(v));
        });
}

}  // namespace

PhaseSeries phase_series(const Selection& selection, const PulseIndex& index, core::ClockId clock,
                         std::int64_t period_ns, std::size_t capacity) {
    PhaseSeries phase;
    phase.rule.realtime = core::counts_true_seconds(clock);
    phase.rule.period_ns = period_ns;
    const std::size_t n = selection.size;
    // Appended, not resized and overwritten: filling 8 bytes a pulse with zeros first cost as
    // much as computing the phase.
    phase.values_ns = PhaseBuffer(std::max(n, capacity));
    PhaseBuffer& values = phase.values_ns;
    if (n == 0) {
        return phase;
    }
    with_timestamps(selection, [&](const auto& t) {
        if (phase.rule.realtime) {
            phase.rule.centre = window_centre(t, n, period_ns);
            unwrapped_phase(t, n, selection.unusual, phase.rule.centre, period_ns, values);
            return;
        }
        // Against the nominal grid, t_i − t_0 − k_i·P, pulse by pulse in order.
        const std::int64_t t0 = t[0];
        index.for_each([&](std::size_t i, std::int64_t k) {
            values.push_back(static_cast<double>(t[i] - t0 - k * period_ns));
        });
    });
    return phase;
}

namespace {

// [lo, hi]: offsets certainly in the window, left to the bit by the fold. An offset at most
// P/2 − 1 from the centre comes to no whole period: with P up to 2^40 and the centre within
// 2^50, (v − c)/P − 1/2 rounds into (−1, 0). The usual run's offsets all lie there, so a block
// is looked at two values an instruction and left as it is. Empty ([1, 0]) otherwise.
std::pair<double, double> surely_in_window(std::int64_t centre, std::int64_t period_ns) {
    constexpr std::int64_t widest = std::int64_t{1} << 40;
    constexpr std::int64_t farthest = std::int64_t{1} << 50;
    const bool near =
        period_ns >= 4 && period_ns <= widest && centre >= -farthest && centre <= farthest;
    if (!near) {
        return {1, 0};
    }
    return {static_cast<double>(centre - (period_ns / 2 - 1)),
            static_cast<double>(centre + (period_ns / 2 - 1))};
}

}  // namespace

void fold_into_window(PhaseBuffer& values_ns, std::int64_t centre, std::int64_t period_ns) {
    const auto [lo, hi] = surely_in_window(centre, period_ns);
    if (values_ns.whole() && all_within(values_ns.whole_ns(), lo, hi)) {
        return;
    }
    fold_into_window(values_ns.make_fractional(), centre, period_ns);
}

void fold_into_window(std::span<double> values_ns, std::int64_t centre, std::int64_t period_ns) {
    const auto p = static_cast<double>(period_ns);
    const auto c = static_cast<double>(centre);
    const auto [lo, hi] = surely_in_window(centre, period_ns);
    constexpr std::size_t block = 4096;
    for (std::size_t first = 0; first < values_ns.size(); first += block) {
        const std::span<double> values =
            values_ns.subspan(first, std::min(block, values_ns.size() - first));
        if (all_within(values, lo, hi)) {
            continue;
        }
        for (double& v : values) {
            // Whole periods only: an offset already in the window is left to the bit.
            const double periods = std::ceil((v - c) / p - 0.5);
            if (periods != 0) {
                v -= periods * p;
            }
        }
    }
}

}  // namespace ppsbench::stats::detail
