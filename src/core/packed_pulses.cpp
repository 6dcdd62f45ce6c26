// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/packed_pulses.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <limits>

#include "core/stamp_split.hpp"

namespace ppsbench::core {

namespace {

// Arrays from this size on go in huge pages (below it the 2 MiB rounding is not worth it).
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;
constexpr std::size_t huge_array_bytes = 2 * huge_page_bytes;

}  // namespace

std::int64_t* detail::TimestampAllocator::allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(std::int64_t);
    if (bytes < huge_array_bytes) {
        return std::allocator<std::int64_t>().allocate(n);
    }
    void* p = ::operator new (bytes, std::align_val_t{huge_page_bytes});
    // Advice only: where the kernel has no huge pages (or says no) the array stays in 4 KiB ones.
    (void)::madvise(p, bytes / huge_page_bytes * huge_page_bytes, MADV_HUGEPAGE);
    return static_cast<std::int64_t*>(p);
}

void detail::TimestampAllocator::deallocate(std::int64_t* p, std::size_t n) noexcept {
    if (n * sizeof(std::int64_t) < huge_array_bytes) {
        std::allocator<std::int64_t>().deallocate(p, n);
    } else {
        ::operator delete (p, std::align_val_t{huge_page_bytes});
    }
}

PackedPulses::PackedPulses(std::span<const Pulse> pulses) {
    reserve(pulses.size());
    for (const Pulse& p : pulses) {
        push_back(p);
    }
}

// A skip starts a run; a capture that skips more often than once in 8 pulses (after the first
// 64 runs) keeps its sequence numbers per pulse from here on, so that no capture holds more
// than it would per pulse.
void PackedPulses::start_run(std::size_t i, std::uint64_t sequence) {
    if (run_starts_.size() < i / 8 + 64) {
        run_starts_.push_back(i);
        run_firsts_.push_back(sequence);
        return;
    }
    offsets_.reserve(std::max(timestamps_.capacity(), i + 1));
    SequenceCursor runs(*this);
    for (std::size_t j = 0; j < i; ++j) {
        push_dense(runs(j));
    }
    runs_ = false;
    run_starts_.clear();
    run_starts_.shrink_to_fit();
    run_firsts_.clear();
    run_firsts_.shrink_to_fit();
}

void PackedPulses::append(const PulseColumns& block) {
    const std::size_t n = block.stamps.size();
    if (n == 0) {
        return;
    }
    if (timestamps_.empty()) {
        base_ = block.runs.front().first;
        first_edge_ =
            (block.stamps.front() & clear_stamp_bit) != 0 ? Edge::clear_edge : Edge::assert_edge;
    }
    const std::size_t first = timestamps_.size();
    // The timestamps first, so that a switch to numbers per pulse reads the runs up to the
    // block's end as push_back's would up to its pulse.
    append_stamps(block.stamps);
    for (std::size_t r = 0; r < block.runs.size(); ++r) {
        const std::size_t start = block.runs[r].start;
        const std::size_t end = r + 1 < block.runs.size() ? block.runs[r + 1].start : n;
        append_run(first + start, block.runs[r].first, end - start);
    }
}

void PackedPulses::append(const PackedPulses& more) {
    const std::size_t n = more.size();
    if (n == 0) {
        return;
    }
    const std::size_t first = size();
    if (first == 0) {
        base_ = more.runs_ ? more.run_firsts_.front() : more.dense_sequence(0);
        first_edge_ = more.first_edge_;
    }
    mixed_ = mixed_ || more.mixed_ || more.first_edge_ != first_edge_;
    // The timestamps first, as in append(PulseColumns): a switch to numbers per pulse reads them.
    timestamps_.insert(timestamps_.end(), more.timestamps_.begin(), more.timestamps_.end());
    clear_edges_.resize((first + n + 63) / 64);
    if (more.mixed_ || more.first_edge_ == Edge::clear_edge) {
        // `more` holds a bit for each of its clear edges, none past its last pulse.
        const std::size_t shift = first % 64;
        std::uint64_t* const to = clear_edges_.data() + first / 64;
        for (std::size_t w = 0; w < more.clear_edges_.size(); ++w) {
            const std::uint64_t word = more.clear_edges_[w];
            to[w] |= word << shift;
            if (shift != 0 && (word >> (64 - shift)) != 0) {
                to[w + 1] |= word >> (64 - shift);
            }
        }
    }
    if (more.runs_) {
        for (std::size_t r = 0; r < more.run_starts_.size(); ++r) {
            append_run(first + more.run_starts_[r], more.run_firsts_[r],
                       more.run_end(r) - more.run_starts_[r]);
        }
        return;
    }
    // Numbers per pulse: each stretch that counts up by one as a run.
    for (std::size_t j = 0; j < n;) {
        const std::uint64_t sequence = more.dense_sequence(j);
        std::size_t k = j + 1;
        while (k < n && more.dense_sequence(k) == sequence + (k - j)) {
            ++k;
        }
        append_run(first + j, sequence, k - j);
        j = k;
    }
}

