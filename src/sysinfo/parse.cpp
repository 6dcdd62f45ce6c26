// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/parse.hpp"

#include <charconv>

#include "ppsbench/core/text.hpp"

namespace ppsbench::sysinfo::detail {

std::string_view trim(std::string_view text) {
    constexpr std::string_view blanks = " \t\r\n";
    const auto first = text.find_first_not_of(blanks);
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(blanks);
    return text.substr(first, last - first + 1);
}

std::optional<long long> parse_integer(std::string_view text) {
    text = trim(text);
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

std::optional<PpsEvent> parse_pps_event(std::string_view text) {
    text = trim(text);
    const auto dot = text.find('.');
    const auto hash = text.find('#');
    if (dot == std::string_view::npos || hash == std::string_view::npos || hash < dot) {
        return std::nullopt;
    }
    const auto seconds = parse_integer(text.substr(0, dot));
    const auto nanoseconds = parse_integer(text.substr(dot + 1, hash - dot - 1));
    const auto sequence = parse_integer(text.substr(hash + 1));
    if (!seconds || !nanoseconds || !sequence || *nanoseconds < 0 || *nanoseconds > 999999999) {
        return std::nullopt;
    }
    return PpsEvent{*seconds, static_cast<std::int32_t>(*nanoseconds), *sequence};
}

namespace {

// The action list is the tail of the line: "name" or "name1, name2" for a shared interrupt.
// Everything between the counts and that tail describes the controller, whose shape varies by
// architecture ("IO-APIC   4-edge", "GICv2  97 Level", "pinctrl-bcm2835  12 Edge"), so the
// split point is the last run of two or more blanks before the first comma.
void split_controller_and_actions(std::string_view rest, InterruptLine& line) {
    const auto comma = rest.find(',');
    const auto head = rest.substr(0, comma);
    std::size_t split = std::string_view::npos;
    for (std::size_t i = head.size(); i >= 2; --i) {
        if (head[i - 1] == ' ' && head[i - 2] == ' ') {
            split = i;
            break;
        }
    }
    if (split == std::string_view::npos) {
        // Single blanks only: take the last word as the (first) action.
        const auto blank = head.find_last_of(" \t");
        split = blank == std::string_view::npos ? 0 : blank + 1;
    }
    line.controller = std::string(trim(rest.substr(0, split)));
    std::string_view actions = rest.substr(split);
    while (!actions.empty()) {
        const auto next = actions.find(',');
        const auto name = trim(actions.substr(0, next));
        if (!name.empty()) {
            line.actions.emplace_back(name);
        }
        if (next == std::string_view::npos) {
            break;
        }
        actions.remove_prefix(next + 1);
    }
}

}  // namespace

std::vector<InterruptLine> parse_interrupts(std::string_view text) {
    std::vector<InterruptLine> lines;
    std::size_t cpus = 0;
    bool header = true;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const auto raw = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        if (header) {
            cpus = core::split_whitespace(raw).size();  // "CPU0 CPU1 ..."
            header = false;
            continue;
        }
        const auto colon = raw.find(':');
        if (colon == std::string_view::npos) {
            continue;
        }
        InterruptLine line;
        line.irq = std::string(trim(raw.substr(0, colon)));
        if (const auto number = parse_integer(line.irq)) {
            line.number = static_cast<int>(*number);
        }
        std::string_view rest = raw.substr(colon + 1);
        for (std::size_t cpu = 0; cpu < cpus; ++cpu) {
            const auto start = rest.find_first_not_of(' ');
            if (start == std::string_view::npos) {
                break;
            }
            auto end = rest.find(' ', start);
            if (end == std::string_view::npos) {
                end = rest.size();
            }
            std::uint64_t count = 0;
            const auto word = rest.substr(start, end - start);
            const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), count);
            if (ec != std::errc() || ptr != word.data() + word.size()) {
                break;  // ERR:/MIS: lines have a single total
            }
            line.counts.push_back(count);
            rest.remove_prefix(end);
        }
        if (line.number) {
            split_controller_and_actions(rest, line);
        } else {
            line.controller = std::string(trim(rest));
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::optional<PidStat> parse_pid_stat(std::string_view text) {
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        return std::nullopt;
    }
    PidStat stat;
    const auto pid = parse_integer(text.substr(0, open));
    if (!pid) {
        return std::nullopt;
    }
    stat.pid = static_cast<int>(*pid);
    stat.comm = std::string(text.substr(open + 1, close - open - 1));
    // fields[0] is field 3 (state).
    const auto fields = core::split_whitespace(text.substr(close + 1));
    if (fields.empty() || fields[0].size() != 1) {
        return std::nullopt;
    }
    stat.state = fields[0][0];
    const auto field = [&](std::size_t number) -> std::optional<long long> {
        const auto index = number - 3;
        return index < fields.size() ? parse_integer(fields[index]) : std::nullopt;
    };
    if (const auto v = field(39)) {
        stat.processor = static_cast<int>(*v);
    }
    if (const auto v = field(40)) {
        stat.rt_priority = static_cast<int>(*v);
    }
    if (const auto v = field(41)) {
        stat.policy = static_cast<int>(*v);
    }
    return stat;
}

std::string policy_name(int policy) {
    switch (policy) {
        case 0:
            return "SCHED_OTHER";
        case 1:
            return "SCHED_FIFO";
        case 2:
            return "SCHED_RR";
        case 3:
            return "SCHED_BATCH";
        case 5:
            return "SCHED_IDLE";
        case 6:
            return "SCHED_DEADLINE";
        default:
            return "policy " + std::to_string(policy);
    }
}

std::optional<std::string> status_field(std::string_view status, std::string_view key) {
    while (!status.empty()) {
        const auto eol = status.find('\n');
        const auto line = status.substr(0, eol);
        status.remove_prefix(eol == std::string_view::npos ? status.size() : eol + 1);
        if (line.size() > key.size() && line.substr(0, key.size()) == key &&
            line[key.size()] == ':') {
            return std::string(trim(line.substr(key.size() + 1)));
        }
    }
    return std::nullopt;
}

std::optional<std::string> cmdline_parameter(std::string_view cmdline, std::string_view key) {
    std::optional<std::string> found;
    for (const auto word : core::split_whitespace(cmdline)) {
        if (word == "--") {
            break;  // the rest goes to init
        }
        if (word == key) {
            found = "";
        } else if (word.size() > key.size() && word.substr(0, key.size()) == key &&
                   word[key.size()] == '=') {
            found =
                std::string(word.substr(key.size() + 1));  // the last one wins, as in the kernel
        }
    }
    return found;
}

std::optional<std::string> option_value(std::string_view cmdline, std::string_view option) {
    bool next = false;
    while (!cmdline.empty()) {
        const auto end = cmdline.find('\0');
        const auto arg = cmdline.substr(0, end);
        cmdline.remove_prefix(end == std::string_view::npos ? cmdline.size() : end + 1);
        if (next) {
            return arg.empty() ? std::nullopt : std::optional<std::string>(arg);
        }
        next = arg == option;
    }
    return std::nullopt;
}

std::optional<std::string> preemption_from_debugfs(std::string_view text) {
    for (const auto word : core::split_whitespace(text)) {
        if (word.size() > 2 && word.front() == '(' && word.back() == ')') {
            return std::string(word.substr(1, word.size() - 2));
        }
    }
    return std::nullopt;
}

std::string preemption_from_version(std::string_view version) {
    bool preempt = false;
    for (const auto word : core::split_whitespace(version)) {
        if (word == "PREEMPT_RT") {
            return "PREEMPT_RT";
        }
        if (word == "PREEMPT_DYNAMIC") {
            return "PREEMPT_DYNAMIC";
        }
        if (word == "PREEMPT") {
            preempt = true;
        }
    }
    // Without a PREEMPT word the kernel was built with PREEMPT_NONE or PREEMPT_VOLUNTARY, which
    // the version string does not tell apart.
    return preempt ? "full" : (version.empty() ? "" : "none or voluntary");
}

std::vector<int> parse_cpu_list(std::string_view text) {
    std::vector<int> cpus;
    text = trim(text);
    while (!text.empty()) {
        const auto comma = text.find(',');
        const auto part = text.substr(0, comma);
        text.remove_prefix(comma == std::string_view::npos ? text.size() : comma + 1);
        const auto dash = part.find('-');
        const auto first = parse_integer(part.substr(0, dash));
        const auto last =
            dash == std::string_view::npos ? first : parse_integer(part.substr(dash + 1));
        if (!first || !last || *last < *first || *last - *first > 4096) {
            return {};
        }
        for (auto cpu = *first; cpu <= *last; ++cpu) {
            cpus.push_back(static_cast<int>(cpu));
        }
    }
    return cpus;
}

}  // namespace ppsbench::sysinfo::detail
