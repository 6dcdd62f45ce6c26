// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::core {

// The candidate a mistyped word most likely meant (git's "did you mean"): the one at the smallest
// edit distance (insert, delete, substitute, swap two neighbours), if that distance is small for
// the word's length (at most a third of it, at least 1). Ties go to the earlier candidate.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

// " (did you mean 'sigma'?)" for an error message, or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ppsbench::core
