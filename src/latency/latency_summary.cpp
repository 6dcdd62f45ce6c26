#include "ppsbench/latency/latency_summary.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <limits>

#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/latency_loop.hpp"

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

}  // namespace ppsbench::latency
