// SPDX-License-Identifier: GPL-2.0-or-later
#include "summary_passes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ppsbench::stats::detail {

namespace {

template <typename Form>
[[gnu::always_inline]] inline void extremes(const double* v, std::size_t count, double& lo,
                                            double& hi) {
    std::size_t i = 0;
    // Which lane holds the extreme does not matter: the series holds no NaN and no −0 (its
    // values are integers in double or differences of them), so min and max are one value, and
    // the baseline form may take two lanes (16 bytes: GCC 12 would keep a 32-byte vector of a
    // function not compiled for AVX in memory, and compare its lanes one by one).
    if constexpr (Form::avx2) {
        Lanes low = splat(lo);
        Lanes high = splat(hi);
        for (; i + lane_count <= count; i += lane_count) {
            const Lanes x = load_lanes(v + i);
            low = lanes_min(low, x);
            high = lanes_max(high, x);
        }
        for (std::size_t k = 0; k < lane_count; ++k) {
            lo = std::min(lo, low[k]);
            hi = std::max(hi, high[k]);
        }
    } else {
        HalfLanes low = {lo, lo};
        HalfLanes high = {hi, hi};
        for (; i + 2 <= count; i += 2) {
            HalfLanes x;
            std::memcpy(&x, v + i, sizeof x);
            low = x < low ? x : low;
            high = high < x ? x : high;
        }
        lo = std::min(lo, std::min(low[0], low[1]));
        hi = std::max(hi, std::max(high[0], high[1]));
    }
    for (; i < count; ++i) {
        lo = std::min(lo, v[i]);
        hi = std::max(hi, v[i]);
    }
}

// out[i] = |v[i] − centre|, as std::abs(v − centre): the sign bit cleared (the baseline form
// in 16-byte halves, which GCC 12 keeps in registers where it would put a 32-byte vector of a
// function not compiled for AVX through the stack).
template <typename Form>
[[gnu::always_inline]] inline void distances(const double* v, std::size_t count, double centre,
                                             double* out) {
    std::size_t i = 0;
    if constexpr (Form::avx2) {
        const Lanes c = splat(centre);
        for (; i + lane_count <= count; i += lane_count) {
            store_lanes(out + i, lanes_abs(load_lanes(v + i) - c));
        }
    } else {
        const HalfLanes c = {centre, centre};
        constexpr std::int64_t magnitude = std::numeric_limits<std::int64_t>::max();
        const HalfMask bits = {magnitude, magnitude};
        for (; i + 2 <= count; i += 2) {
            HalfLanes x;
            std::memcpy(&x, v + i, sizeof x);
            const HalfLanes d =
                reinterpret_cast<HalfLanes>(reinterpret_cast<HalfMask>(x - c) & bits);
            std::memcpy(out + i, &d, sizeof d);
        }
    }
    for (; i < count; ++i) {
        out[i] = std::abs(v[i] - centre);
    }
}

// The bodies take any count; their scratch arrays hold kernel_block values, so they go through
// the values a kernel block at a time (loops, not lambdas: a lambda is a function of its own,
// which might not be inlined into the AVX2 form).
template <typename Form>
[[gnu::always_inline]] inline void first_pass_body(const FirstPassParts& parts,
                                                   const double* values, std::size_t total) {
    for (std::size_t at = 0; at < total; at += kernel_block) {
        const double* v = values + at;
        const std::size_t count = std::min(total - at, kernel_block);
        extremes<Form>(v, count, *parts.lo, *parts.hi);
        parts.sum->add_block<Form>(v, count);
        if (parts.x != nullptr) {
            parts.x->add_block<Form>(v, count);
        }
        if (parts.abs != nullptr) {
            double magnitudes[kernel_block];
            distances<Form>(v, count, 0.0, magnitudes);
            parts.abs->add_block<Form>(magnitudes, count);
        }
    }
}

// deviations[i] = (v[i] − mean)², squares[i] = v[i]², lane by lane (the baseline form in
// 16-byte halves, which GCC 12 keeps in registers: the same operations on each value).
template <typename Form>
[[gnu::always_inline]] inline void squares_of(const double* v, std::size_t count, double mean,
                                              double* deviations, double* squares) {
    std::size_t i = 0;
    if constexpr (Form::avx2) {
        const Lanes m = splat(mean);
        for (; i + lane_count <= count; i += lane_count) {
            const Lanes x = load_lanes(v + i);
            const Lanes d = x - m;
            store_lanes(deviations + i, d * d);
            store_lanes(squares + i, x * x);
        }
    } else {
        const HalfLanes m = {mean, mean};
        for (; i + 2 <= count; i += 2) {
            HalfLanes x;
            std::memcpy(&x, v + i, sizeof x);
            const HalfLanes d = x - m;
            const HalfLanes dd = d * d;
            const HalfLanes xx = x * x;
            std::memcpy(deviations + i, &dd, sizeof dd);
            std::memcpy(squares + i, &xx, sizeof xx);
        }
    }
    for (; i < count; ++i) {
        deviations[i] = (v[i] - mean) * (v[i] - mean);
        squares[i] = v[i] * v[i];
    }
}

template <typename Form>
[[gnu::always_inline]] inline void second_pass_body(const SecondPassParts& parts,
                                                    const double* values, std::size_t total) {
    for (std::size_t at = 0; at < total; at += kernel_block) {
        const double* v = values + at;
        const std::size_t count = std::min(total - at, kernel_block);
        double deviations[kernel_block];
        double squares[kernel_block];
        squares_of<Form>(v, count, parts.mean, deviations, squares);
        parts.squared_deviations->add_block<Form>(deviations, count);
        parts.squares->add_block<Form>(squares, count);
        if (parts.distance != nullptr) {
            distances<Form>(v, count, parts.median, deviations);
            parts.distance->add_block<Form>(deviations, count);
        }
    }
}

template <typename Form>
[[gnu::always_inline]] inline void select_body(RankSelector& selector, const double* values,
                                               std::size_t total, bool distance, double centre) {
    for (std::size_t at = 0; at < total; at += kernel_block) {
        const double* v = values + at;
        const std::size_t count = std::min(total - at, kernel_block);
        if (!distance) {
            selector.add_block<Form>(v, count);
            continue;
        }
        double d[kernel_block];
        distances<Form>(v, count, centre, d);
        selector.add_block<Form>(d, count);
    }
}

// Each kernel twice: for AVX2 and for the baseline (lanes.hpp), the same body.
PPSBENCH_AVX2_TARGET void first_pass_avx2(const FirstPassParts& parts, const double* v,
                                          std::size_t count) {
    first_pass_body<Avx2Form>(parts, v, count);
}
void first_pass_baseline(const FirstPassParts& parts, const double* v, std::size_t count) {
    first_pass_body<BaselineForm>(parts, v, count);
}
PPSBENCH_AVX2_TARGET void second_pass_avx2(const SecondPassParts& parts, const double* v,
                                           std::size_t count) {
    second_pass_body<Avx2Form>(parts, v, count);
}
void second_pass_baseline(const SecondPassParts& parts, const double* v, std::size_t count) {
    second_pass_body<BaselineForm>(parts, v, count);
}
PPSBENCH_AVX2_TARGET void select_avx2(RankSelector& selector, const double* v, std::size_t count,
                                      bool distance, double centre) {
    select_body<Avx2Form>(selector, v, count, distance, centre);
}
void select_baseline(RankSelector& selector, const double* v, std::size_t count, bool distance,
                     double centre) {
    select_body<BaselineForm>(selector, v, count, distance, centre);
}

}  // namespace

void first_pass_block(const FirstPassParts& parts, const double* v, std::size_t count) {
    (lanes_avx2() ? first_pass_avx2 : first_pass_baseline)(parts, v, count);
}

void second_pass_block(const SecondPassParts& parts, const double* v, std::size_t count) {
    (lanes_avx2() ? second_pass_avx2 : second_pass_baseline)(parts, v, count);
}

void select_block(RankSelector& selector, const double* v, std::size_t count, bool distance,
                  double centre) {
    (lanes_avx2() ? select_avx2 : select_baseline)(selector, v, count, distance, centre);
}

}  // namespace ppsbench::stats::detail
