#include "ppsbench/render/run_tables.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsbench/render/units.hpp"
#include "ppsbench/stats/histogram.hpp"

namespace ppsbench::render {

namespace {

std::string row_label(const analysis::RunAnalysis& run) {
    return run.simulated ? run.label + " (simulated)" : run.label;
}

Cell run_cell(const analysis::RunAnalysis& run) {
    return Cell::of_run({run.label, run.simulated, run.file});
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
                "bias of {} against the hardware reference {} over {} paired edges: median {} "
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

Table events_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Events";
    table.columns = {{"run", "run", Quantity::text},
                     {"missed (sequence)", "missed_by_sequence", Quantity::count},
                     {"missed (time)", "missed_by_time", Quantity::count},
                     {"duplicates", "duplicates", Quantity::count},
                     {"out of order", "out_of_order", Quantity::count}};
    for (const auto& run : runs) {
        const auto& s = run.stats;
        table.rows.push_back({run_cell(run), Cell::of(static_cast<double>(s.missed_by_sequence)),
                              Cell::of(static_cast<double>(s.missed_by_time)),
                              Cell::of(static_cast<double>(s.duplicates)),
                              Cell::of(static_cast<double>(s.out_of_order))});
    }
    return table;
}

// Each step removed, its size and the pulse it came at; "none" when there was none.
std::string clock_steps_text(const stats::RunStatistics& stats) {
    std::string steps;
    for (const auto& step : stats.clock_steps) {
        steps += fmt::format("{}{} at pulse {}", steps.empty() ? "" : "; ",
                             format_ns(step.size_ns, true), step.pulse);
    }
    return steps.empty() ? "none" : steps;
}

Table outliers_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "Outliers and clock steps";
    table.columns = {{"run", "run", Quantity::text},
                     {"outliers", "outliers", Quantity::count},
                     {"outlier threshold", "outlier_threshold_ns", Quantity::time_ns},
                     {"clock steps", "clock_steps", Quantity::text}};
    for (const auto& run : runs) {
        const auto& s = run.stats;
        table.rows.push_back(
            {run_cell(run), Cell::of(static_cast<double>(s.outliers.pulses.size())),
             Cell::of(s.outliers.threshold_ns), Cell::of_text(clock_steps_text(s))});
    }
    table.footnotes = {
        "Outliers are flagged, never dropped: |x − median| > k·robust σ; figures "
        "are given with and without them. Clock steps are removed before the "
        "statistics (docs/methodology.md)."};
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

std::optional<Table> configuration_table(const std::vector<analysis::RunAnalysis>& runs) {
    Table table;
    table.title = "What was measured";
    table.columns = {{"run", "run", Quantity::text},
                     {"kernel", "kernel", Quantity::text},
                     {"PPS timestamp taken in", "timestamp_context", Quantity::text},
                     {"source", "source", Quantity::text}};
    for (const auto& run : runs) {
        const auto kernel = run.meta ? analysis::measured_kernel(*run.meta) : std::nullopt;
        if (!kernel) {
            continue;
        }
        // An empty source is none, as in the run's label (RunMeta reads a missing one as "").
        const std::string& source = run.meta->source;
        table.rows.push_back({run_cell(run), Cell::of_text(kernel->label.value_or("—")),
                              Cell::of_text(kernel->timestamp_context.value_or("—")),
                              Cell::of_text(source.empty() ? "—" : source)});
    }
    if (table.rows.empty()) {
        return std::nullopt;
    }
    table.footnotes.push_back(
        "From the kernel fingerprint 'ppsbench run' records (ppsbench "
        "doctor explains it: docs/doctor.md).");
    return table;
}

namespace {

const std::vector<double>* headline_series(const analysis::RunAnalysis& run) {
    if (!run.stats.series) {
        return nullptr;
    }
    return run.stats.offset_ns ? &run.stats.series->offset_ns : &run.stats.series->detrended_ns;
}

// A round bin width (1, 2 or 5 × 10^k ns) giving at most `bins` bins over `span`.
double round_bin_width(double span, std::size_t bins) {
    const double raw = std::max(span / static_cast<double>(bins), 1.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (raw <= m * magnitude) {
            return m * magnitude;
        }
    }
    return 10 * magnitude;
}

}  // namespace

std::string ascii_histograms(const std::vector<analysis::RunAnalysis>& runs, std::size_t width) {
    // One set of bins for every run, with round edges, so the runs of one report can be compared
    // by eye: same rows, same unit, about 20 rows over the range all of them cover.
    double lo = INFINITY;
    double hi = -INFINITY;
    for (const auto& run : runs) {
        if (const auto* series = headline_series(run); series != nullptr && !series->empty()) {
            const auto [mn, mx] = std::minmax_element(series->begin(), series->end());
            lo = std::min(lo, *mn);
            hi = std::max(hi, *mx);
        }
    }
    if (!std::isfinite(lo)) {
        return "";
    }
    const double bin = round_bin_width(hi - lo, 20);
    const double lower = std::floor(lo / bin) * bin;
    // The last edge lies above the maximum: bins are [low, high).
    const double upper = (std::floor(hi / bin) + 1) * bin;
    const double edges[] = {lower, upper};
    const TimeUnit unit = [&] {
        TimeUnit u = choose_time_unit(edges);
        // Enough decimals to tell the edges apart at this bin width.
        const double step = bin / u.ns_per_unit;
        u.decimals = step >= 1 ? 0 : (step >= 0.1 ? 1 : 2);
        return u;
    }();
    const auto edge_text = [&](double ns) {
        const double v = ns / unit.ns_per_unit;
        return std::round(std::fabs(v) * std::pow(10.0, unit.decimals)) == 0
                   ? fmt::format("{:.{}f}", 0.0, unit.decimals)
                   : fmt::format("{:+.{}f}", v, unit.decimals);
    };
    const std::size_t edge_width = std::max(edge_text(lower).size(), edge_text(upper).size());
    const std::size_t label_width = 2 * edge_width + 4;
    std::string text = fmt::format(
        "Offset histograms: bins [from, to) in {}, {} wide, the same bins for every run\n",
        unit.suffix, format_in_unit(bin, unit));
    for (const auto& run : runs) {
        const auto* series = headline_series(run);
        if (series == nullptr || series->empty()) {
            continue;
        }
        stats::HistogramOptions options;
        options.bin_width = bin;
        options.lower = lower;
        options.upper = upper;
        options.max_bins = 100000;
        const auto h = stats::make_histogram(*series, options);
        const std::uint64_t peak = *std::max_element(h.counts.begin(), h.counts.end());
        text += fmt::format("\n{}: {} pulses\n", row_label(run), series->size());
        text +=
            fmt::format("  {:<{}} │ pulses\n", fmt::format("bin ({})", unit.suffix), label_width);
        for (std::size_t i = 0; i < h.counts.size(); ++i) {
            const double from = lower + bin * static_cast<double>(i);
            const auto bar = peak == 0 ? 0 : (h.counts[i] * width + peak - 1) / peak;
            text += fmt::format("  [{:>{}}, {:>{}}) │{:<{}} {}\n", edge_text(from), edge_width,
                                edge_text(from + bin), edge_width, std::string(bar, '#'), width,
                                h.counts[i]);
        }
    }
    return text;
}

}  // namespace ppsbench::render
