// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <span>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

// The pulses of a capture in 12 bytes and a bit each instead of Pulse's 24, exactly (issue
// 26: the analysis of 10 M pulses held 240 MB of Pulse): the int64 timestamp as it is, the
// edge as one bit, and the sequence numbers as uint32 offsets from the first one as long as
// they stay within 2^32 above it (any capture of fewer than 4 G pulses whose counter does not
// restart); past that, all of them as uint64 (20 bytes a pulse).
//
// Reading yields Pulse values, so code written for a span of Pulse reads this unchanged.
class PackedPulses {
  public:
    PackedPulses() = default;
    explicit PackedPulses(std::span<const Pulse> pulses);

    // Inlined into the capture parser's per-line loop: a call there cost ~15 instructions a line.
    [[gnu::always_inline]] void push_back(const Pulse& p) {
        const std::size_t i = timestamps_.size();
        if (i == 0) {
            base_ = p.sequence;
            first_edge_ = p.edge;
        }
        mixed_ = mixed_ || p.edge != first_edge_;
        if (!wide_ && p.sequence >= base_ &&
            p.sequence - base_ <= std::numeric_limits<std::uint32_t>::max()) {
            offsets_.push_back(static_cast<std::uint32_t>(p.sequence - base_));
        } else {
            widen();
            sequences_.push_back(p.sequence);
        }
        if (i % 64 == 0) {
            clear_edges_.push_back(0);
        }
        clear_edges_.back() |= static_cast<std::uint64_t>(p.edge == Edge::clear_edge) << (i % 64);
        timestamps_.push_back(p.timestamp_ns);
    }

    void reserve(std::size_t n) {
        timestamps_.reserve(n);
        offsets_.reserve(n);
        clear_edges_.reserve(n / 64 + 1);
    }
    std::size_t size() const { return timestamps_.size(); }
    bool empty() const { return timestamps_.empty(); }

    std::int64_t timestamp_ns(std::size_t i) const { return timestamps_[i]; }
    // The usual capture holds one edge: then no bit is read.
    Edge edge(std::size_t i) const {
        if (!mixed_) {
            return first_edge_;
        }
        return (clear_edges_[i / 64] >> (i % 64) & 1) != 0 ? Edge::clear_edge : Edge::assert_edge;
    }
    // True when every pulse has the same edge (the usual capture).
    bool one_edge() const { return !mixed_; }
    std::uint64_t sequence(std::size_t i) const {
        return wide_ ? sequences_[i] : base_ + offsets_[i];
    }
    Pulse operator[](std::size_t i) const { return {sequence(i), timestamp_ns(i), edge(i)}; }

    // The pulses as Pulse values again (for the callers that need a vector of them).
    std::vector<Pulse> unpack() const;
    // Bytes held, for the benchmarks.
    std::size_t capacity_bytes() const {
        return timestamps_.capacity() * sizeof(std::int64_t) +
               clear_edges_.capacity() * sizeof(std::uint64_t) +
               offsets_.capacity() * sizeof(std::uint32_t) +
               sequences_.capacity() * sizeof(std::uint64_t);
    }

    class const_iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Pulse;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Pulse;

        const_iterator() = default;
        const_iterator(const PackedPulses* owner, std::size_t i) : owner_(owner), i_(i) {}
        Pulse operator*() const { return (*owner_)[i_]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator before = *this;
            ++i_;
            return before;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) {
            return a.i_ == b.i_;
        }

      private:
        const PackedPulses* owner_ = nullptr;
        std::size_t i_ = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

  private:
    void widen();

    std::vector<std::int64_t> timestamps_;
    std::vector<std::uint64_t> clear_edges_;  // bit i % 64 of word i / 64: pulse i is a clear edge
    std::uint64_t base_ = 0;
    bool wide_ = false;
    Edge first_edge_ = Edge::assert_edge;
    bool mixed_ = false;                    // some pulse's edge differs from the first's
    std::vector<std::uint32_t> offsets_;    // unless wide_
    std::vector<std::uint64_t> sequences_;  // when wide_
};

}  // namespace ppsbench::core
