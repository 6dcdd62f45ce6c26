// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

// Where the sequence numbers of a block of pulses start counting up by one: the pulse (its
// index in the block) and its number; each pulse after it has the number before plus one, up to
// the next run.
struct SequenceRun {
    std::size_t start = 0;
    std::uint64_t first = 0;
};

// A block of pulses as the capture reader parses them, for PackedPulses::append: each pulse's
// timestamp and edge in one word (a capture's timestamps are at most max_timestamp_ns, so bit
// 63 is free: set for a clear edge), the sequence numbers as runs. `runs` starts at pulse 0 and
// ascends; two neighbouring runs may count on without a skip (the next block's first run always
// starts one).
struct PulseColumns {
    std::span<const std::uint64_t> stamps;
    std::span<const SequenceRun> runs;
};
inline constexpr std::uint64_t clear_stamp_bit = std::uint64_t{1} << 63;

namespace detail {
// The timestamps' memory: new elements left uninitialized where std::allocator zeroes them (so
// growing the array to take a block writes each byte once, by the copy), and a big array in
// 2 MiB pages where the kernel offers them (transparent huge pages on request): filling 80 MB of
// fresh 4 KiB pages cost 0.36 s on the 2-core machine of issue 26, in 2 MiB pages 0.02 s.
struct TimestampAllocator {
    using value_type = std::int64_t;
    template <typename U>
    struct rebind {
        using other = TimestampAllocator;
    };
    std::int64_t* allocate(std::size_t n);
    void deallocate(std::int64_t* p, std::size_t n) noexcept;
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    friend bool operator==(const TimestampAllocator&, const TimestampAllocator&) { return true; }
};
}  // namespace detail

