// SPDX-License-Identifier: GPL-2.0-or-later
#include "phc_time_base.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "ppsbench/core/wide_int.hpp"

namespace ppsbench::capture {

namespace {

// One PHC read bracketed by two system reads.
CrossTimestamp bracketed(std::int64_t before_ns, std::int64_t phc_ns, std::int64_t after_ns) {
    const std::int64_t window = after_ns - before_ns;
    const std::int64_t midpoint = before_ns + window / 2;
    return {phc_ns, midpoint - phc_ns, (window + 1) / 2};
}

// a + (b − a)·num/den, rounded to nearest, without overflow: offsets differ by at most a few
// ms over max_span_ns, but num can be ~10¹⁰ and the product must not wrap (held in 128 bits,
// portably: 32-bit ARM has no __int128).
std::int64_t along_line(std::int64_t a, std::int64_t b, std::int64_t num, std::int64_t den) {
    return a + core::multiply_divide_rounded(b - a, num, den);
}

}  // namespace

std::string_view to_string(CrossTimestampMethod method) {
    switch (method) {
        case CrossTimestampMethod::precise:
            return "precise";
        case CrossTimestampMethod::extended:
            return "extended";
        case CrossTimestampMethod::basic:
            return "basic";
    }
    return "basic";
}

std::int64_t to_ns(const ptp_clock_time& t) {
    return t.sec * 1'000'000'000 + static_cast<std::int64_t>(t.nsec);
}

CrossTimestamp from_precise(const ptp_sys_offset_precise& sample) {
    const std::int64_t phc = to_ns(sample.device);
    return {phc, to_ns(sample.sys_realtime) - phc, 0};
}

CrossTimestamp from_extended(const ptp_sys_offset_extended& sample) {
    const unsigned n = std::clamp(sample.n_samples, 1U, static_cast<unsigned>(PTP_MAX_SAMPLES));
    CrossTimestamp best{};
    std::int64_t best_window = std::numeric_limits<std::int64_t>::max();
    for (unsigned i = 0; i < n; ++i) {
        const auto& t = sample.ts[i];
        const std::int64_t window = to_ns(t[2]) - to_ns(t[0]);
        if (window >= 0 && window < best_window) {
            best_window = window;
            best = bracketed(to_ns(t[0]), to_ns(t[1]), to_ns(t[2]));
        }
    }
    return best;
}

CrossTimestamp from_basic(const ptp_sys_offset& sample) {
    const unsigned n = std::clamp(sample.n_samples, 1U, static_cast<unsigned>(PTP_MAX_SAMPLES));
    CrossTimestamp best{};
    std::int64_t best_window = std::numeric_limits<std::int64_t>::max();
    for (unsigned i = 0; i < n; ++i) {
        const std::int64_t before = to_ns(sample.ts[2 * i]);
        const std::int64_t after = to_ns(sample.ts[2 * i + 2]);
        if (after - before >= 0 && after - before < best_window) {
            best_window = after - before;
            best = bracketed(before, to_ns(sample.ts[2 * i + 1]), after);
        }
    }
    return best;
}

void PhcTimeBase::add(const CrossTimestamp& sample) {
    older_ = newest_;
    newest_ = sample;
}

RealtimeEvent PhcTimeBase::convert(std::int64_t phc_ns) const {
    const CrossTimestamp& s1 = *newest_;
    const std::int64_t span = older_ ? s1.phc_ns - older_->phc_ns : 0;
    if (!older_ || span <= 0 || span > max_span_ns) {
        // One sample: the frequency error between it and the event is unknown (docs/latency.md).
        return {phc_ns + s1.offset_ns, s1.offset_ns, s1.uncertainty_ns};
    }
    const CrossTimestamp& s0 = *older_;
    const std::int64_t offset = along_line(s0.offset_ns, s1.offset_ns, phc_ns - s0.phc_ns, span);
    std::int64_t uncertainty = std::max(s0.uncertainty_ns, s1.uncertainty_ns);
    if (phc_ns < s0.phc_ns || phc_ns > s1.phc_ns) {
        const CrossTimestamp& nearest = phc_ns < s0.phc_ns ? s0 : s1;
        const std::int64_t beyond = std::llabs(phc_ns - nearest.phc_ns);
        uncertainty = nearest.uncertainty_ns +
                      std::llabs(along_line(0, s1.offset_ns - s0.offset_ns, beyond, span));
    }
    return {phc_ns + offset, offset, uncertainty};
}

}  // namespace ppsbench::capture
