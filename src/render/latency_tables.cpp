// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/latency_tables.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

// One row per run and path, so the table stays within a terminal's 100 columns (a row per run
// with both paths side by side was about 140).
Table latency_table(const std::vector<latency::LatencySummary>& runs) {
    Table table;
    table.columns = {{"run", "run", Quantity::text},
                     {"path", "path", Quantity::text},
                     {"edges", "edges", Quantity::count},
                     {"unseen", "unseen_edges", Quantity::count}};
    for (const char* figure : {"p50", "p90", "p99", "max", "mean", "σ"}) {
        const std::string name = figure;
        table.columns.push_back(
            {name, (name == "σ" ? std::string("stddev") : name) + "_ns", Quantity::time_ns});
    }
    table.columns.push_back({"CPU idle", "cpu_idle_percent", Quantity::percent});
    for (const auto& run : runs) {
        for (const auto& [path, d] : {std::pair{"drive→ts", &run.drive_to_kernel},
                                      std::pair{"ts→wake", &run.kernel_to_wake}}) {
            std::vector<Cell> row{Cell::of_text(run.label), Cell::of_text(path),
                                  Cell::of(static_cast<double>(run.drive_to_kernel.summary.count)),
                                  Cell::of(static_cast<double>(run.unseen_edges))};
            for (const double v :
                 {d->p50, d->p90, d->p99, d->summary.max, d->summary.mean, d->summary.stddev}) {
                row.push_back(Cell::of(v));
            }
            row.push_back(Cell::of(run.cpu_idle_fraction
                                       ? 100.0 * *run.cpu_idle_fraction
                                       : std::numeric_limits<double>::quiet_NaN()));
            table.rows.push_back(std::move(row));
        }
        if (run.stray_events > 0) {
            table.footnotes.push_back(fmt::format(
                "{}: {} events matched no driven edge (bounces or noise) and were skipped",
                run.label, run.stray_events));
        }
    }
    table.footnotes.insert(
        table.footnotes.begin(),
        "drive→ts: from just before the output was set to the kernel's timestamp of the edge "
        "(interrupt path); ts→wake: from that timestamp to ppsbench running again (scheduler "
        "wake-up). Percentiles interpolate linearly; σ is n−1 (docs/latency.md).");
    return table;
}

std::vector<std::string> histogram_lines(const stats::Histogram& histogram, std::size_t bar_width) {
    std::vector<std::string> lines;
    if (histogram.counts.empty()) {
        return lines;
    }
    std::uint64_t peak = std::max(histogram.underflow, histogram.overflow);
    for (const auto c : histogram.counts) {
        peak = std::max(peak, c);
    }
    const auto bar = [&](std::uint64_t count) {
        const auto n = peak == 0 ? 0 : (count * bar_width + peak - 1) / peak;
        std::string text;
        for (std::uint64_t i = 0; i < n; ++i) {
            text += "█";
        }
        return text;
    };
    const double end =
        histogram.lower_edge + histogram.bin_width * static_cast<double>(histogram.counts.size());
    if (histogram.underflow > 0) {
        lines.push_back(fmt::format("  {:>21} {:>8} {}", "< " + format_ns(histogram.lower_edge),
                                    histogram.underflow, bar(histogram.underflow)));
    }
    for (std::size_t i = 0; i < histogram.counts.size(); ++i) {
        const double low = histogram.lower_edge + histogram.bin_width * static_cast<double>(i);
        lines.push_back(fmt::format("  {:>9} … {:>9} {:>8} {}", format_ns(low),
                                    format_ns(low + histogram.bin_width), histogram.counts[i],
                                    bar(histogram.counts[i])));
    }
    if (histogram.overflow > 0) {
        lines.push_back(fmt::format("  {:>21} {:>8} {}", "≥ " + format_ns(end), histogram.overflow,
                                    bar(histogram.overflow)));
    }
    return lines;
}

Table dual_table(const latency::DualSummary& dual) {
    Table table;
    table.title = fmt::format("Two paths, one edge: A = {}, B = {}", dual.label_a, dual.label_b);
    table.columns = {
        {"series", "series", Quantity::text},        {"pulses", "pulses", Quantity::text},
        {"unpaired", "unpaired", Quantity::count},   {"p50", "p50_ns", Quantity::signed_time_ns},
        {"p90", "p90_ns", Quantity::signed_time_ns}, {"p99", "p99_ns", Quantity::signed_time_ns},
        {"max", "max_ns", Quantity::signed_time_ns}, {"mean", "mean_ns", Quantity::signed_time_ns},
        {"σ", "stddev_ns", Quantity::time_ns},       {"p-p", "peak_to_peak_ns", Quantity::time_ns}};
    const double none = std::numeric_limits<double>::quiet_NaN();
    const auto path_row = [&](const char* name, std::size_t pulses, std::size_t unpaired,
                              const stats::Summary& s) {
        return std::vector<Cell>{Cell::of_text(fmt::format("{} {}", name, dual.jitter_measure)),
                                 Cell::of_text(fmt::format("{}", pulses)),
                                 Cell::of(static_cast<double>(unpaired)),
                                 Cell::of(none),
                                 Cell::of(none),
                                 Cell::of(none),
                                 Cell::of(s.max),
                                 Cell::of(s.mean),
                                 Cell::of(s.stddev),
                                 Cell::of(s.peak_to_peak)};
    };
    table.rows.push_back(path_row("A", dual.pulses_a, dual.unpaired_a, dual.jitter_a));
    table.rows.push_back(path_row("B", dual.pulses_b, dual.unpaired_b, dual.jitter_b));
    const auto& d = dual.difference;
    table.rows.push_back(
        {Cell::of_text("B − A per edge"), Cell::of_text(fmt::format("{} pairs", dual.pairs)),
         Cell::of(none), Cell::of(d.p50), Cell::of(d.p90), Cell::of(d.p99), Cell::of(d.summary.max),
         Cell::of(d.summary.mean), Cell::of(d.summary.stddev), Cell::of(d.summary.peak_to_peak)});
    if (dual.pairs > 0) {
        table.footnotes.push_back(fmt::format(
            "B − A: median {}, σ {} between edges; B is the later path on {:.1f} % of paired "
            "edges.",
            format_ns(d.p50, true), format_ns(d.summary.stddev), 100.0 * dual.fraction_b_later));
    }
    table.footnotes.push_back(fmt::format(
        "Pairs: same edge, mutual nearest, less than P/2 = {} apart; a pulse one path missed "
        "stays unpaired. Compared on CLOCK_{}.",
        format_ns(static_cast<double>(dual.period_ns / 2)),
        dual.clock == core::ClockId::realtime ? "REALTIME" : "MONOTONIC"));
    for (const auto& [name, tb] :
         {std::pair{"A", dual.time_base_a}, std::pair{"B", dual.time_base_b}}) {
        if (tb) {
            table.footnotes.push_back(fmt::format(
                "{}: monotonic timestamps moved to CLOCK_REALTIME with {} offset samples (each "
                "± {} or better); the offset moved {} over the run, largest jump {}{}.",
                name, tb->samples, format_ns(static_cast<double>(tb->max_bracket_ns) / 2),
                format_ns(static_cast<double>(tb->drift_ns), true),
                format_ns(static_cast<double>(tb->largest_jump_ns), true),
                std::llabs(tb->largest_jump_ns) > 1'000'000 ? " (a clock step)" : ""));
        }
    }
    if (dual.simulated) {
        table.footnotes.push_back("SIMULATED: at least one path comes from ppsbench's sim models.");
    }
    return table;
}

}  // namespace ppsbench::render