// The pulses of a capture in 8 bytes and a bit each instead of Pulse's 24, exactly (issue
// 26: the analysis of 10 M pulses held 240 MB of Pulse): the int64 timestamp as it is, the
// edge as one bit, and the sequence numbers as runs that count up by one (a run starts at a
// skip: a missed pulse the kernel counted, a restart), 16 bytes a run. A capture whose
// sequence numbers skip more often than once in 8 pulses (or carry none: all 0) keeps them per
// pulse instead: uint32 offsets from the first one as long as they stay within 2^32 above it,
// past that uint64 (12 and 16 bytes a pulse in all).
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
        if (runs_) {
            if (i == 0 || p.sequence != last_sequence_ + 1) {
                start_run(i, p.sequence);  // may give up the runs
            }
            last_sequence_ = p.sequence;
        }
        if (!runs_) {
            push_dense(p.sequence);
        }
        if (i % 64 == 0) {
            clear_edges_.push_back(0);
        }
        clear_edges_.back() |= static_cast<std::uint64_t>(p.edge == Edge::clear_edge) << (i % 64);
        timestamps_.push_back(p.timestamp_ns);
    }

    // The same as push_back of each pulse in turn (the same runs, the same switch to numbers per
    // pulse), a block at a time: the timestamps split from their edge bits in one pass, a
    // run's sequence numbers kept without looking at them one by one.
    void append(const PulseColumns& block);
    // The same as push_back of each of `more`'s pulses in turn, for the parts of a rotated run
    // read on two threads and joined in order: the timestamps copied whole, the edge words
    // shifted into place, the sequence numbers a run at a time.
    void append(const PackedPulses& more);

    void reserve(std::size_t n) {
        timestamps_.reserve(n);
        clear_edges_.reserve(n / 64 + 1);
        if (!runs_) {
            offsets_.reserve(n);
        }
    }
    std::size_t size() const { return timestamps_.size(); }
    bool empty() const { return timestamps_.empty(); }

    std::int64_t timestamp_ns(std::size_t i) const { return timestamps_[i]; }
    // All of them, for the loops that read them two at a time.
    std::span<const std::int64_t> timestamps_ns() const { return timestamps_; }
    // The usual capture holds one edge: then no bit is read.
    Edge edge(std::size_t i) const {
        if (!mixed_) {
            return first_edge_;
        }
        return (clear_edges_[i / 64] >> (i % 64) & 1) != 0 ? Edge::clear_edge : Edge::assert_edge;
    }
    // True when every pulse has the same edge (the usual capture).
    bool one_edge() const { return !mixed_; }
    // O(log runs); SequenceCursor reads in order (or back and forth) in O(1).
    std::uint64_t sequence(std::size_t i) const {
        if (!runs_) {
            return dense_sequence(i);
        }
        const std::size_t r = run_of(i);
        return run_firsts_[r] + (i - run_starts_[r]);
    }
    // The end of the stretch from pulse i on over which each sequence number is the one before
    // plus one, without wrapping past 2^64 − 1, as far as the runs show it (i + 1 where the
    // numbers are held per pulse: the caller compares those itself). O(log runs): for scans
    // that step from stretch to stretch instead of reading a number a pulse.
    std::size_t counting_up_until(std::size_t i) const;
    // Whether the sequence numbers are held as runs (else one per pulse), for the tests.
    bool sequences_as_runs() const { return runs_; }
    Pulse operator[](std::size_t i) const { return {sequence(i), timestamp_ns(i), edge(i)}; }

    // Reads sequence numbers from the run of the one read before: a few instructions while the
    // reads stay in one run or step to the next. One per reading loop (it is not shared).
    class SequenceCursor {
      public:
        SequenceCursor() = default;
        explicit SequenceCursor(const PackedPulses& pulses) : pulses_(&pulses) {}
        [[gnu::always_inline]] std::uint64_t operator()(std::size_t i) {
            const std::size_t d = i - start_;  // wraps to huge below the run
            if (d < length_) {
                return first_ + d;
            }
            return pulses_->seek(i, *this);
        }

      private:
        friend class PackedPulses;
        const PackedPulses* pulses_ = nullptr;
        std::size_t run_ = 0;
        std::size_t start_ = 0;
        std::size_t length_ = 0;  // 0: no run yet, or the numbers are held per pulse
        std::uint64_t first_ = 0;
    };
    SequenceCursor sequence_cursor() const { return SequenceCursor(*this); }

    // The pulses as Pulse values again (for the callers that need a vector of them).
    std::vector<Pulse> unpack() const;
    // Bytes held, for the benchmarks.
    std::size_t capacity_bytes() const {
        return timestamps_.capacity() * sizeof(std::int64_t) +
               clear_edges_.capacity() * sizeof(std::uint64_t) +
               offsets_.capacity() * sizeof(std::uint32_t) +
               sequences_.capacity() * sizeof(std::uint64_t) +
               (run_starts_.capacity() + run_firsts_.capacity()) * sizeof(std::uint64_t);
    }

    class const_iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Pulse;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Pulse;

        const_iterator() = default;
        const_iterator(const PackedPulses* owner, std::size_t i)
            : owner_(owner), i_(i), sequences_(*owner) {}
        Pulse operator*() const {
            return {sequences_(i_), owner_->timestamp_ns(i_), owner_->edge(i_)};
        }
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
        mutable SequenceCursor sequences_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

  private:
    void start_run(std::size_t i, std::uint64_t sequence);
    void append_stamps(std::span<const std::uint64_t> stamps);
    void append_run(std::size_t i, std::uint64_t sequence, std::size_t length);
    void push_dense(std::uint64_t sequence) {
        if (!wide_ && sequence >= base_ &&
            sequence - base_ <= std::numeric_limits<std::uint32_t>::max()) {
            offsets_.push_back(static_cast<std::uint32_t>(sequence - base_));
        } else {
            widen();
            sequences_.push_back(sequence);
        }
    }
    void widen();
    std::uint64_t dense_sequence(std::size_t i) const {
        return wide_ ? sequences_[i] : base_ + offsets_[i];
    }
    std::size_t run_end(std::size_t r) const {
        return r + 1 < run_starts_.size() ? run_starts_[r + 1] : timestamps_.size();
    }
    std::size_t run_of(std::size_t i) const;
    std::uint64_t seek(std::size_t i, SequenceCursor& cursor) const;

    std::vector<std::int64_t, detail::TimestampAllocator> timestamps_;
    std::vector<std::uint64_t> clear_edges_;  // bit i % 64 of word i / 64: pulse i is a clear edge
    std::uint64_t base_ = 0;
    bool wide_ = false;
    Edge first_edge_ = Edge::assert_edge;
    bool mixed_ = false;                     // some pulse's edge differs from the first's
    bool runs_ = true;                       // the sequence numbers as runs, until they skip often
    std::vector<std::uint64_t> run_starts_;  // the pulse each run starts at, ascending from 0
    std::vector<std::uint64_t> run_firsts_;  // its sequence number; +1 a pulse after it
    std::uint64_t last_sequence_ = 0;
    std::vector<std::uint32_t> offsets_;    // without runs, unless wide_
    std::vector<std::uint64_t> sequences_;  // without runs, when wide_
};

}  // namespace ppsbench::core
