// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/run_configuration.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/recorded_system.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

namespace {

std::string chrony_state(const analysis::RunAnalysis& run) {
    if (!run.chrony) {
        return "not sampled";
    }
    const auto& c = *run.chrony;
    std::string state(chrony::to_string(c.final_status));
    if (c.end) {
        state +=
            fmt::format(", RMS offset {} at the end, reference {}",
                        format_ns(static_cast<double>(c.end->rms_offset_ns)), c.end->ref_id_text());
    }
    return state;
}

std::string bias_text(const analysis::RunAnalysis& run) {
    if (!run.bias || run.bias->pairs == 0) {
        return "not measured";
    }
    const auto& b = *run.bias;
    return fmt::format("median {} (95 % CI {} to {}) against {}", format_ns(b.median_ns, true),
                       format_ns(b.median_interval.lo, true), format_ns(b.median_interval.hi, true),
                       b.reference);
}

}  // namespace

Table run_configuration_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Configuration of each run";
    table.columns = {{"run", "run", Quantity::text},
                     {"source", "source", Quantity::text},
                     {"kernel", "kernel", Quantity::text},
                     {"PREEMPT_RT", "preempt_rt", Quantity::text},
                     {"PPS timestamp taken in", "timestamp_context", Quantity::text},
                     {"chrony", "chrony", Quantity::text},
                     {"bias", "bias", Quantity::text}};
    for (const auto& run : runs) {
        const auto system = run.meta ? analysis::recorded_system(*run.meta) : std::nullopt;
        const auto kernel = run.meta ? analysis::measured_kernel(*run.meta) : std::nullopt;
        // Read from the capture's meta line: printable (a replay: file name may hold anything).
        std::string source =
            run.meta && !run.meta->source.empty() ? core::printable_utf8(run.meta->source) : "—";
        if (run.simulated) {
            source += " (SIMULATED)";
        }
        const std::string preempt_rt =
            system && system->preempt_rt ? (*system->preempt_rt ? "yes" : "no") : "—";
        table.rows.push_back(
            {Cell::of_run({run.label, run.simulated, run.file}), Cell::of_text(source),
             Cell::of_text(system && system->kernel_release ? *system->kernel_release : "—"),
             Cell::of_text(preempt_rt),
             Cell::of_text(kernel && kernel->timestamp_context ? *kernel->timestamp_context : "—"),
             Cell::of_text(chrony_state(run)), Cell::of_text(bias_text(run))});
    }
    table.footnotes.push_back(
        "Kernel, PREEMPT_RT and where the timestamp is taken come from the fingerprint "
        "'ppsbench run' records for device sources; a simulation or an import has none.");
    return table;
}

std::vector<std::pair<std::string, std::vector<std::string>>> recorded_findings(
    const std::vector<analysis::RunAnalysis>& runs) {
    std::vector<std::pair<std::string, std::vector<std::string>>> findings;
    for (const auto& run : runs) {
        const auto system = run.meta ? analysis::recorded_system(*run.meta) : std::nullopt;
        if (system && !system->findings.empty()) {
            findings.emplace_back(run.label, system->findings);
        }
    }
    return findings;
}

}  // namespace ppsbench::render
