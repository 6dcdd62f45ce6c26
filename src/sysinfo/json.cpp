// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/json.hpp"

#include "ppsbench/core/text.hpp"

namespace ppsbench::sysinfo {

namespace {

using nlohmann::json;

// Every text here was read from the system (process names, chrony.conf lines, sysfs attributes)
// and may hold any bytes; nlohmann::json's dump() throws on bytes that are not UTF-8, which
// would end `doctor --format json` and a capture's metadata with an internal error.
json with_valid_text(json value) {
    if (value.is_string()) {
        return core::valid_utf8(value.get_ref<const std::string&>());
    }
    if (value.is_structured()) {
        for (auto& item : value) {
            item = with_valid_text(std::move(item));
        }
    }
    return value;
}

// Unknown is null, so a reader never mistakes "not read" for an empty or zero value.
json text_or_null(const std::string& text) {
    return text.empty() ? json(nullptr) : json(text);
}

template <typename T>
json optional_or_null(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

json event_json(const std::optional<PpsEvent>& event) {
    if (!event) {
        return nullptr;
    }
    return {{"seconds", event->seconds},
            {"nanoseconds", event->nanoseconds},
            {"sequence", event->sequence}};
}

json thread_json(const ThreadInfo& thread) {
    return {{"pid", thread.pid},
            {"comm", thread.comm},
            {"policy", text_or_null(thread.policy)},
            {"rt_priority", thread.rt_priority},
            {"last_cpu", optional_or_null(thread.last_cpu)},
            {"cpus_allowed", text_or_null(thread.cpus_allowed)}};
}

json irq_json(const PpsIrq& irq) {
    json neighbours = json::array();
    for (const auto& n : irq.busy_neighbours) {
        neighbours.push_back(
            {{"irq", n.irq}, {"actions", n.actions}, {"rate_per_second", n.rate_per_second}});
    }
    return {{"number", irq.number},
            {"controller", text_or_null(irq.controller)},
            {"actions", irq.actions},
            {"count", irq.count},
            {"smp_affinity_list", text_or_null(irq.smp_affinity_list)},
            {"effective_affinity_list", text_or_null(irq.effective_affinity_list)},
            {"serving_cpu", optional_or_null(irq.serving_cpu)},
            {"thread", irq.thread ? thread_json(*irq.thread) : json(nullptr)},
            {"busy_neighbours", neighbours}};
}

json pps_json(const PpsDevice& pps) {
    return {{"id", pps.id},
            {"device", pps.dev_path},
            {"name", text_or_null(pps.name)},
            {"path", text_or_null(pps.path)},
            {"driver", text_or_null(pps.driver)},
            {"kind", to_string(pps.kind)},
            {"mode", optional_or_null(pps.mode)},
            {"assert", event_json(pps.assert_first)},
            {"clear", event_json(pps.clear_first)},
            {"pulse_check", pps.pulses_sampled ? json{{"wait_ms", pps.pulse_wait.count()},
                                                      {"assert", event_json(pps.assert_second)},
                                                      {"clear", event_json(pps.clear_second)}}
                                               : json(nullptr)},
            {"irq", pps.irq ? irq_json(*pps.irq) : json(nullptr)},
            {"handler", to_string(pps.handler)},
            {"handler_symbols", pps.handler_symbols}};
}

json kernel_json(const KernelInfo& kernel) {
    return {{"release", text_or_null(kernel.release)},
            {"version", text_or_null(kernel.version)},
            {"arch", text_or_null(kernel.arch)},
            {"realtime_sysfs", optional_or_null(kernel.realtime_sysfs)},
            {"preempt_rt", kernel.preempt_rt},
            {"preemption", text_or_null(kernel.preemption)},
            {"preemption_source", text_or_null(kernel.preemption_source)},
            {"cmdline", text_or_null(kernel.cmdline)},
            {"cmdline_source", text_or_null(kernel.cmdline_source)},
            {"threadirqs", kernel.threadirqs},
            {"forced_irq_threading", kernel.forced_irq_threading()},
            {"isolcpus", optional_or_null(kernel.isolcpus)},
            {"nohz_full", optional_or_null(kernel.nohz_full)},
            {"irqaffinity", optional_or_null(kernel.irqaffinity)},
            {"uptime_seconds", optional_or_null(kernel.uptime_seconds)}};
}

json power_json(const PowerInfo& power) {
    json governors = json::object();
    for (const auto& g : power.governors) {
        governors[std::to_string(g.cpu)] = g.governor;
    }
    json resume = json::object();
    for (const auto& r : power.resume_latencies) {
        resume[std::to_string(r.cpu)] = optional_or_null(r.limit_us);
    }
    json idle = json::array();
    for (const auto& s : power.idle_states) {
        idle.push_back({{"index", s.index},
                        {"name", s.name},
                        {"exit_latency_us", s.exit_latency_us},
                        {"cpus_enabled", s.cpus_enabled},
                        {"cpus_total", s.cpus_total}});
    }
    return {{"clocksource", text_or_null(power.clocksource)},
            {"available_clocksources", text_or_null(power.available_clocksources)},
            {"cpufreq_governors", governors},
            {"idle_states", idle},
            {"cpu_dma_latency_us", optional_or_null(power.cpu_dma_latency_us)},
            {"resume_latency_limits_us", resume}};
}

json pcie_json(const PcieInfo& pcie) {
    json links = json::array();
    for (const auto& l : pcie.gpio_links) {
        links.push_back({{"address", l.address},
                         {"name", l.name},
                         {"l0s_aspm", optional_or_null(l.l0s)},
                         {"l1_aspm", optional_or_null(l.l1)},
                         {"l1_1_aspm", optional_or_null(l.l1_1)},
                         {"l1_2_aspm", optional_or_null(l.l1_2)},
                         {"clkpm", optional_or_null(l.clkpm)}});
    }
    return {{"aspm_policy", text_or_null(pcie.aspm_policy)}, {"gpio_links", std::move(links)}};
}

json eee_json(const std::vector<NicEee>& nics) {
    json list = json::array();
    for (const auto& n : nics) {
        list.push_back({{"interface", n.interface},
                        {"phc", n.phc},
                        {"status", text_or_null(n.status)},
                        {"unknown_reason", text_or_null(n.unknown_reason)}});
    }
    return list;
}

json chrony_json(const ChronyInfo& chrony) {
    json refclocks = json::array();
    for (const auto& r : chrony.refclocks) {
        refclocks.push_back({{"file", r.file},
                             {"line", r.line},
                             {"text", r.text},
                             {"driver", r.driver},
                             {"parameter", r.parameter},
                             {"uses_device", r.uses_device},
                             {"driver_options", r.driver_options},
                             {"width", text_or_null(r.width)},
                             {"rate", text_or_null(r.rate)}});
    }
    return {{"installed", chrony.installed},
            {"version", text_or_null(chrony.version)},
            {"running", chrony.running},
            {"pid", chrony.running ? json(chrony.pid) : json(nullptr)},
            {"enabled_by", text_or_null(chrony.enabled_by)},
            {"config_files", chrony.config_files},
            {"refclocks", refclocks}};
}

json boot_json(const BootConfig& boot) {
    json overlays = json::array();
    for (const auto& o : boot.overlays) {
        overlays.push_back({{"file", o.file},
                            {"line", o.line},
                            {"text", o.text},
                            {"name", o.name},
                            {"section", o.section}});
    }
    return {{"cmdline_file", text_or_null(boot.cmdline_file)},
            {"cmdline", boot.cmdline_file.empty() ? json(nullptr) : json(boot.cmdline)},
            {"config_file", text_or_null(boot.config_file)},
            {"overlays", std::move(overlays)},
            {"kernels", boot.kernels}};
}

json ptp_json(const PtpInfo& ptp) {
    json clocks = json::array();
    for (const auto& c : ptp.clocks) {
        json pins = json::array();
        for (const auto& p : c.pins) {
            pins.push_back({{"name", p.name}, {"function", p.function}, {"channel", p.channel}});
        }
        const auto count = [](int n) { return n < 0 ? json(nullptr) : json(n); };
        clocks.push_back({{"id", c.id},
                          {"device", "/dev/" + c.id},
                          {"clock_name", text_or_null(c.clock_name)},
                          {"external_timestamps", count(c.external_timestamps)},
                          {"periodic_outputs", count(c.periodic_outputs)},
                          {"programmable_pins", count(c.programmable_pins)},
                          {"pps_available", c.pps_available},
                          {"pins", std::move(pins)},
                          {"interfaces", c.interfaces}});
    }
    json tools = json::array();
    for (const auto& t : ptp.tools) {
        tools.push_back({{"name", t.name},
                         {"running", t.running},
                         {"pid", t.running ? json(t.pid) : json(nullptr)}});
    }
    return {{"clocks", std::move(clocks)}, {"tools", std::move(tools)}};
}

}  // namespace

nlohmann::json to_json(const SystemFingerprint& fingerprint) {
    return with_valid_text({{"schema", kFingerprintSchema},
                            {"label", short_label(fingerprint)},
                            {"timestamp_context", to_string(timestamp_context(fingerprint))},
                            {"sysroot", fingerprint.sysroot},
                            {"image", fingerprint.image},
                            {"boot", boot_json(fingerprint.boot)},
                            {"kernel", kernel_json(fingerprint.kernel)},
                            {"requested_device", text_or_null(fingerprint.requested_device)},
                            {"available_devices", fingerprint.available_devices},
                            {"pps", fingerprint.pps ? pps_json(*fingerprint.pps) : json(nullptr)},
                            {"power", power_json(fingerprint.power)},
                            {"pcie", pcie_json(fingerprint.pcie)},
                            {"chrony", chrony_json(fingerprint.chrony)},
                            {"ptp", ptp_json(fingerprint.ptp)},
                            {"eee", eee_json(fingerprint.eee)}});
}

nlohmann::json to_json(const Verdict& verdict) {
    return with_valid_text({{"severity", to_string(verdict.severity)},
                            {"check", verdict.check},
                            {"message", verdict.message},
                            {"fix", text_or_null(verdict.fix)}});
}

nlohmann::json doctor_json(const SystemFingerprint& fingerprint,
                           const std::vector<Verdict>& verdicts) {
    json list = json::array();
    int counts[4] = {0, 0, 0, 0};
    for (const auto& verdict : verdicts) {
        list.push_back(to_json(verdict));
        ++counts[static_cast<int>(verdict.severity)];
    }
    return {
        {"schema", kDoctorSchema},
        {"label", core::valid_utf8(short_label(fingerprint))},
        {"timestamp_context", to_string(timestamp_context(fingerprint))},
        {"system", to_json(fingerprint)},
        {"verdicts", list},
        {"summary",
         {{"ok", counts[0]}, {"warn", counts[1]}, {"fail", counts[2]}, {"unknown", counts[3]}}}};
}

}  // namespace ppsbench::sysinfo
