// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/latency_runs.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdlib>

#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/latency_loop.hpp"

namespace ppsbench::analysis {

namespace {

std::string source_or_path(const store::CaptureFile& file) {
    return file.run_meta.source.empty() ? file.path : file.run_meta.source;
}

std::string path_label(const store::CaptureFile& file) {
    const std::string label = file.label();
    const std::string source = source_or_path(file);
    return label.empty() ? source : fmt::format("{} ({})", label, source);
}

}  // namespace

bool is_latency_file(const store::CaptureFile& file) {
    return file.run_meta.latency.has_value();
}

latency::LatencySummary summarize_latency(const store::CaptureFile& file) {
    if (!is_latency_file(file)) {
        throw core::InputError(fmt::format(
            "{}: not a latency capture (no \"kind\":\"latency\" in its meta line); it comes "
            "from 'ppsbench latency -o FILE'",
            file.path));
    }
    const auto drive = file.extra_column(latency::record_columns[0]);
    const auto wake = file.extra_column(latency::record_columns[1]);
    if (!drive || !wake) {
        throw core::InputError(
            fmt::format("{}: the drive_ns and wake_ns columns are missing", file.path));
    }
    latency::LatencySummary run;
    run.file = file.path;
    run.label = file.label().empty() ? source_or_path(file) : file.label();
    run.sense = file.run_meta.source;
    run.drive = file.run_meta.latency->drive;
    run.clock = core::to_string(file.run_meta.clock);
    std::vector<double> to_kernel;
    std::vector<double> to_wake;
    to_kernel.reserve(file.pulses.size());
    to_wake.reserve(file.pulses.size());
    for (std::size_t i = 0; i < file.pulses.size(); ++i) {
        const latency::LatencyRecord record{file.pulses[i], file.extra(i, *drive),
                                            file.extra(i, *wake)};
        to_kernel.push_back(static_cast<double>(record.drive_to_kernel_ns()));
        to_wake.push_back(static_cast<double>(record.kernel_to_wake_ns()));
    }
    run.drive_to_kernel = latency::describe(std::move(to_kernel));
    run.kernel_to_wake = latency::describe(std::move(to_wake));
    if (const auto end = file.end(); end && end->latency) {
        run.edges_driven = end->latency->edges_driven;
        run.unseen_edges = end->latency->unseen_edges;
        run.stray_events = end->latency->stray_events;
        run.cpu_idle_fraction = end->latency->cpu_idle_fraction;
    }
    return run;
}

std::vector<latency::TimedPulse> on_time_base(const store::CaptureFile& file,
                                              core::ClockId target) {
    const core::ClockId clock = file.run_meta.clock;
    std::vector<latency::TimedPulse> series;
    series.reserve(file.pulses.size());
    if (clock == target) {
        for (std::size_t i = 0; i < file.pulses.size(); ++i) {
            series.push_back({file.pulses[i].timestamp_ns, file.pulses[i].edge, i});
        }
        return series;
    }
    const auto offset = file.extra_column(latency::offset_column);
    if (clock != core::ClockId::monotonic || !offset) {
        throw core::InputError(fmt::format(
            "{}: its {} timestamps cannot be put on CLOCK_{} (no {} column); capture both paths "
            "in one 'ppsbench run --source A --source B'",
            file.path, core::to_string(clock),
            target == core::ClockId::realtime ? "REALTIME" : "MONOTONIC", latency::offset_column));
    }
    for (std::size_t i = 0; i < file.pulses.size(); ++i) {
        // The offset was sampled microseconds after the event, when the pulse was read.
        series.push_back(
            {file.pulses[i].timestamp_ns + file.extra(i, *offset), file.pulses[i].edge, i});
    }
    return series;
}

std::optional<latency::TimeBaseStats> time_base_stats(const store::CaptureFile& file) {
    const auto offset = file.extra_column(latency::offset_column);
    if (!offset || file.pulses.empty()) {
        return std::nullopt;
    }
    const auto bracket = file.extra_column(latency::bracket_column);
    latency::TimeBaseStats s;
    s.samples = file.pulses.size();
    for (std::size_t i = 0; i < file.pulses.size(); ++i) {
        if (bracket) {
            s.max_bracket_ns = std::max(s.max_bracket_ns, file.extra(i, *bracket));
        }
        if (i > 0) {
            const std::int64_t jump = file.extra(i, *offset) - file.extra(i - 1, *offset);
            if (std::llabs(jump) > std::llabs(s.largest_jump_ns)) {
                s.largest_jump_ns = jump;
            }
        }
    }
    s.drift_ns = file.extra(file.pulses.size() - 1, *offset) - file.extra(0, *offset);
    return s;
}

latency::DualSummary summarize_dual(const store::CaptureFile& a, const store::CaptureFile& b,
                                    std::optional<std::int64_t> period_override_ns) {
    const core::ClockId clock = latency::common_clock(a.run_meta.clock, b.run_meta.clock);
    const std::int64_t period_ns = period_override_ns.value_or(a.run_meta.period.count());
    latency::DualSummary dual =
        latency::compare_paths(on_time_base(a, clock), on_time_base(b, clock), clock, period_ns);
    dual.label_a = path_label(a);
    dual.label_b = path_label(b);
    dual.simulated = a.simulated() || b.simulated();
    dual.time_base_a = time_base_stats(a);
    dual.time_base_b = time_base_stats(b);
    return dual;
}

}  // namespace ppsbench::analysis
