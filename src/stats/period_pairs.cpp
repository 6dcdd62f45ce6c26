// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_pairs.hpp"

namespace ppsbench::stats::detail {

PairCounts PeriodPairs::count() const {
    PairCounts counts;
    for_each_stretch([&](std::size_t first, std::size_t end) { counts.values += end - first; },
                     [&](std::size_t, Kind kind) {
                         switch (kind) {
                             case Kind::gap:
                                 ++counts.skipped_gaps;
                                 break;
                             case Kind::step_break:
                                 ++counts.skipped_breaks;
                                 break;
                             case Kind::touching:
                                 ++counts.values;
                                 ++counts.touching;
                                 break;
                         }
                     });
    return counts;
}

void PeriodPairs::fill(std::size_t first, std::size_t count, double* out) const {
    if (!direct_) {
        for (std::size_t j = 0; j < count; ++j) {
            out[j] = pair_value(first + j);
        }
        return;
    }
    const core::PackedPulses& pulses = *selection_.pulses;
    std::int64_t before = pulses.timestamp_ns(first - 1);
    for (std::size_t j = 0; j < count; ++j) {
        const std::int64_t t = pulses.timestamp_ns(first + j);
        out[j] = static_cast<double>(t - before - period_ns_);
        before = t;
    }
}

std::vector<double> PeriodPairs::values(std::size_t expected) const {
    std::vector<double> out;
    out.reserve(expected);
    const auto append = [&out](const double* v, std::size_t count) {
        out.insert(out.end(), v, v + count);
    };
    walk(append, append);
    return out;
}

std::vector<double> PeriodPairs::sample(std::size_t stride) const {
    std::vector<double> out;
    for_each_stretch(
        [&](std::size_t first, std::size_t end) {
            for (std::size_t i = (first + stride - 1) / stride * stride; i < end; i += stride) {
                out.push_back(pair_value(i));
            }
        },
        [&](std::size_t i, Kind kind) {
            if (kind == Kind::touching && i % stride == 0) {
                out.push_back(pair_value(i));
            }
        });
    return out;
}

}  // namespace ppsbench::stats::detail
