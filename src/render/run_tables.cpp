// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/run_tables.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "event_tables.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/render/units.hpp"
#include "saved_figures.hpp"

namespace ppsbench::render {

namespace {

// " It polled N periods, reading the level every X: each polled edge is bracketed to ±Y
// (median)." or nothing for a summary that did not keep them.
std::string poll_cost(const analysis::Bias& b) {
    if (b.poll_periods == 0 || std::isnan(b.poll_uncertainty_median_ns)) {
        return {};
    }
    return fmt::format(
        " It polled {} periods{}: each polled edge is bracketed to ±{} (median).", b.poll_periods,
        std::isnan(b.poll_read_interval_ns)
            ? std::string()
            : fmt::format(", reading the level every {}", format_ns(b.poll_read_interval_ns)),
        format_ns(b.poll_uncertainty_median_ns));
}

void add_common_footnotes(const std::vector<analysis::RunAnalysis>& runs, Table& table) {
    const bool any_simulated =
        std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.simulated; });
    const bool any_monotonic = std::any_of(runs.begin(), runs.end(), [](const auto& r) {
        return r.stats.clock == core::ClockId::monotonic;
    });
    table.footnotes.push_back(
        "Figures are of the phase offset from the top of each period; σ is the sample standard "
        "deviation (n−1), RMS includes the mean, percentiles are of |offset| (docs/metrics.md).");
    if (any_monotonic) {
        table.footnotes.push_back(
            "Monotonic-clock runs (GPIO) have no top of the second: their figures are of the "
            "detrended residuals (docs/methodology.md).");
    }
    if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.stats.free_running; })) {
        table.footnotes.push_back(
            "Free-running runs (a realtime clock whose phase drifts by more than 1 ppm) are "
            "figures of the detrended residuals too (docs/methodology.md §2).");
    }
    if (any_simulated) {
        table.footnotes.push_back(
            "SIMULATED: rows marked (simulated) come from ppsbench's sim models, not hardware.");
    }
    for (const auto& run : runs) {
        if (run.bias && run.bias->pairs > 0) {
            const auto& b = *run.bias;
            table.footnotes.push_back(fmt::format(
                "bias of {} against the reference {} over {} paired edges: median {} "
                "(95 % CI {} to {}), mean {} (95 % CI {} to {}), σ {}, p99 {}, max {}{} "
                "(docs/latency.md).",
                run.label, b.reference, b.pairs, format_ns(b.median_ns, true),
                format_ns(b.median_interval.lo, true), format_ns(b.median_interval.hi, true),
                format_ns(b.mean_ns, true), format_ns(b.mean_interval.lo, true),
                format_ns(b.mean_interval.hi, true), format_ns(b.stddev_ns),
                format_ns(b.p99_ns, true), format_ns(b.max_ns, true),
                b.reference_uncertainty_ns >= 0
                    ? fmt::format("; the reference's own conversion within ±{}",
                                  format_ns(static_cast<double>(b.reference_uncertainty_ns)))
                    : std::string()));
            if (b.polled_pairs > 0) {
                table.footnotes.push_back(fmt::format(
                    "{}: the bias above is of the {} periods the reference did not poll, "
                    "against edges interpolated between its polled ones; on the {} polled "
                    "periods it was median {}, mean {}: what polling the pin disturbed "
                    "(docs/latency.md).{}",
                    run.label, b.pairs, b.polled_pairs, format_ns(b.polled_median_ns, true),
                    format_ns(b.polled_mean_ns, true), poll_cost(b)));
            }
        }
        if (run.pulse_width) {
            const auto& w = *run.pulse_width;
            table.footnotes.push_back(fmt::format(
                "pulse width of {} (assert to clear) over {} pulses: mean {}, σ {}, min {}, max "
                "{}; "
                "a refclock on the edge that is not on the second is late by it or by the period "
                "minus it (docs/metrics.md).",
                run.file, w.pulses, format_ns(w.mean_ns), format_ns(w.stddev_ns),
                format_ns(w.min_ns), format_ns(w.max_ns)));
        }
        if (run.chrony && run.chrony->final_status != chrony::ChronyStatus::ok) {
            table.footnotes.push_back(fmt::format("chrony ({}): {}", run.label,
                                                  chrony::to_string(run.chrony->final_status)));
        }
    }
}

}  // namespace

std::vector<analysis::Metric> default_metrics(const std::vector<analysis::RunAnalysis>& runs) {
    std::vector<analysis::Metric> metrics;
    for (const char* key : {"pulses", "missed", "mean", "sigma", "p2p", "rms", "p99"}) {
        metrics.push_back(analysis::find_metric(key));
    }
    if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.chrony.has_value(); })) {
        metrics.insert(metrics.begin() + 2, analysis::find_metric("rms_offset"));
    }
    return metrics;
}

