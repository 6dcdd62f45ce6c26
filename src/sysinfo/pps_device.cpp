// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <thread>

#include "ppsbench/core/text.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/readers.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// Neighbouring interrupts slower than this (average since boot) are not worth listing.
constexpr double kNeighbourListRate = 10.0;
constexpr std::size_t kNeighbourListMax = 5;

PpsDriverKind classify(const PpsDevice& pps) {
    if (pps.driver == "pps-gpio" || pps.driver == "pps_gpio") {
        return PpsDriverKind::pps_gpio;
    }
    if (pps.name == "ktimer") {
        return PpsDriverKind::ktimer;
    }
    if (pps.path.starts_with("/dev/tty")) {
        return PpsDriverKind::pps_ldisc;
    }
    if (pps.name.starts_with("ptp") && parse_integer(pps.name.substr(3))) {
        return PpsDriverKind::ptp;
    }
    // Device-tree pps-gpio nodes are named "pps@<pin>" or "pps-gpio..." by convention.
    if (pps.driver.empty() && (pps.name.starts_with("pps@") || pps.name.starts_with("pps-gpio") ||
                               pps.name.starts_with("pps_gpio") || pps.name.starts_with("pps."))) {
        return PpsDriverKind::pps_gpio;
    }
    return PpsDriverKind::unknown;
}

// The interrupt's requested name: pps-gpio requests it under the PPS source's name, a serial
// port under its tty name (which pps-ldisc keeps in `path`).
std::string irq_action_name(const PpsDevice& pps) {
    if (pps.kind == PpsDriverKind::pps_ldisc) {
        return std::filesystem::path(pps.path).filename().string();
    }
    return pps.name;
}

bool action_matches(std::string_view action, std::string_view wanted) {
    if (action == wanted) {
        return true;
    }
    // Older pps-gpio names its interrupt "pps@12" while the source is "pps@12.-1", or the
    // other way round; accept the name up to the platform device id.
    const auto dot = wanted.rfind('.');
    return dot != std::string_view::npos && dot > 0 && action == wanted.substr(0, dot);
}

std::optional<ThreadInfo> read_thread(const SysRoot& root, const Process& process) {
    ThreadInfo thread;
    thread.pid = process.pid;
    thread.comm = process.comm;
    const auto dir = "/proc/" + std::to_string(process.pid);
    if (const auto stat_text = root.read(dir + "/stat", 4096)) {
        if (const auto stat = parse_pid_stat(*stat_text)) {
            thread.policy = policy_name(stat->policy);
            thread.rt_priority = stat->rt_priority;
            if (stat->processor >= 0) {
                thread.last_cpu = stat->processor;
            }
        }
    }
    if (const auto status = root.read(dir + "/status", 16U << 10)) {
        thread.cpus_allowed = status_field(*status, "Cpus_allowed_list").value_or("");
    }
    return thread;
}

