// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What the running system looks like from the point of view of a PPS timestamp: the kernel and
// its preemption model, the PPS device and the interrupt path its timestamp is taken in, the
// clocksource and power management, and chrony. Everything is read from /proc and /sys under a
// configurable root (so tests can point at fixture trees) without root privileges; anything that
// cannot be read stays empty ("unknown") rather than failing.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ppsbench::sysinfo {

// Which kind of PPS client produced the device; it decides where the timestamp is taken.
enum class PpsDriverKind { unknown, pps_gpio, pps_ldisc, ktimer, ptp };

// How the loaded pps-gpio driver handles its interrupt, told apart by its symbols in
// /proc/kallsyms. `split`: a hard-IRQ part (pps_gpio_irq_hardirq) takes the timestamp and a
// thread runs pps_event() (Debian 6.1.190+, upstream stable 6.1.188+). `single`: one handler
// (pps_gpio_irq_handler) does both, so forced threading moves the timestamp into the thread.
// `no_thread`: the single handler requested with IRQF_NO_THREAD, never force-threaded (not
// RT-safe); only seen where threading is forced, as an interrupt without an irq/N- thread
// while other interrupts have theirs.
enum class HandlerKind { unknown, split, single, no_thread };

// One `/sys/class/pps/ppsN/assert` or `clear` reading: "<sec>.<nsec>#<sequence>".
struct PpsEvent {
    std::int64_t seconds = 0;
    std::int32_t nanoseconds = 0;
    std::int64_t sequence = 0;

    friend bool operator==(const PpsEvent&, const PpsEvent&) = default;
};

// A kernel thread, as /proc/[pid]/{comm,stat,status} show it.
struct ThreadInfo {
    int pid = 0;
    std::string comm;
    std::string policy;  // "SCHED_FIFO", "SCHED_OTHER", ...; empty when unknown
    int rt_priority = 0;
    std::optional<int> last_cpu;
    std::string cpus_allowed;  // Cpus_allowed_list, e.g. "0-3"
};

// Another interrupt served by the same CPU as the PPS interrupt, with its average rate since
// boot (cumulative count / uptime): a busy neighbour delays the PPS interrupt while it runs.
struct NeighbourIrq {
    std::string irq;  // "30"; architecture counters (LOC, IPI...) are not included
    std::string actions;
    double rate_per_second = 0.0;
};

struct PpsIrq {
    int number = 0;
    std::string controller;  // /proc/interrupts columns between counts and names
    std::vector<std::string> actions;
    std::uint64_t count = 0;  // sum over CPUs
    std::string smp_affinity_list;
    std::string effective_affinity_list;
    // The `irq/N-name` thread, if one exists. On PREEMPT_RT or with threadirqs it exists for
    // both the old and the split pps-gpio handler: its presence alone proves nothing.
    std::optional<ThreadInfo> thread;
    // The CPU that takes the interrupt: its effective affinity when that is one CPU, else the
    // CPU that has counted most of them.
    std::optional<int> serving_cpu;
    std::vector<NeighbourIrq> busy_neighbours;  // on serving_cpu, busiest first
};

struct PpsDevice {
    std::string id;        // "pps0"
    std::string dev_path;  // "/dev/pps0"
    std::string name;      // sysfs name, e.g. "pps@12.-1", "pps_ldisc0", "ktimer", "ptp0"
    std::string path;      // sysfs path (the tty for pps-ldisc), often empty
    std::string driver;    // bound platform driver from device/uevent, e.g. "pps-gpio"
    PpsDriverKind kind = PpsDriverKind::unknown;
    std::optional<unsigned> mode;  // capability bits (hex in sysfs)
    std::optional<PpsEvent> assert_first;
    std::optional<PpsEvent> clear_first;
    // Second reading after `pulse_wait`; empty when the wait was zero (not checked).
    std::optional<PpsEvent> assert_second;
    std::optional<PpsEvent> clear_second;
    std::chrono::milliseconds pulse_wait{0};
    bool pulses_sampled = false;
    // Read from a copied tree (--sysroot): its counters are frozen, so whether pulses still
    // arrive cannot be judged and is not waited for.
    bool snapshot = false;
    std::optional<PpsIrq> irq;
    HandlerKind handler = HandlerKind::unknown;
    std::vector<std::string> handler_symbols;  // pps_gpio_* symbols seen in /proc/kallsyms
};

