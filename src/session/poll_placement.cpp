// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/poll_placement.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>

#include "ppsbench/core/error.hpp"

namespace ppsbench::session {

namespace {

// "3" (or "3-3") names one CPU; "0-3" or "1,3" do not.
std::optional<int> single_cpu(const std::string& list) {
    if (list.empty()) {
        return std::nullopt;
    }
    const auto dash = list.find('-');
    const std::string first = list.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : list.substr(dash + 1);
    const auto digits = [](const std::string& s) {
        return !s.empty() && std::all_of(s.begin(), s.end(),
                                         [](unsigned char c) { return std::isdigit(c) != 0; });
    };
    if (!digits(first) || first != last) {
        return std::nullopt;
    }
    return std::stoi(first);
}

std::optional<int> thread_cpu(const sysinfo::ThreadInfo& thread) {
    if (const auto pinned = single_cpu(thread.cpus_allowed)) {
        return pinned;
    }
    return thread.last_cpu;
}

}  // namespace

std::optional<std::string> poll_placement_conflict(const PollPlacement& placement,
                                                   const sysinfo::PpsIrq& irq) {
    std::string taken;
    if (irq.serving_cpu == placement.cpu) {
        taken = fmt::format("{}'s interrupt {} is served on CPU {}", placement.pps_device,
                            irq.number, placement.cpu);
    } else if (irq.thread && thread_cpu(*irq.thread) == placement.cpu) {
        taken = fmt::format("{}'s interrupt thread {} runs on CPU {}", placement.pps_device,
                            irq.thread->comm, placement.cpu);
    } else {
        return std::nullopt;
    }
    return fmt::format(
        "--cpu {} for path {} ({}): {}; a poller spinning there delays the timestamp it "
        "measures; give the poll path another --cpu (--cpu takes one CPU per --source, in order)",
        placement.cpu, placement.path, placement.spec, taken);
}

void check_poll_placement(const PollPlacement& placement, const std::filesystem::path& sysroot) {
    sysinfo::FingerprintOptions options;
    options.sysroot = sysroot;
    options.device = placement.pps_device;
    options.pulse_wait = std::chrono::milliseconds{0};
    options.run_command = [](const std::vector<std::string>&) -> std::optional<std::string> {
        return std::nullopt;  // only /proc and /sys are needed here
    };
    std::optional<sysinfo::PpsDevice> pps;
    try {
        pps = sysinfo::read_fingerprint(options).pps;
    } catch (const core::Error&) {
        return;  // not a /dev/ppsN the fingerprint knows: nothing to hold the CPU against
    }
    if (!pps || !pps->irq) {
        return;
    }
    if (auto conflict = poll_placement_conflict(placement, *pps->irq)) {
        throw core::UsageError(*conflict);
    }
}

void check_poll_reference_pattern(const std::string& spec, const nlohmann::json& details,
                                  std::string_view peer) {
    const auto pattern = details.find("pattern");
    if (!spec.starts_with("poll:") || pattern == details.end() || !pattern->is_string() ||
        pattern->get<std::string>().find('0') != std::string::npos) {
        return;
    }
    throw core::UsageError(fmt::format(
        "--source {}: pattern={} polls every period, so as path {}'s reference it leaves no "
        "period unpolled, and the unpolled ones are what the bias and calibrate measure; use a "
        "pattern with a 0 (the default 10 alternates)",
        spec, pattern->get<std::string>(), peer));
}

}  // namespace ppsbench::session
