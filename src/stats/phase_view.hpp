// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the phase series and its residuals as the summaries read them, a block at a time.
//
// A block is consecutive selected pulses of one run of the pulse index, so within it k counts
// up by one: the fit's model needs no per-pulse index. The residuals are never stored: each
// block is computed when a pass reads it (linear_fit_lanes.hpp for the usual degree-1 fit,
// the generic Model otherwise), value by value the operations detrend_series() does in place,
// so the same bits, and one 8-byte buffer (the phase) instead of two.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "detrend_detail.hpp"
#include "phase_buffer.hpp"
#include "summary_passes.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats::detail {

class PhaseView {
  public:
    PhaseView(const PhaseBuffer& values, const PulseIndex& index)
        : whole_(!values.whole()    ? nullptr
                 : values.on_grid() ? values.grid_ns().data()
                                    : values.whole_ns().data()),
          fractional_(values.fractional_ns().data()),
          on_grid_(values.on_grid()),
          reference_(static_cast<double>(values.reference_ns())),
          size_(values.size()),
          index_(index) {}

    std::size_t size() const { return size_; }
    double at(std::size_t i) const {
        if (whole_ == nullptr) {
            return fractional_[i];
        }
        const std::size_t slot = on_grid_ ? static_cast<std::size_t>(index_.at(i)) : i;
        return static_cast<double>(whole_[slot]) + reference_;
    }
    const PulseIndex& index() const { return index_; }

    // f(values, count, first, k_first) for the pulses [first, first + count), in order. Whole
    // nanoseconds are converted a block at a time on the stack, exactly; on the grid a run of
    // pulses is a run of slots.
    template <typename F>
    void for_each(F&& f) const {
        double block[kernel_block];
        index_.for_each_run([&](std::size_t first, std::size_t end, std::int64_t k_first) {
            for (std::size_t i = first; i < end; i += kernel_block) {
                const std::size_t count = std::min(end - i, kernel_block);
                const std::int64_t k = k_first + static_cast<std::int64_t>(i - first);
                const double* values = fractional_ + i;
                if (whole_ != nullptr) {
                    widen_whole(whole_ + (on_grid_ ? static_cast<std::size_t>(k) : i), block, count,
                                reference_);
                    values = block;
                }
                f(values, count, i, k);
            }
        });
    }

  private:
    const std::int32_t* whole_ = nullptr;  // else fractional_
    const double* fractional_ = nullptr;
    bool on_grid_ = false;  // whole_ is indexed by k, not by pulse
    double reference_ = 0;  // what every whole value is stored less
    std::size_t size_;
    const PulseIndex& index_;
};

// The residuals of the phase from a fit of it (fit_phase()).
class ResidualView {
  public:
    ResidualView(const PhaseView& phase, const PolynomialFit& fit)
        : phase_(phase),
          fit_(fit),
          model_(fit),
          // Fewer points than coefficients: the fit passes through every point.
          exact_(phase.size() <= static_cast<std::size_t>(fit.degree)) {}

    std::size_t size() const { return phase_.size(); }
    double at(std::size_t i) const {
        return exact_ ? 0.0 : phase_.at(i) - model_(phase_.index().at(i));
    }

    template <typename F>
    void for_each(F&& f) const {
        double block[kernel_block];
        const double inverse_scale = 1.0 / fit_.scale;
        phase_.for_each([&](const double* v, std::size_t count, std::size_t first,
                            std::int64_t k_first) {
            if (exact_) {
                std::fill(block, block + count, 0.0);
            } else if (fit_.degree == 1) {
                subtract_linear_model(v, block, count, static_cast<double>(k_first), fit_.center,
                                      inverse_scale, fit_.coefficients[0], fit_.coefficients[1]);
            } else {
                for (std::size_t j = 0; j < count; ++j) {
                    block[j] = v[j] - model_(k_first + static_cast<std::int64_t>(j));
                }
            }
            f(static_cast<const double*>(block), count, first, k_first);
        });
    }

  private:
    const PhaseView& phase_;
    const PolynomialFit& fit_;
    Model model_;
    bool exact_;
};

// The fit of the phase against the pulse index, as detrend_series() makes it.
PolynomialFit fit_phase(const PhaseView& phase, int degree);

}  // namespace ppsbench::stats::detail
