#include "ppsbench/latency/latency_summary.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <limits>

#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/latency_loop.hpp"
#include "ppsbench/report/units.hpp"

namespace ppsbench::latency {

bool is_latency_file(const store::CaptureFile& file) {
    return file.meta.value("kind", std::string{}) == "latency";
}

LatencySummary summarize_latency(const store::CaptureFile& file) {
    if (!is_latency_file(file)) {
        throw core::InputError(fmt::format(
            "{}: not a latency capture (no \"kind\":\"latency\" in its meta line); it comes "
            "from 'ppsbench latency -o FILE'",
            file.path));
    }
    const auto drive = file.extra_column(record_columns[0]);
    const auto wake = file.extra_column(record_columns[1]);
    if (!drive || !wake) {
        throw core::InputError(
            fmt::format("{}: the drive_ns and wake_ns columns are missing", file.path));
    }
    LatencySummary run;
    run.file = file.path;
    run.label = file.label().empty() ? file.meta.value("source", file.path) : file.label();
    run.sense = file.meta.value("source", std::string{});
    run.drive = file.meta.value("drive", std::string{});
    run.clock = file.meta.value("clock", std::string("realtime"));
    std::vector<double> to_kernel;
    std::vector<double> to_wake;
    to_kernel.reserve(file.pulses.size());
    to_wake.reserve(file.pulses.size());
    for (std::size_t i = 0; i < file.pulses.size(); ++i) {
        const LatencyRecord record{file.pulses[i], file.extra(i, *drive), file.extra(i, *wake)};
        to_kernel.push_back(static_cast<double>(record.drive_to_kernel_ns()));
        to_wake.push_back(static_cast<double>(record.kernel_to_wake_ns()));
    }
    run.drive_to_kernel = describe(std::move(to_kernel));
    run.kernel_to_wake = describe(std::move(to_wake));
    if (const auto* end = file.end_record()) {
        run.edges_driven = end->value("edges_driven", std::uint64_t{0});
        run.unseen_edges = end->value("unseen_edges", std::uint64_t{0});
        run.stray_events = end->value("stray_events", std::uint64_t{0});
        if (end->contains("cpu_idle_fraction") && end->at("cpu_idle_fraction").is_number()) {
            run.cpu_idle_fraction = end->at("cpu_idle_fraction").get<double>();
        }
    }
    return run;
}

report::Table latency_table(const std::vector<LatencySummary>& runs) {
    using report::Cell;
    using report::Quantity;
    report::Table table;
    table.columns = {{"run", "run", Quantity::text},
                     {"edges", "edges", Quantity::count},
                     {"unseen", "unseen_edges", Quantity::count}};
    for (const char* path : {"drive→ts", "ts→wake"}) {
        const std::string key = std::string(path) == "drive→ts" ? "drive_to_ts" : "ts_to_wake";
        for (const char* figure : {"p50", "p90", "p99", "max", "mean", "σ"}) {
            const std::string name = figure;
            table.columns.push_back(
                {name == "p50" ? std::string(path) + " p50" : name,
                 key + "_" + (name == "σ" ? std::string("stddev") : name) + "_ns",
                 Quantity::time_ns});
        }
    }
    table.columns.push_back({"CPU idle", "cpu_idle_percent", Quantity::percent});
    for (const auto& run : runs) {
        std::vector<Cell> row{Cell::of_text(run.label),
                              Cell::of(static_cast<double>(run.drive_to_kernel.summary.count)),
                              Cell::of(static_cast<double>(run.unseen_edges))};
        for (const Distribution* d : {&run.drive_to_kernel, &run.kernel_to_wake}) {
            for (const double v :
                 {d->p50, d->p90, d->p99, d->summary.max, d->summary.mean, d->summary.stddev}) {
                row.push_back(Cell::of(v));
            }
        }
        row.push_back(Cell::of(run.cpu_idle_fraction ? 100.0 * *run.cpu_idle_fraction
                                                     : std::numeric_limits<double>::quiet_NaN()));
        table.rows.push_back(std::move(row));
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

std::vector<std::string> histogram_lines(const Histogram& histogram, std::size_t bar_width) {
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
        histogram.start_ns + histogram.bin_width_ns * static_cast<double>(histogram.counts.size());
    if (histogram.underflow > 0) {
        lines.push_back(fmt::format("  {:>21} {:>8} {}",
                                    "< " + report::format_ns(histogram.start_ns),
                                    histogram.underflow, bar(histogram.underflow)));
    }
    for (std::size_t i = 0; i < histogram.counts.size(); ++i) {
        const double low = histogram.start_ns + histogram.bin_width_ns * static_cast<double>(i);
        lines.push_back(fmt::format("  {:>9} … {:>9} {:>8} {}", report::format_ns(low),
                                    report::format_ns(low + histogram.bin_width_ns),
                                    histogram.counts[i], bar(histogram.counts[i])));
    }
    if (histogram.overflow > 0) {
        lines.push_back(fmt::format("  {:>21} {:>8} {}", "≥ " + report::format_ns(end),
                                    histogram.overflow, bar(histogram.overflow)));
    }
    return lines;
}

}  // namespace ppsbench::latency