Table runs_table(const std::vector<analysis::RunAnalysis>& runs,
                 const std::vector<analysis::Metric>& metrics) {
    Table table;
    table.columns.push_back({"run", "run", Quantity::text});
    for (const auto& metric : metrics) {
        table.columns.push_back({metric.title, metric.json_key, metric.quantity});
    }
    for (const auto& run : runs) {
        std::vector<Cell> row{run_cell(run)};
        for (const auto& metric : metrics) {
            row.push_back(Cell::of(metric.value(run)));
        }
        table.rows.push_back(std::move(row));
    }
    add_common_footnotes(runs, table);
    return table;
}

namespace {

// Tables are split where one would pass 100 columns: a terminal or a pasted issue wraps it.
// Each of these is one part of the verbose report; the common footnotes are the first table's.

Table distribution_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table = runs_table(runs, analysis::parse_metrics("median,robust_sigma,min,max"));
    table.title = "Distribution of the offset";
    table.columns.push_back({"σ 95% CI", "offset_stddev_ci95", Quantity::text});
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& ci = runs[i].stats.headline().stddev_ci95;
        table.rows[i].push_back(Cell::of_text(
            std::isfinite(ci.lo) ? fmt::format("{}–{}", format_ns(ci.lo), format_ns(ci.hi)) : "—"));
    }
    table.footnotes.resize(0);
    return table;
}

Table percentiles_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table = runs_table(runs, analysis::parse_metrics("p50,p90,p99,p99.9,p99.99,max_abs"));
    table.title = "Percentiles of |offset|";
    table.footnotes.resize(0);
    return table;
}

Table residuals_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table =
        runs_table(runs, analysis::parse_metrics("detrended_sigma,detrended_p2p,period_sigma,"
                                                 "period_p2p,sigma_no_outliers"));
    table.title = "Detrended residuals, period jitter, and σ without outliers";
    table.footnotes = {
        "Detrended: residuals of a least-squares fit of timestamp against pulse "
        "index. Period jitter: (t_k − t_{k−1}) − P over consecutive pulses."};
    return table;
}

// One row per run and τ; runs too short for the stability grid have none.
Table stability_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Stability of the phase (NIST SP 1065, overlapping estimators)";
    table.columns = {
        {"run", "run", Quantity::text},         {"τ", "tau_s", Quantity::text},
        {"ADEV", "adev", Quantity::plain},      {"MDEV", "mdev", Quantity::plain},
        {"TDEV", "tdev_ns", Quantity::time_ns}, {"MTIE", "mtie_ns", Quantity::time_ns}};
    for (const auto& run : runs) {
        if (!run.stats.stability) {
            continue;
        }
        const auto& st = *run.stats.stability;
        for (std::size_t i = 0; i < st.tau_s.size(); ++i) {
            table.rows.push_back({run_cell(run), Cell::of_text(fmt::format("{:g} s", st.tau_s[i])),
                                  Cell::of(st.adev[i]), Cell::of(st.mdev[i]),
                                  Cell::of(st.tdev_s[i] * 1e9), Cell::of(st.mtie_s[i] * 1e9)});
        }
    }
    return table;
}

}  // namespace

std::vector<Table> detail_tables(const std::vector<analysis::RunAnalysis>& runs) {
    std::vector<Table> tables;
    tables.push_back(runs_table(runs, default_metrics(runs)));
    tables.push_back(distribution_table(runs));
    tables.push_back(percentiles_table(runs));
    tables.push_back(residuals_table(runs));
    tables.push_back(events_table(runs));
    tables.push_back(outliers_table(runs));
    if (auto chrony = chrony_table(runs)) {
        tables.push_back(std::move(*chrony));
    }
    if (auto configuration = configuration_table(runs)) {
        tables.push_back(std::move(*configuration));
    }
    tables.push_back(stability_table(runs));
    return tables;
}

