// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/recorded_system.hpp"

#include <fmt/format.h>

namespace ppsbench::analysis {

namespace {

using nlohmann::json;

// The value at a path of object keys, or null: a fingerprint from an older version, or one
// whose reader could not tell, has nulls and missing keys, never guesses.
const json& at(const json& object, std::initializer_list<const char*> path) {
    static const json none;
    const json* node = &object;
    for (const char* key : path) {
        if (!node->is_object()) {
            return none;
        }
        const auto it = node->find(key);
        if (it == node->end()) {
            return none;
        }
        node = &*it;
    }
    return *node;
}

std::optional<std::string> text(const json& value) {
    return value.is_string() ? std::optional(value.get<std::string>()) : std::nullopt;
}

std::string joined(const json& list) {
    std::string words;
    for (const auto& item : list) {
        if (item.is_string()) {
            words += (words.empty() ? "" : ", ") + item.get<std::string>();
        }
    }
    return words;
}

void add_irq_findings(const json& irq, std::vector<std::string>& findings) {
    const json& thread = at(irq, {"thread"});
    if (thread.is_object()) {
        findings.push_back(fmt::format(
            "IRQ {} is served by the thread {} ({}{})",
            at(irq, {"number"}).is_number() ? at(irq, {"number"}).dump() : "?",
            text(at(thread, {"comm"})).value_or("?"), text(at(thread, {"policy"})).value_or("?"),
            at(thread, {"rt_priority"}).is_number()
                ? " priority " + at(thread, {"rt_priority"}).dump()
                : ""));
    }
    for (const auto& neighbour : at(irq, {"busy_neighbours"})) {
        const json& rate = at(neighbour, {"rate_per_second"});
        findings.push_back(fmt::format(
            "busy IRQ on the same CPU: {} ({}){}", text(at(neighbour, {"irq"})).value_or("?"),
            text(at(neighbour, {"actions"})).value_or("?"),
            rate.is_number() ? fmt::format(", {:.0f} interrupts/s", rate.get<double>()) : ""));
    }
}

}  // namespace

std::optional<RecordedSystem> recorded_system(const store::RunMeta& meta) {
    if (!meta.system || !meta.system->is_object()) {
        return std::nullopt;
    }
    const json& system = *meta.system;
    RecordedSystem recorded;
    recorded.kernel_release = text(at(system, {"kernel", "release"}));
    if (const json& rt = at(system, {"kernel", "preempt_rt"}); rt.is_boolean()) {
        recorded.preempt_rt = rt.get<bool>();
    }
    auto& findings = recorded.findings;
    if (const auto handler = text(at(system, {"pps", "handler"}))) {
        const std::string symbols = joined(at(system, {"pps", "handler_symbols"}));
        findings.push_back(fmt::format("PPS interrupt handler: {}{}", *handler,
                                       symbols.empty() ? "" : " (" + symbols + ")"));
    }
    if (const json& forced = at(system, {"kernel", "forced_irq_threading"}); forced.is_boolean()) {
        findings.push_back(fmt::format("interrupt handlers forced into threads: {}",
                                       forced.get<bool>() ? "yes" : "no"));
    }
    add_irq_findings(at(system, {"pps", "irq"}), findings);
    if (const auto clocksource = text(at(system, {"power", "clocksource"}))) {
        findings.push_back("clocksource: " + *clocksource);
    }
    return recorded;
}

}  // namespace ppsbench::analysis
