#include "ppsbench/report/run_summary.hpp"

#include <fmt/format.h>
#include <unordered_map>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/report/table.hpp"
#include "ppsbench/report/units.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::report {

namespace {

// Sequence gaps per edge: edges the kernel saw that the capture never read.
std::uint64_t count_sequence_gaps(const std::vector<core::Pulse>& pulses) {
    std::optional<std::uint64_t> last[2];
    std::uint64_t missed = 0;
    for (const auto& p : pulses) {
        auto& previous = last[p.edge == core::Edge::assert_edge ? 0 : 1];
        if (previous && p.sequence > *previous + 1) {
            missed += p.sequence - *previous - 1;
        }
        previous = p.sequence;
    }
    return missed;
}

}  // namespace

RunSummary summarize_run(const store::CaptureFile& file,
                         std::optional<std::int64_t> period_override_ns) {
    RunSummary run;
    run.file = file.path;
    run.label = file.label();
    if (run.label.empty()) {
        run.label = file.meta.value("source", file.path);
    }
    run.simulated = file.simulated();
    run.clock = file.meta.value("clock", std::string("realtime"));
    run.period_ns = period_override_ns.value_or(file.meta.value("period_ns", core::ns_per_second));
    run.pulses = file.pulses.size();
    run.missed_pulses = count_sequence_gaps(file.pulses);
    run.offset_ns = stats::summarize(stats::phase_offsets_ns(file.pulses, run.period_ns));
    run.warnings = file.warnings;
    if (file.end_record() == nullptr) {
        run.warnings.push_back(fmt::format(
            "{}: no end record: the run did not finish cleanly (crash or power cut); every "
            "complete line is used",
            file.path));
    }
    return run;
}

Table run_table(const std::vector<RunSummary>& runs) {
    Table table;
    table.columns = {"run", "pulses", "missed", "mean", "σ", "peak-to-peak", "RMS"};
    bool any_simulated = false;
    for (const auto& run : runs) {
        std::string label = run.label;
        if (run.simulated) {
            label += " (simulated)";
            any_simulated = true;
        }
        table.rows.push_back({label, fmt::format("{}", run.pulses),
                              run.missed_pulses ? fmt::format("{}", *run.missed_pulses) : "—",
                              format_ns(run.offset_ns.mean, true), format_ns(run.offset_ns.stddev),
                              format_ns(run.offset_ns.peak_to_peak), format_ns(run.offset_ns.rms)});
        for (const auto& warning : run.warnings) {
            table.footnotes.push_back("warning: " + warning);
        }
    }
    table.footnotes.insert(table.footnotes.begin(),
                           "Phase offset from the top of each period: σ is the sample standard "
                           "deviation (n−1); RMS includes the mean (docs/methodology.md).");
    if (any_simulated) {
        table.footnotes.insert(table.footnotes.begin() + 1,
                               "SIMULATED: rows marked (simulated) come from ppsbench's sim "
                               "models, not from hardware.");
    }
    return table;
}

}  // namespace ppsbench::report
