// SPDX-License-Identifier: GPL-2.0-or-later
#include "phase_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

#include "ppsbench/stats/stability.hpp"

#include "lanes.hpp"

namespace ppsbench::stats::detail {

namespace {

std::unique_ptr<std::byte[]> room_for(std::size_t values) {
    // Not value-initialized: the pages stay untouched, so not resident, until written.
    return std::make_unique_for_overwrite<std::byte[]>(std::max<std::size_t>(values, 1) *
                                                       sizeof(double));
}

// Converts `count` values to int32 into `to` while each is a whole number within int32; returns
// how many were. Two values an SSE2 instruction: truncated to int32 and back, a value is
// unchanged exactly when it is one (NaN and values beyond int32 come back as −2^31 or NaN).
std::size_t narrow_whole(const double* from, std::int32_t* to, std::size_t count) {
    std::size_t j = 0;
#if PPSBENCH_HAVE_SSE2
    for (; j + 2 <= count; j += 2) {
        const __m128d v = _mm_loadu_pd(from + j);
        const __m128i whole = _mm_cvttpd_epi32(v);
        if (_mm_movemask_pd(_mm_cmpeq_pd(_mm_cvtepi32_pd(whole), v)) != 3) {
            break;
        }
        _mm_storel_epi64(reinterpret_cast<__m128i*>(to + j), whole);
    }
#endif
    for (; j < count && PhaseBuffer::fits_whole(from[j]); ++j) {
        to[j] = static_cast<std::int32_t>(from[j]);
    }
    return j;
}

}  // namespace

namespace {

// Four values an operation, from int32 to double exactly; the reference added after, as the
// scalar loop does. Compiled for AVX2 and for the baseline (lanes.hpp): the summaries read
// whole nanoseconds through here on every pass.
[[gnu::always_inline]] inline void widen_body(const std::int32_t* from, double* to,
                                              std::size_t count, double reference) {
    using Whole4 = std::int32_t __attribute__((vector_size(16)));
    const Lanes r = splat(reference);
    std::size_t j = 0;
    for (; j + lane_count <= count; j += lane_count) {
        Whole4 four;
        std::memcpy(&four, from + j, sizeof four);
        store_lanes(to + j, __builtin_convertvector(four, Lanes) + r);
    }
    for (; j < count; ++j) {
        to[j] = static_cast<double>(from[j]) + reference;
    }
}

PPSBENCH_AVX2_TARGET void widen_avx2(const std::int32_t* from, double* to, std::size_t count,
                                     double reference) {
    widen_body(from, to, count, reference);
}

void widen_baseline(const std::int32_t* from, double* to, std::size_t count, double reference) {
    widen_body(from, to, count, reference);
}

}  // namespace

void widen_whole(const std::int32_t* from, double* to, std::size_t count, double reference) {
    (lanes_avx2() ? widen_avx2 : widen_baseline)(from, to, count, reference);
}

PhaseBuffer::PhaseBuffer(std::size_t capacity)
    : storage_(room_for(capacity)), capacity_(capacity) {}

void PhaseBuffer::grow(std::size_t at_least) {
    const std::size_t capacity = std::max(at_least, 2 * capacity_);
    auto storage = room_for(capacity);
    if (storage_) {
        std::memcpy(storage.get(), storage_.get(),
                    size_ * (whole_ ? sizeof(std::int32_t) : sizeof(double)));
    }
    storage_ = std::move(storage);
    capacity_ = capacity;
}

void PhaseBuffer::refuse_on_grid() const {
    if (on_grid()) {
        throw std::logic_error(
            "the phase buffer is on the stability grid: its values are no "
            "longer in pulse order");
    }
}

void PhaseBuffer::append(const double* values, std::size_t count) {
    refuse_on_grid();
    if (size_ + count > capacity_) {
        grow(size_ + count);
    }
    if (whole_) {
        const std::size_t fit = narrow_whole(values, whole_data() + size_, count);
        size_ += fit;
        if (fit == count) {
            return;
        }
        values += fit;
        count -= fit;
        make_fractional();
    }
    std::memcpy(fractional_data() + size_, values, count * sizeof(double));
    size_ += count;
}

std::span<double> PhaseBuffer::make_fractional() {
    refuse_on_grid();
    if (whole_) {
        // In place, from the back, a block at a time: the doubles of [first, end) take the bytes
        // from 8·first on, and the values not yet read end at byte 4·first. memcpy, as the
        // bytes change type.
        constexpr std::size_t block = 512;
        std::int32_t whole[block];
        double fractional[block];
        for (std::size_t end = size_; end > 0;) {
            const std::size_t first = end > block ? end - block : 0;
            const std::size_t count = end - first;
            std::memcpy(whole, storage_.get() + first * sizeof(std::int32_t),
                        count * sizeof(std::int32_t));
            widen_whole(whole, fractional, count);
            std::memcpy(storage_.get() + first * sizeof(double), fractional,
                        count * sizeof(double));
            end = first;
        }
        whole_ = false;
    }
    return {fractional_data(), size_};
}

bool PhaseBuffer::spread_onto_grid(const PulseIndex& index) {
    if (!whole_ || on_grid() || size_ == 0 || index.size() != size_ || !index.strictly_rising()) {
        return false;
    }
    // k_0 = 0 and k rising strictly: k_i >= i, so slot k_i lies at or after value i, and writing
    // the slots from the last pulse back only ever overwrites values already read. 4 bytes a
    // slot in room for 8 a value: at most two slots a pulse.
    const auto length = static_cast<std::size_t>(index.back()) + 1;
    if (length > 2 * capacity_) {
        return false;
    }
    std::int32_t* x = whole_data();
    const std::int32_t first = x[0];
    std::int32_t lo = first;
    std::int32_t hi = first;
    for (std::size_t i = 0; i < size_; ++i) {
        lo = std::min(lo, x[i]);
        hi = std::max(hi, x[i]);
    }
    // As phase_grid(): offsets from the first value, centred where they reach past the limit.
    constexpr std::int64_t limit = (std::int64_t{1} << 30) - 1;
    const std::int64_t lowest = std::int64_t{lo} - first;
    const std::int64_t highest = std::int64_t{hi} - first;
    if (highest - lowest > 2 * limit) {
        return false;
    }
    std::int64_t reference = first;
    if (lowest < -limit || highest > limit) {
        reference += lowest + (highest - lowest) / 2;
    }
    std::size_t filled = length;  // slots [filled, length) are written
    index.for_each_run_from_last([&](std::size_t begin, std::size_t end, std::int64_t k_first) {
        const auto slot = static_cast<std::size_t>(k_first);
        const std::size_t run_end = slot + (end - begin);
        std::fill(x + run_end, x + filled, PhaseGrid::hole);
        for (std::size_t i = end; i-- > begin;) {
            x[slot + (i - begin)] = static_cast<std::int32_t>(x[i] - reference);
        }
        filled = slot;
    });
    grid_length_ = length;
    reference_ns_ = reference;
    return true;
}

std::vector<double> PhaseBuffer::to_doubles() const {
    return visit([](auto values) { return std::vector<double>(values.begin(), values.end()); });
}

}  // namespace ppsbench::stats::detail
