// SPDX-License-Identifier: GPL-2.0-or-later
// The PTP hardware clocks a PPS input could be wired to, and the linuxptp programs that may
// already use them (a ppsbench ptp: run shares the clock's events with ts2phc: docs/latency.md).
#include <algorithm>

#include "ppsbench/core/text.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

int count_of(const SysRoot& root, const std::string& path) {
    const auto line = root.read_line(path);
    const auto value = line ? parse_integer(*line) : std::nullopt;
    return value ? static_cast<int>(*value) : -1;
}

// enum ptp_pin_function in linux/ptp_clock.h.
std::string function_name(long long function) {
    switch (function) {
        case 0:
            return "none";
        case 1:
            return "external timestamps";
        case 2:
            return "periodic output";
        case 3:
            return "phy sync";
        default:
            return "function " + std::to_string(function);
    }
}

PhcInfo read_clock(const SysRoot& root, const std::string& id) {
    const std::string dir = "/sys/class/ptp/" + id;
    PhcInfo clock;
    clock.id = id;
    clock.clock_name = root.read_line(dir + "/clock_name").value_or("");
    clock.external_timestamps = count_of(root, dir + "/n_external_timestamps");
    clock.periodic_outputs = count_of(root, dir + "/n_periodic_outputs");
    clock.programmable_pins = count_of(root, dir + "/n_programmable_pins");
    clock.pps_available = count_of(root, dir + "/pps_available") == 1;
    for (const auto& name : root.list(dir + "/pins")) {
        // "1 0": function, channel. The line outlives `words`, which are views into it.
        const std::string line = root.read_line(dir + "/pins/" + name).value_or("");
        const auto words = core::split_whitespace(line);
        PhcPin pin;
        pin.name = name;
        const auto function = words.empty() ? std::nullopt : parse_integer(words[0]);
        pin.function = function ? function_name(*function) : "unknown";
        const auto channel = words.size() < 2 ? std::nullopt : parse_integer(words[1]);
        pin.channel = channel ? static_cast<int>(*channel) : 0;
        clock.pins.push_back(std::move(pin));
    }
    clock.interfaces = root.list(dir + "/device/net");
    return clock;
}

}  // namespace

PtpInfo read_ptp(const SysRoot& root, const std::vector<Process>& processes) {
    PtpInfo info;
    std::vector<std::string> ids;
    for (const auto& entry : root.list("/sys/class/ptp")) {
        if (entry.starts_with("ptp") && parse_integer(std::string_view(entry).substr(3))) {
            ids.push_back(entry);
        }
    }
    std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    for (const auto& id : ids) {
        info.clocks.push_back(read_clock(root, id));
    }
    for (const char* name : {"ts2phc", "phc2sys", "ptp4l"}) {
        PtpTool tool{name, false, 0};
        const auto it = std::find_if(processes.begin(), processes.end(),
                                     [&](const Process& p) { return p.comm == name; });
        if (it != processes.end()) {
            tool.running = true;
            tool.pid = it->pid;
        }
        info.tools.push_back(std::move(tool));
    }
    return info;
}

}  // namespace ppsbench::sysinfo::detail
