// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/packed_pulses.hpp"

#include <algorithm>
#include <limits>

namespace ppsbench::core {

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