// The thread is named "irq/<N>-<action name>" (kernel/irq/manage.c setup_irq_thread()). Before
// 5.17 /proc showed only the first 15 characters of a kernel thread's name, so a truncated
// name counts too. "irq/<N>-s-<name>" is a forced secondary handler's thread, a worse match.
// On a shared interrupt another device's thread says nothing about the PPS handler, so an
// unrecognised name only counts when the PPS action is the interrupt's only one.
std::optional<ThreadInfo> find_irq_thread(const SysRoot& root,
                                          const std::vector<Process>& processes, int irq,
                                          const std::string& action, bool shared) {
    const auto prefix = fmt::format("irq/{}-", irq);
    const Process* best = nullptr;
    int best_score = 0;
    for (const auto& process : processes) {
        if (!process.comm.starts_with(prefix)) {
            continue;
        }
        const std::string_view suffix = std::string_view(process.comm).substr(prefix.size());
        int score = 1;
        if (suffix == action) {
            score = 4;
        } else if (!suffix.empty() && action.starts_with(suffix) && process.comm.size() == 15) {
            score = 3;
        } else if (shared) {
            continue;
        } else if (suffix.starts_with("s-")) {
            score = 0;
        }
        if (best == nullptr || score > best_score) {
            best = &process;
            best_score = score;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return read_thread(root, *best);
}

int busiest_cpu(const std::vector<std::uint64_t>& counts) {
    const auto it = std::max_element(counts.begin(), counts.end());
    return it == counts.end() ? -1 : static_cast<int>(it - counts.begin());
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const auto& part : parts) {
        if (!out.empty()) {
            out += separator;
        }
        out += part;
    }
    return out;
}

std::optional<PpsIrq> read_irq(const SysRoot& root, const KernelInfo& kernel,
                               const std::vector<Process>& processes, const std::string& action) {
    if (action.empty()) {
        return std::nullopt;
    }
    const auto lines = parse_interrupts(root.read("/proc/interrupts").value_or(""));
    const InterruptLine* match = nullptr;
    for (const auto& line : lines) {
        if (!line.number) {
            continue;
        }
        for (const auto& name : line.actions) {
            if (action_matches(name, action)) {
                match = &line;
            }
        }
        if (match != nullptr) {
            break;
        }
    }
    PpsIrq irq;
    if (match != nullptr) {
        irq.number = *match->number;
        irq.controller = match->controller;
        irq.actions = match->actions;
        for (const auto count : match->counts) {
            irq.count += count;
        }
    } else {
        // /proc/irq/<N>/<action name>/ exists for every requested action.
        bool found = false;
        for (const auto& entry : root.list("/proc/irq")) {
            const auto number = parse_integer(entry);
            if (number && root.exists("/proc/irq/" + entry + "/" + action)) {
                irq.number = static_cast<int>(*number);
                irq.actions = {action};
                found = true;
                break;
            }
        }
        if (!found) {
            return std::nullopt;
        }
    }
    const auto dir = fmt::format("/proc/irq/{}", irq.number);
    irq.smp_affinity_list = root.read_line(dir + "/smp_affinity_list").value_or("");
    irq.effective_affinity_list = root.read_line(dir + "/effective_affinity_list").value_or("");
    irq.thread = find_irq_thread(root, processes, irq.number, action, irq.actions.size() > 1);

    // Which CPU takes the interrupt: the effective affinity when it names one CPU, else the one
    // that has counted most of them.
    int cpu = -1;
    if (const auto cpus = parse_cpu_list(irq.effective_affinity_list); cpus.size() == 1) {
        cpu = cpus.front();
    } else if (match != nullptr) {
        cpu = busiest_cpu(match->counts);
    }
    if (cpu >= 0) {
        irq.serving_cpu = cpu;
    }
    if (cpu >= 0 && kernel.uptime_seconds && *kernel.uptime_seconds > 0) {
        for (const auto& line : lines) {
            if (!line.number || &line == match ||
                static_cast<std::size_t>(cpu) >= line.counts.size()) {
                continue;
            }
            const double rate = static_cast<double>(line.counts[cpu]) / *kernel.uptime_seconds;
            if (rate >= kNeighbourListRate) {
                irq.busy_neighbours.push_back({line.irq, join(line.actions, ", "), rate});
            }
        }
        std::sort(
            irq.busy_neighbours.begin(), irq.busy_neighbours.end(),
            [](const auto& a, const auto& b) { return a.rate_per_second > b.rate_per_second; });
        if (irq.busy_neighbours.size() > kNeighbourListMax) {
            irq.busy_neighbours.resize(kNeighbourListMax);
        }
    }
    return irq;
}

// Symbols of the loaded pps-gpio driver (addresses are hidden from non-root users, names are
// not), which tell the split handler from the old single one.
void read_handler_kind(const SysRoot& root, PpsDevice& pps) {
    root.for_each_line("/proc/kallsyms", [&](std::string_view line) {
        if (line.find("pps_gpio_") == std::string_view::npos) {
            return true;
        }
        const auto words = core::split_whitespace(line);
        if (words.size() >= 3 && words[2].starts_with("pps_gpio_")) {
            const std::string symbol(words[2]);
            if (std::find(pps.handler_symbols.begin(), pps.handler_symbols.end(), symbol) ==
                pps.handler_symbols.end()) {
                pps.handler_symbols.push_back(symbol);
            }
        }
        return true;
    });
    const auto has = [&](std::string_view symbol) {
        return std::find(pps.handler_symbols.begin(), pps.handler_symbols.end(), symbol) !=
               pps.handler_symbols.end();
    };
    if (has("pps_gpio_irq_hardirq")) {
        pps.handler = HandlerKind::split;
    } else if (has("pps_gpio_irq_handler")) {
        pps.handler = HandlerKind::single;
    }
}

// Forced threading gives every request_irq() handler a thread of its own, except one requested
// with IRQF_NO_THREAD. So when the single handler's interrupt has no irq/N- thread while other
// interrupts have theirs (the process list was readable), that handler runs in hard IRQ.
bool has_irq_threads(const std::vector<Process>& processes) {
    return std::any_of(processes.begin(), processes.end(),
                       [](const Process& process) { return process.comm.starts_with("irq/"); });
}

}  // namespace

