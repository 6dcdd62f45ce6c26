// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/latency/cpu_idle.hpp"

#include <fmt/format.h>
#include <array>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>

#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {

CpuTimes parse_cpu_times(std::string_view text, const std::string& what) {
    // The first line is the sum over CPUs: "cpu  user nice system idle iowait irq softirq steal
    // guest guest_nice". Older kernels print fewer fields; at least four are required.
    if (!text.starts_with("cpu ")) {
        throw core::InputError(
            fmt::format("{}: no aggregate 'cpu' line at the start; is this /proc/stat?", what));
    }
    text.remove_prefix(4);
    const auto end_of_line = text.find('\n');
    text = text.substr(0, end_of_line);
    std::array<std::uint64_t, 8> fields{};  // guest, guest_nice are already in user, nice
    std::size_t parsed = 0;
    const char* pos = text.data();
    const char* end = text.data() + text.size();
    while (parsed < fields.size()) {
        while (pos != end && *pos == ' ') {
            ++pos;
        }
        if (pos == end) {
            break;
        }
        const auto [after, ec] = std::from_chars(pos, end, fields[parsed]);
        if (ec != std::errc{}) {
            throw core::InputError(
                fmt::format("{}: the 'cpu' line has a non-numeric field {}", what, parsed + 1));
        }
        pos = after;
        ++parsed;
    }
    if (parsed < 4) {
        throw core::InputError(
            fmt::format("{}: the 'cpu' line has {} fields; expected at least 4", what, parsed));
    }
    CpuTimes times;
    times.idle = fields[3] + fields[4];
    for (const auto f : fields) {
        times.total += f;
    }
    return times;
}

CpuTimes read_cpu_times(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw core::InputError(fmt::format("{}: cannot read: {}; the CPU idle fraction needs /proc",
                                           path, core::errno_message(errno)));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse_cpu_times(text.str(), path);
}

std::optional<double> idle_fraction(const CpuTimes& start, const CpuTimes& end) {
    if (end.total <= start.total || end.idle < start.idle) {
        return std::nullopt;
    }
    return static_cast<double>(end.idle - start.idle) /
           static_cast<double>(end.total - start.total);
}

}  // namespace ppsbench::latency