struct KernelInfo {
    std::string release;  // /proc/sys/kernel/osrelease
    std::string version;  // /proc/sys/kernel/version, e.g. "#1 SMP PREEMPT_RT Debian ..."
    std::string arch;     // "x86", "arm" or empty, from /proc/cpuinfo
    std::optional<bool> realtime_sysfs;  // /sys/kernel/realtime
    bool preempt_rt = false;
    std::string preemption;  // "PREEMPT_RT", "full", "voluntary", "none", "PREEMPT_DYNAMIC"...
    std::string preemption_source;  // where `preemption` came from
    std::string cmdline;
    // Where `cmdline` was read: /proc/cmdline on a running system; on an image, the boot file
    // that holds the command line the kernel will get (cmdline.txt, /etc/default/grub).
    std::string cmdline_source;
    bool threadirqs = false;
    std::optional<std::string> isolcpus;
    std::optional<std::string> nohz_full;
    std::optional<std::string> irqaffinity;
    std::optional<double> uptime_seconds;

    // PREEMPT_RT always force-threads request_irq() handlers; `threadirqs` does on other kernels.
    bool forced_irq_threading() const { return preempt_rt || threadirqs; }
};

// A `dtoverlay=` line of a Raspberry Pi's config.txt, e.g. "pps-gpio,gpiopin=18".
struct DtOverlay {
    std::string file;
    int line = 0;
    std::string text;     // what follows "dtoverlay="
    std::string name;     // "pps-gpio"
    std::string section;  // the conditional section it is in ("all", "pi4"); "all" by default
};

// What an image's boot files say the booted system will be: the kernel command line
// (cmdline.txt of a Raspberry Pi, GRUB_CMDLINE_LINUX* of a PC) and the Pi's overlays.
struct BootConfig {
    std::string cmdline_file;  // empty when none was found
    std::string cmdline;
    std::string config_file;  // config.txt, empty when none
    std::vector<DtOverlay> overlays;
    std::vector<std::string> kernels;  // /lib/modules/<release>, the kernels installed
};

struct IdleState {
    int index = 0;
    std::string name;
    int exit_latency_us = 0;
    int cpus_enabled = 0;
    int cpus_total = 0;
};

struct CpuGovernor {
    int cpu = 0;
    std::string governor;
};

// A per-CPU PM QoS limit, /sys/devices/system/cpu/cpuN/power/pm_qos_resume_latency_us:
// idle states whose exit latency exceeds it are not entered on that CPU.
struct CpuResumeLatency {
    int cpu = 0;
    std::optional<int> limit_us;  // nullopt: no limit ("0" in sysfs); "n/a" reads as 0 µs
};

struct PowerInfo {
    std::string clocksource;
    std::string available_clocksources;
    std::vector<CpuGovernor> governors;  // empty without cpufreq
    std::vector<IdleState> idle_states;  // empty without cpuidle
    // The system-wide hold on idle states: the current value of /dev/cpu_dma_latency (µs;
    // 2000000000 when nobody holds it). Only root can open it: nullopt then.
    std::optional<std::int64_t> cpu_dma_latency_us;
    std::vector<CpuResumeLatency> resume_latencies;  // CPUs that expose the attribute
};

// A PCIe link's power states as /sys/bus/pci/devices/ADDR/link/ shows them (1 = enabled).
struct PcieLink {
    std::string address;  // "0000:01:00.0"
    std::string name;     // what the device is to a PPS: "RP1 (Raspberry Pi 5 GPIO)"
    std::optional<bool> l0s, l1, l1_1, l1_2, clkpm;
};

struct PcieInfo {
    // /sys/module/pcie_aspm/parameters/policy, e.g. "default performance [powersave]": the
    // selected one ("powersave"), empty when the kernel has no ASPM support or it is unreadable.
    std::string aspm_policy;
    std::vector<PcieLink> gpio_links;  // links that carry GPIO interrupts (the Pi 5's RP1)
};

// Energy-Efficient Ethernet on a NIC with a PTP clock, as `ethtool --show-eee` reports it.
struct NicEee {
    std::string interface;
    std::string phc;             // "ptp0"
    std::string status;          // "enabled - active", "disabled", "not supported"; empty: unknown
    std::string unknown_reason;  // why status is empty
};

