#include "ppsbench/sysinfo/fingerprint.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <thread>

#include "ppsbench/core/error.hpp"
#include "sysinfo/chrony_config.hpp"
#include "sysinfo/command_runner.hpp"
#include "sysinfo/parse.hpp"
#include "sysinfo/sysroot.hpp"

namespace ppsbench::sysinfo {

using detail::SysRoot;

namespace {

// Neighbouring interrupts slower than this (average since boot) are not worth listing.
constexpr double kNeighbourListRate = 10.0;
constexpr std::size_t kNeighbourListMax = 5;

struct Process {
    int pid = 0;
    std::string comm;
};

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

std::vector<Process> scan_processes(const SysRoot& root) {
    std::vector<Process> processes;
    for (const auto& name : root.list("/proc")) {
        const auto pid = detail::parse_integer(name);
        if (!pid) {
            continue;
        }
        if (auto comm = root.read_line("/proc/" + name + "/comm")) {
            processes.push_back({static_cast<int>(*pid), std::move(*comm)});
        }
    }
    return processes;
}

KernelInfo read_kernel(const SysRoot& root) {
    KernelInfo kernel;
    kernel.release = root.read_line("/proc/sys/kernel/osrelease").value_or("");
    kernel.version = root.read_line("/proc/sys/kernel/version").value_or("");
    if (const auto realtime = root.read_line("/sys/kernel/realtime")) {
        kernel.realtime_sysfs = *realtime == "1";
    }
    kernel.preemption = detail::preemption_from_version(kernel.version);
    kernel.preemption_source = kernel.version.empty() ? "" : "version string";
    kernel.preempt_rt = kernel.preemption == "PREEMPT_RT" || kernel.realtime_sysfs == true;
    if (kernel.preempt_rt) {
        kernel.preemption = "PREEMPT_RT";
        kernel.preemption_source =
            kernel.realtime_sysfs == true ? "/sys/kernel/realtime" : "version string";
    } else if (const auto debugfs = root.read_line("/sys/kernel/debug/sched/preempt")) {
        // Only root can read debugfs; it names the model a PREEMPT_DYNAMIC kernel runs with.
        if (auto model = detail::preemption_from_debugfs(*debugfs)) {
            kernel.preemption = std::move(*model);
            kernel.preemption_source = "/sys/kernel/debug/sched/preempt";
        }
    }
    kernel.cmdline = root.read_line("/proc/cmdline").value_or("");
    kernel.threadirqs = detail::cmdline_parameter(kernel.cmdline, "threadirqs").has_value();
    kernel.isolcpus = detail::cmdline_parameter(kernel.cmdline, "isolcpus");
    kernel.nohz_full = detail::cmdline_parameter(kernel.cmdline, "nohz_full");
    kernel.irqaffinity = detail::cmdline_parameter(kernel.cmdline, "irqaffinity");
    if (const auto uptime = root.read_line("/proc/uptime")) {
        const auto words = detail::split_words(*uptime);
        if (!words.empty()) {
            // from_chars, unlike stod, ignores the locale's decimal separator.
            double seconds = 0;
            const auto [end, ec] =
                std::from_chars(words[0].data(), words[0].data() + words[0].size(), seconds);
            if (ec == std::errc()) {
                kernel.uptime_seconds = seconds;
            }
        }
    }
    const auto cpuinfo = root.read("/proc/cpuinfo", 64U << 10).value_or("");
    if (cpuinfo.find("vendor_id") != std::string::npos) {
        kernel.arch = "x86";
    } else if (cpuinfo.find("CPU implementer") != std::string::npos) {
        kernel.arch = "arm";
    }
    return kernel;
}

// "/dev/pps0", "pps0" -> "pps0"; a udev symlink such as /dev/gpspps0 is followed on the live
// system. Anything else is a usage error: the doctor cannot guess what was meant.
std::string device_id(const SysRoot& root, const std::string& device) {
    std::string candidate = device;
    if (starts_with(candidate, "/")) {
        std::error_code ec;
        const auto resolved = root.resolve(candidate);
        if (std::filesystem::is_symlink(resolved, ec)) {
            const auto target = std::filesystem::read_symlink(resolved, ec);
            if (!ec) {
                candidate = target.filename().string();
            }
        } else {
            candidate = std::filesystem::path(candidate).filename().string();
        }
    }
    const bool valid = starts_with(candidate, "pps") && candidate.size() > 3 &&
                       detail::parse_integer(std::string_view(candidate).substr(3)).has_value();
    if (!valid) {
        throw core::UsageError(fmt::format(
            "'{}' is not a PPS device; give one such as /dev/pps0 (see ls /sys/class/pps)",
            device));
    }
    return candidate;
}

// The PPS source name of the project's lab module (tests/lab/module/ppsbench_lab.c).
constexpr std::string_view kLabSourceName = "ppsbench-lab";
constexpr std::string_view kLabModeParameter = "/sys/module/ppsbench_lab/parameters/mode";

PpsDriverKind classify(const PpsDevice& pps) {
    if (pps.name == kLabSourceName) {
        return PpsDriverKind::ppsbench_lab;
    }
    if (pps.driver == "pps-gpio" || pps.driver == "pps_gpio") {
        return PpsDriverKind::pps_gpio;
    }
    if (pps.name == "ktimer") {
        return PpsDriverKind::ktimer;
    }
    if (starts_with(pps.path, "/dev/tty")) {
        return PpsDriverKind::pps_ldisc;
    }
    if (starts_with(pps.name, "ptp") && detail::parse_integer(pps.name.substr(3))) {
        return PpsDriverKind::ptp;
    }
    // Device-tree pps-gpio nodes are named "pps@<pin>" or "pps-gpio..." by convention.
    if (pps.driver.empty() &&
        (starts_with(pps.name, "pps@") || starts_with(pps.name, "pps-gpio") ||
         starts_with(pps.name, "pps_gpio") || starts_with(pps.name, "pps."))) {
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
        if (const auto stat = detail::parse_pid_stat(*stat_text)) {
            thread.policy = detail::policy_name(stat->policy);
            thread.rt_priority = stat->rt_priority;
            if (stat->processor >= 0) {
                thread.last_cpu = stat->processor;
            }
        }
    }
    if (const auto status = root.read(dir + "/status", 16U << 10)) {
        thread.cpus_allowed = detail::status_field(*status, "Cpus_allowed_list").value_or("");
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
        if (!starts_with(process.comm, prefix)) {
            continue;
        }
        const std::string_view suffix = std::string_view(process.comm).substr(prefix.size());
        int score = 1;
        if (suffix == action) {
            score = 4;
        } else if (!suffix.empty() && starts_with(action, suffix) && process.comm.size() == 15) {
            score = 3;
        } else if (shared) {
            continue;
        } else if (starts_with(suffix, "s-")) {
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
    const auto lines = detail::parse_interrupts(root.read("/proc/interrupts").value_or(""));
    const detail::InterruptLine* match = nullptr;
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
            const auto number = detail::parse_integer(entry);
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
    if (const auto cpus = detail::parse_cpu_list(irq.effective_affinity_list); cpus.size() == 1) {
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
        const auto words = detail::split_words(line);
        if (words.size() >= 3 && starts_with(words[2], "pps_gpio_")) {
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

// The lab module has every handler symbol loaded whatever its `mode`, so kallsyms cannot tell
// its shapes apart; its mode parameter says which one it requested (see HandlerKind).
void read_lab_handler_kind(const SysRoot& root, PpsDevice& pps) {
    const auto mode = root.read_line(std::string(kLabModeParameter)).value_or("");
    if (mode == "split") {
        pps.handler = HandlerKind::split;
    } else if (mode == "threaded") {
        pps.handler = HandlerKind::single;
    } else if (mode == "nothread") {
        pps.handler = HandlerKind::no_thread;
    }
}

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
        for (const auto word : detail::split_words(*uevent)) {
            if (starts_with(word, "DRIVER=")) {
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
        assert_event = detail::parse_pps_event(root.read_line(dir + "/assert").value_or(""));
        clear_event = detail::parse_pps_event(root.read_line(dir + "/clear").value_or(""));
    };
    read_events(pps.assert_first, pps.clear_first);
    if (options.pulse_wait.count() > 0) {
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
    } else if (pps.kind == PpsDriverKind::ppsbench_lab) {
        read_lab_handler_kind(root, pps);
    }
    pps.irq = read_irq(root, kernel, processes, irq_action_name(pps));
    return pps;
}

PowerInfo read_power(const SysRoot& root) {
    PowerInfo power;
    const std::string clocksource = "/sys/devices/system/clocksource/clocksource0/";
    power.clocksource = root.read_line(clocksource + "current_clocksource").value_or("");
    power.available_clocksources =
        root.read_line(clocksource + "available_clocksource").value_or("");
    std::vector<int> cpus;
    for (const auto& entry : root.list("/sys/devices/system/cpu")) {
        if (starts_with(entry, "cpu")) {
            if (const auto n = detail::parse_integer(std::string_view(entry).substr(3))) {
                cpus.push_back(static_cast<int>(*n));
            }
        }
    }
    std::sort(cpus.begin(), cpus.end());
    for (const int cpu : cpus) {
        const auto base = fmt::format("/sys/devices/system/cpu/cpu{}/", cpu);
        if (auto governor = root.read_line(base + "cpufreq/scaling_governor")) {
            power.governors.push_back({cpu, std::move(*governor)});
        }
        for (const auto& state : root.list(base + "cpuidle")) {
            const auto index = starts_with(state, "state")
                                   ? detail::parse_integer(std::string_view(state).substr(5))
                                   : std::nullopt;
            if (!index) {
                continue;
            }
            const auto state_dir = base + "cpuidle/" + state + "/";
            auto it = std::find_if(power.idle_states.begin(), power.idle_states.end(),
                                   [&](const IdleState& s) { return s.index == *index; });
            if (it == power.idle_states.end()) {
                IdleState idle;
                idle.index = static_cast<int>(*index);
                idle.name = root.read_line(state_dir + "name").value_or("");
                idle.exit_latency_us = static_cast<int>(
                    detail::parse_integer(root.read_line(state_dir + "latency").value_or(""))
                        .value_or(0));
                power.idle_states.push_back(std::move(idle));
                it = power.idle_states.end() - 1;
            }
            ++it->cpus_total;
            if (root.read_line(state_dir + "disable").value_or("0") == "0") {
                ++it->cpus_enabled;
            }
        }
    }
    std::sort(power.idle_states.begin(), power.idle_states.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    return power;
}

ChronyInfo read_chrony(const SysRoot& root, const FingerprintOptions& options,
                       const std::vector<Process>& processes, const PpsDevice* pps) {
    ChronyInfo chrony;
    for (const auto& process : processes) {
        if (process.comm == "chronyd") {
            chrony.running = true;
            chrony.pid = process.pid;
            break;
        }
    }
    std::string binary;
    for (const char* candidate : {"/usr/sbin/chronyd", "/usr/bin/chronyd", "/sbin/chronyd"}) {
        if (root.exists(candidate)) {
            binary = candidate;
            break;
        }
    }
    chrony.installed = !binary.empty();
    CommandRunner run = options.run_command;
    if (!run && root.is_live()) {
        run = detail::run_program;
    }
    if (chrony.installed && run) {
        // "chronyd (chrony) version 4.3 (+CMDMON ...)"
        if (const auto output = run({root.resolve(binary).string(), "--version"})) {
            const auto words = detail::split_words(*output);
            for (std::size_t i = 0; i + 1 < words.size(); ++i) {
                if (words[i] == "version") {
                    chrony.version = std::string(words[i + 1]);
                    break;
                }
            }
        }
    }
    // A chronyd started with -f reads that file instead of the packaged one.
    std::string config_file;
    if (chrony.running) {
        const auto cmdline = root.read("/proc/" + std::to_string(chrony.pid) + "/cmdline", 8192);
        config_file = detail::option_value(cmdline.value_or(""), "-f").value_or("");
    }
    const auto config = detail::read_chrony_config(root, config_file, pps == nullptr ? "" : pps->id,
                                                   pps == nullptr ? "" : pps->dev_path);
    chrony.config_files = config.files;
    chrony.refclocks = config.refclocks;
    return chrony;
}

}  // namespace

SystemFingerprint read_fingerprint(const FingerprintOptions& options) {
    const SysRoot root(options.sysroot);
    SystemFingerprint fingerprint;
    fingerprint.sysroot = options.sysroot.string();
    fingerprint.requested_device = options.device;
    const auto processes = scan_processes(root);
    fingerprint.kernel = read_kernel(root);
    for (const auto& entry : root.list("/sys/class/pps")) {
        if (starts_with(entry, "pps")) {
            fingerprint.available_devices.push_back(entry);
        }
    }
    // Natural order, so pps10 sorts after pps2.
    std::sort(fingerprint.available_devices.begin(), fingerprint.available_devices.end(),
              [](const std::string& a, const std::string& b) {
                  return a.size() != b.size() ? a.size() < b.size() : a < b;
              });
    std::string id;
    if (!options.device.empty()) {
        id = device_id(root, options.device);
    } else if (!fingerprint.available_devices.empty()) {
        id = fingerprint.available_devices.front();
    }
    if (!id.empty()) {
        fingerprint.pps = read_pps_device(root, id, options, fingerprint.kernel, processes);
    }
    fingerprint.power = read_power(root);
    fingerprint.chrony =
        read_chrony(root, options, processes, fingerprint.pps ? &*fingerprint.pps : nullptr);
    return fingerprint;
}

std::string_view to_string(PpsDriverKind kind) {
    switch (kind) {
        case PpsDriverKind::pps_gpio:
            return "pps-gpio";
        case PpsDriverKind::pps_ldisc:
            return "pps-ldisc";
        case PpsDriverKind::ktimer:
            return "pps-ktimer";
        case PpsDriverKind::ptp:
            return "ptp";
        case PpsDriverKind::ppsbench_lab:
            return "ppsbench-lab";
        case PpsDriverKind::unknown:
            break;
    }
    return "unknown";
}

std::string_view to_string(HandlerKind kind) {
    switch (kind) {
        case HandlerKind::split:
            return "split";
        case HandlerKind::single:
            return "single";
        case HandlerKind::no_thread:
            return "no-thread";
        case HandlerKind::unknown:
            break;
    }
    return "unknown";
}

}  // namespace ppsbench::sysinfo
