// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/packed_pulses.hpp"

#include <algorithm>

namespace ppsbench::core {

PackedPulses::PackedPulses(std::span<const Pulse> pulses) {
    reserve(pulses.size());
    for (const Pulse& p : pulses) {
        push_back(p);
    }
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
    for (std::size_t i = 0; i < size(); ++i) {
        out.push_back((*this)[i]);
    }
    return out;
}

}  // namespace ppsbench::core