std::optional<PpsDevice> read_pps_device(const SysRoot& root, const std::string& id,
                                         const FingerprintOptions& options,
                                         const KernelInfo& kernel,
                                         const std::vector<Process>& processes) {
    const auto dir = "/sys/class/pps/" + id;
    if (!root.exists(dir)) {
        return std::nullopt;
    }
    PpsDevice pps;
    pps.id = id;
    pps.dev_path = "/dev/" + id;
    pps.name = root.read_line(dir + "/name").value_or("");
    pps.path = root.read_line(dir + "/path").value_or("");
    if (const auto uevent = root.read(dir + "/device/uevent", 16U << 10)) {
        // "DRIVER=pps-gpio" on a line of its own; pps-ldisc and ktimer sources have no device.
        for (const auto word : core::split_whitespace(*uevent)) {
            if (word.starts_with("DRIVER=")) {
                pps.driver = std::string(word.substr(7));
            }
        }
    }
    pps.kind = classify(pps);
    if (const auto mode = root.read_line(dir + "/mode")) {
        try {
            pps.mode = static_cast<unsigned>(std::stoul(*mode, nullptr, 16));
        } catch (const std::exception&) {
        }
    }
    const auto read_events = [&](std::optional<PpsEvent>& assert_event,
                                 std::optional<PpsEvent>& clear_event) {
        assert_event = parse_pps_event(root.read_line(dir + "/assert").value_or(""));
        clear_event = parse_pps_event(root.read_line(dir + "/clear").value_or(""));
    };
    read_events(pps.assert_first, pps.clear_first);
    // A snapshot cannot pulse: waiting on its copied counters would fail a healthy system.
    pps.snapshot = options.snapshot;
    if (options.pulse_wait.count() > 0 && !pps.snapshot) {
        if (options.sleep) {
            options.sleep(options.pulse_wait);
        } else {
            std::this_thread::sleep_for(options.pulse_wait);
        }
        read_events(pps.assert_second, pps.clear_second);
        pps.pulse_wait = options.pulse_wait;
        pps.pulses_sampled = true;
    }
    if (pps.kind == PpsDriverKind::pps_gpio) {
        read_handler_kind(root, pps);
    }
    pps.irq = read_irq(root, kernel, processes, irq_action_name(pps));
    if (pps.handler == HandlerKind::single && kernel.forced_irq_threading() && pps.irq &&
        !pps.irq->thread && has_irq_threads(processes)) {
        pps.handler = HandlerKind::no_thread;
    }
    return pps;
}

}  // namespace ppsbench::sysinfo::detail