struct RefclockLine {
    std::string file;
    int line = 0;
    std::string text;    // the directive as written
    std::string driver;  // "PPS", "SHM", "SOCK", "PHC"...
    std::string parameter;
    bool uses_device = false;  // names this PPS device (directly, or gpsd's chrony.ppsN.sock)
    // What decides the edge chrony takes: the driver's options after ':' ("clear", "extpps"),
    // and the `width` and `rate` options as written (empty when absent).
    std::vector<std::string> driver_options;
    std::string width;
    std::string rate;
};

struct ChronyInfo {
    bool installed = false;
    std::string version;  // "4.3"; empty when not known
    bool running = false;
    int pid = 0;
    // A systemd unit link that starts chronyd at boot (what an image can show instead of a
    // running process), e.g. /etc/systemd/system/multi-user.target.wants/chrony.service.
    bool enabled = false;
    std::string enabled_by;
    std::vector<std::string> config_files;  // those read, in order
    std::vector<RefclockLine> refclocks;
};

// One programmable pin of a PTP hardware clock: /sys/class/ptp/ptpN/pins/NAME ("func chan").
struct PhcPin {
    std::string name;
    std::string function;  // "none", "external timestamps", "periodic output", "phy sync"
    int channel = 0;
};

// A PTP hardware clock (PHC) as /sys/class/ptp/ptpN shows it: a possible hardware reference for
// a PPS input (ppsbench run --source ptp:/dev/ptpN). Counts are -1 when not exposed.
struct PhcInfo {
    std::string id;  // "ptp0"
    std::string clock_name;
    int external_timestamps = -1;  // n_external_timestamps: EXTTS channels
    int periodic_outputs = -1;
    int programmable_pins = -1;
    bool pps_available = false;  // the PHC's own PPS event (ptp_kvm, some NICs)
    std::vector<PhcPin> pins;
    std::vector<std::string> interfaces;  // network interfaces of its device (eth0)
};

// The linuxptp programs that use PHCs, as /proc lists them.
struct PtpTool {
    std::string name;  // "ts2phc", "phc2sys", "ptp4l"
    bool running = false;
    int pid = 0;
};

struct PtpInfo {
    std::vector<PhcInfo> clocks;  // natural order: ptp2 before ptp10
    std::vector<PtpTool> tools;   // ts2phc, phc2sys, ptp4l, each listed
};

struct SystemFingerprint {
    std::string sysroot;
    // The root is an image (a mounted SD card, an unbooted tree): it has no /proc or /sys of a
    // running system, so what only a running system shows cannot be told, and boot files say
    // how it will boot.
    bool image = false;
    BootConfig boot;
    KernelInfo kernel;
    std::string requested_device;                // as given, or empty for "first found"
    std::vector<std::string> available_devices;  // ppsN in /sys/class/pps
    std::optional<PpsDevice> pps;
    PowerInfo power;
    PcieInfo pcie;
    ChronyInfo chrony;
    PtpInfo ptp;
    std::vector<NicEee> eee;  // one per interface of a PHC
};

// Runs a program (argv[0] is a path) and returns its standard output, or nothing on failure.
using CommandRunner = std::function<std::optional<std::string>(const std::vector<std::string>&)>;

struct FingerprintOptions {
    std::filesystem::path sysroot = "/";
    // The tree is a copy of another system (doctor --sysroot): nothing live, so no pulse wait.
    bool snapshot = false;
    // "/dev/pps0", "pps0" or empty for the first device in /sys/class/pps.
    std::string device;
    // The PPS device's assert/clear are read twice this far apart to see pulses arrive; zero
    // skips the second reading.
    std::chrono::milliseconds pulse_wait{1200};
    // How to wait; tests replace it (e.g. to advance a fixture's assert file).
    std::function<void(std::chrono::milliseconds)> sleep;
    // How to run `chronyd --version` and `ethtool --show-eee`. When empty, programs are run only if
    // sysroot is "/": a fixture tree's binaries are not this machine's.
    CommandRunner run_command;
};

// Never throws for missing or unreadable files; throws core::UsageError only for a device
// argument that cannot name a PPS device.
SystemFingerprint read_fingerprint(const FingerprintOptions& options);

std::string_view to_string(PpsDriverKind kind);
std::string_view to_string(HandlerKind kind);

}  // namespace ppsbench::sysinfo
