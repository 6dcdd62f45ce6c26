// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/stop_reason.hpp"

#include <array>
#include <utility>

namespace ppsbench::store {

namespace {

constexpr std::array<std::pair<StopReason, std::string_view>, 7> stop_reasons{{
    {StopReason::count_reached, "count"},
    {StopReason::duration_elapsed, "duration"},
    {StopReason::interrupted, "interrupted"},
    {StopReason::end_of_stream, "end_of_stream"},
    {StopReason::rotated, "rotated"},
    {StopReason::hangup, "hangup"},
    {StopReason::failed, "failed"},
}};

}  // namespace

std::string_view to_string(StopReason reason) {
    for (const auto& [value, name] : stop_reasons) {
        if (value == reason) {
            return name;
        }
    }
    return "unknown";
}

std::optional<StopReason> parse_stop_reason(std::string_view text) {
    for (const auto& [value, name] : stop_reasons) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

}  // namespace ppsbench::store