std::optional<Table> chrony_table(const std::vector<analysis::RunAnalysis>& runs) {
    if (std::none_of(runs.begin(), runs.end(),
                     [](const auto& r) { return r.chrony.has_value(); })) {
        return std::nullopt;
    }
    const double none = std::numeric_limits<double>::quiet_NaN();
    Table table;
    table.title = "chrony during the run";
    table.columns = {{"run", "run", Quantity::text},
                     {"status", "status", Quantity::text},
                     {"RMS offset (end)", "rms_offset_end_ns", Quantity::time_ns},
                     {"RMS offset (mean)", "rms_offset_mean_ns", Quantity::time_ns},
                     {"system time", "system_time_offset_ns", Quantity::signed_time_ns},
                     {"frequency", "frequency_ppm", Quantity::text},
                     {"skew", "skew_ppm", Quantity::text},
                     {"reference", "reference", Quantity::text},
                     {"stratum", "stratum", Quantity::count},
                     {"leap", "leap", Quantity::text},
                     {"PPS std dev", "pps_std_dev_ns", Quantity::time_ns}};
    for (const auto& run : runs) {
        if (!run.chrony) {
            continue;
        }
        const auto& c = *run.chrony;
        const auto* end = c.end ? &*c.end : nullptr;
        table.rows.push_back(
            {run_cell(run), Cell::of_text(std::string(chrony::to_string(c.final_status))),
             Cell::of(end ? static_cast<double>(end->rms_offset_ns) : none),
             Cell::of(c.rms_offset_mean_ns.value_or(none)),
             Cell::of(end ? static_cast<double>(end->system_time_offset_ns) : none),
             Cell::of_text(end ? fmt::format("{:+.3f} ppm", end->frequency_ppm) : "—"),
             Cell::of_text(end ? fmt::format("{:.3f} ppm", end->skew_ppm) : "—"),
             Cell::of_text(end ? fmt::format("{} ({})", end->ref_id_text(), end->ref_name) : "—"),
             Cell::of(end ? static_cast<double>(end->stratum) : none),
             Cell::of_text(end ? std::string(chrony::to_string(end->leap)) : "—"),
             Cell::of(c.pps_stats_end ? static_cast<double>(c.pps_stats_end->std_dev_ns) : none)});
        for (const auto& change : c.changes) {
            if (change.status != chrony::ChronyStatus::ok) {
                table.footnotes.push_back(fmt::format(
                    "{}: chrony was {}{}{}", run.label, chrony::to_string(change.status),
                    change.detail.empty() ? "" : ": ", change.detail));
            }
        }
    }
    table.footnotes.push_back(
        "RMS offset is chrony's own long-term average of its clock offset, not the raw jitter σ "
        "(docs/chrony.md).");
    return table;
}

namespace {

// The CPU wake-up latency a run held (run --cpu-dma-latency), in µs.
std::optional<std::uint32_t> cpu_latency_held(const analysis::RunAnalysis& run) {
    if (!run.meta || !run.meta->capture_process) {
        return std::nullopt;
    }
    return run.meta->capture_process->cpu_dma_latency_us;
}

}  // namespace

std::optional<Table> configuration_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "What was measured";
    table.columns = {{"run", "run", Quantity::text},
                     {"kernel", "kernel", Quantity::text},
                     {"PPS timestamp taken in", "timestamp_context", Quantity::text},
                     {"source", "source", Quantity::text}};
    // A column only when some run held a limit: the others were measured without one.
    const bool any_hold = std::any_of(runs.begin(), runs.end(),
                                      [](const auto& run) { return cpu_latency_held(run); });
    if (any_hold) {
        table.columns.push_back(
            {"CPU wake-up limit held", "cpu_dma_latency_ns", Quantity::time_ns});
    }
    bool any_kernel = false;
    for (const auto& run : runs) {
        const auto kernel = run.meta ? analysis::measured_kernel(*run.meta) : std::nullopt;
        const auto held = cpu_latency_held(run);
        if (!kernel && !held) {
            continue;
        }
        any_kernel = any_kernel || kernel.has_value();
        // An empty source is none, as in the run's label (RunMeta reads a missing one as "").
        const std::string& source = run.meta->source;
        const analysis::MeasuredKernel fingerprint = kernel.value_or(analysis::MeasuredKernel{});
        table.rows.push_back({run_cell(run), Cell::of_text(fingerprint.label.value_or("—")),
                              Cell::of_text(fingerprint.timestamp_context.value_or("—")),
                              Cell::of_text(source.empty() ? "—" : source)});
        if (any_hold) {
            table.rows.back().push_back(held ? Cell::of(static_cast<double>(*held) * 1000.0)
                                             : Cell{});
        }
    }
    if (table.rows.empty()) {
        return std::nullopt;
    }
    if (any_kernel) {
        table.footnotes.push_back(
            "From the kernel fingerprint 'ppsbench run' records (ppsbench "
            "doctor explains it: docs/doctor.md).");
    }
    if (any_hold) {
        table.footnotes.push_back(
            "CPU wake-up limit held: the latency requested in /dev/cpu_dma_latency for the whole "
            "capture (run --cpu-dma-latency), keeping CPUs out of slower idle states.");
    }
    return table;
}

}  // namespace ppsbench::render
