// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the buffer analyze() hands from stage to stage, the phase of every selected pulse.
//
// The phase the phase stage makes is a whole number of nanoseconds (an offset in the period's
// window, or a free-running clock's t − t₀ − k·P), and for the usual capture well within
// ±2^31 ns. Such a buffer holds int32, 4 bytes a pulse instead of a double's 8: at 10 M pulses
// 40 MB of report's peak instead of 80 (issue 26). Every stage reads it converted to double
// value by value, the conversion exact, so every figure is the same to the bit as from a
// buffer of doubles.
//
// Before the summaries, a whole buffer whose values are the stability grid's (no clock step
// removed, nothing folded) is spread onto that grid in place (spread_onto_grid()): the
// summaries then read it there while the Allan family runs beside them on the same slots, and
// the grid needs no memory of its own.
//
// A stage that makes a value fractional (a clock step removed, an offset folded back into the
// window) or a value beyond ±2^31 turns the buffer into doubles, in place: its memory is sized
// for doubles from the start, and only the bytes written become resident, so the conversion
// never holds both forms at once.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "train_detail.hpp"

namespace ppsbench::stats::detail {

// to[j] = from[j] + reference as double, j < count (SSE2 where the machine has it): exact for a
// reference within ±2^52.
void widen_whole(const std::int32_t* from, double* to, std::size_t count, double reference = 0);

class PhaseBuffer {
  public:
    PhaseBuffer() = default;
    // Room for `capacity` values in either form (more are taken too, by reallocating).
    explicit PhaseBuffer(std::size_t capacity);

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // Whole nanoseconds in int32 (whole_ns()), or doubles (fractional_ns()).
    bool whole() const { return whole_; }
    // In pulse order; empty on the grid (grid_ns()), which holds them by slot instead.
    std::span<const std::int32_t> whole_ns() const {
        return {whole_data(), whole_ && !on_grid() ? size_ : 0};
    }
    std::span<const double> fractional_ns() const {
        return {fractional_data(), whole_ ? 0 : size_};
    }

    // Appends values of the phase; the first that is not a whole number within int32 turns
    // the buffer into doubles. Not on the grid (std::logic_error), as make_fractional().
    void append(const double* values, std::size_t count);
    void push_back(double value) {
        if (whole_ && size_ < capacity_ && !on_grid() && fits_whole(value)) {
            whole_data()[size_++] = static_cast<std::int32_t>(value);
            return;
        }
        append(&value, 1);
    }

    // The values as doubles from now on, for a stage that writes fractions.
    std::span<double> make_fractional();

    // f(span<const int32_t>) or f(span<const double>), whichever the buffer holds, in pulse
    // order (not on the grid: std::logic_error).
    template <typename F>
    decltype(auto) visit(F&& f) const {
        refuse_on_grid();
        if (whole_) {
            return f(whole_ns());
        }
        return f(fractional_ns());
    }

    // The values in place on the pulse grid: slot k holds the phase of the pulse with index k
    // less reference_ns(), PhaseGrid::hole where there is none, every value within
    // ±(2^30 − 1): the slots phase_grid() makes of the same phase (its reference, the first
    // pulse's phase, moved to the middle of the values where they reach past that). False, and
    // nothing changed, where the buffer is not whole, the index does not rise strictly, the grid
    // has more than two slots a pulse (the buffer's room) or its values span 2^31 ns or more.
    bool spread_onto_grid(const PulseIndex& index);
    bool on_grid() const { return grid_length_ > 0; }
    std::span<const std::int32_t> grid_ns() const { return {whole_data(), grid_length_}; }
    std::int64_t reference_ns() const { return reference_ns_; }

    // Not on the grid: the values in pulse order.
    std::vector<double> to_doubles() const;
    void release() { *this = PhaseBuffer(); }

    static bool fits_whole(double value) {
        // In range first: the conversion of a value beyond int32 is undefined. NaN fails both.
        return value >= -2147483648.0 && value <= 2147483647.0 &&
               static_cast<double>(static_cast<std::int32_t>(value)) == value;
    }

  private:
    std::int32_t* whole_data() const { return reinterpret_cast<std::int32_t*>(storage_.get()); }
    double* fractional_data() const { return reinterpret_cast<double*>(storage_.get()); }
    void grow(std::size_t at_least);
    // The stages before the spread (values in pulse order) after it: a bug, said at once.
    void refuse_on_grid() const;

    // Uninitialized, for `capacity_` doubles: what is never written is never resident.
    std::unique_ptr<std::byte[]> storage_;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
    bool whole_ = true;
    std::size_t grid_length_ = 0;  // on the grid: its slots, in place of the values
    std::int64_t reference_ns_ = 0;
};

}  // namespace ppsbench::stats::detail