// The timestamps, and an edge bit each: none to set in the usual block of assert edges, all in
// one of clear edges, else one by one.
void PackedPulses::append_stamps(std::span<const std::uint64_t> stamps) {
    const std::size_t first = timestamps_.size();
    const std::size_t n = stamps.size();
    timestamps_.resize(first + n);  // left uninitialized: the split writes each
    const detail::StampEdges edges =
        detail::split_stamps(stamps.data(), timestamps_.data() + first, n);
    const bool any_clear = (edges.any & clear_stamp_bit) != 0;
    const bool all_clear = (edges.all & clear_stamp_bit) != 0;
    mixed_ = mixed_ || (first_edge_ == Edge::clear_edge ? !all_clear : any_clear);
    clear_edges_.resize((first + n + 63) / 64);
    if (!any_clear) {
        return;
    }
    if (all_clear) {
        for (std::size_t i = first; i < first + n;) {
            const std::size_t bit = i % 64;
            const std::size_t count = std::min<std::size_t>(64 - bit, first + n - i);
            const std::uint64_t ones =
                count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
            clear_edges_[i / 64] |= ones << bit;
            i += count;
        }
        return;
    }
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = first + j;
        clear_edges_[i / 64] |= (stamps[j] >> 63) << (i % 64);
    }
}

// A run of `length` pulses from pulse i on, numbered from `sequence` up: what push_back does for
// each, with the per-pulse work only where the numbers are kept per pulse.
void PackedPulses::append_run(std::size_t i, std::uint64_t sequence, std::size_t length) {
    if (runs_) {
        if (i == 0 || sequence != last_sequence_ + 1) {
            start_run(i, sequence);  // may give up the runs
        }
        if (runs_) {
            last_sequence_ = sequence + (length - 1);
            return;
        }
    }
    for (std::size_t k = 0; k < length; ++k) {
        push_dense(sequence + k);
    }
}

std::size_t PackedPulses::run_of(std::size_t i) const {
    return static_cast<std::size_t>(std::upper_bound(run_starts_.begin(), run_starts_.end(), i) -
                                    run_starts_.begin() - 1);
}

// The cursor's run did not hold pulse i: the next run (reading in order), else a search.
std::uint64_t PackedPulses::seek(std::size_t i, SequenceCursor& cursor) const {
    if (!runs_) {
        return dense_sequence(i);
    }
    const std::size_t next = cursor.run_ + 1;
    const std::size_t r = cursor.length_ != 0 && next < run_starts_.size() &&
                                  i >= run_starts_[next] && i < run_end(next)
                              ? next
                              : run_of(i);
    cursor.run_ = r;
    cursor.start_ = run_starts_[r];
    cursor.length_ = run_end(r) - run_starts_[r];
    cursor.first_ = run_firsts_[r];
    return cursor.first_ + (i - cursor.start_);
}

std::size_t PackedPulses::counting_up_until(std::size_t i) const {
    if (!runs_ || i >= size()) {
        return std::min(i + 1, size());
    }
    const std::size_t r = run_of(i);
    const std::size_t start = run_starts_[r];
    const std::size_t end = run_end(r);
    // A run that passes 2^64 − 1 goes on at 0, which counts down: a stretch ends there.
    const std::uint64_t room = std::numeric_limits<std::uint64_t>::max() - run_firsts_[r];
    if (room >= end - start - 1) {
        return end;
    }
    const std::size_t wrapped = start + static_cast<std::size_t>(room) + 1;
    return i < wrapped ? wrapped : end;
}

// The first sequence number more than 2^32 above the first one, or below it: from here on
// every pulse keeps its uint64.
void PackedPulses::widen() {
    if (wide_) {
        return;
    }
    sequences_.reserve(std::max(offsets_.capacity(), timestamps_.size() + 1));
    for (const std::uint32_t offset : offsets_) {
        sequences_.push_back(base_ + offset);
    }
    offsets_.clear();
    offsets_.shrink_to_fit();
    wide_ = true;
}

std::vector<Pulse> PackedPulses::unpack() const {
    std::vector<Pulse> out;
    out.reserve(size());
    for (const Pulse p : *this) {
        out.push_back(p);
    }
    return out;
}

}  // namespace ppsbench::core
