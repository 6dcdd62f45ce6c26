// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the values a rank selector's window gathers (rank_selection.hpp), in a buffer the
// kernels may write a few values past its end before they count them.
//
// The kernels append a group of four lanes by storing all four and advancing by the number
// inside: no branch per value, where a branch mispredicted on most values near the median
// (it was 60 % of the summaries' first pass). std::vector forbids writing past size(), and
// resize() would zero what the next store overwrites anyway, hence this buffer: uninitialised
// storage, doubled as it fills, freed at the end of a pass.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

namespace ppsbench::stats::detail {

class GatheredValues {
  public:
    GatheredValues() = default;
    GatheredValues(GatheredValues&& other) noexcept
        : data_(std::move(other.data_)),
          size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    GatheredValues& operator=(GatheredValues&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = std::exchange(other.size_, 0);
        capacity_ = std::exchange(other.capacity_, 0);
        return *this;
    }

    std::size_t size() const { return size_; }
    double* begin() { return data_.get(); }
    double* end() { return data_.get() + size_; }
    double operator[](std::size_t i) const { return data_[i]; }

    // Room for `extra` more values past size(), written through end() and then counted by
    // advance(). Kept until release().
    void reserve_more(std::size_t extra) {
        if (extra > capacity_ - size_) {
            grow(size_ + extra);
        }
    }
    void advance(std::size_t count) { size_ += count; }
    void push_back(double v) {
        reserve_more(1);
        data_[size_++] = v;
    }
    void clear() { size_ = 0; }
    void release() {
        data_.reset();
        size_ = capacity_ = 0;
    }

  private:
    void grow(std::size_t need) {
        const std::size_t capacity = std::max({need, 2 * capacity_, std::size_t{64}});
        auto data = std::make_unique_for_overwrite<double[]>(capacity);
        if (size_ > 0) {
            std::memcpy(data.get(), data_.get(), size_ * sizeof(double));
        }
        data_ = std::move(data);
        capacity_ = capacity;
    }
    std::unique_ptr<double[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

}  // namespace ppsbench::stats::detail
