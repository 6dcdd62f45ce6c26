// SPDX-License-Identifier: GPL-2.0-or-later
// Reading the files `calibrate` is given: each path's lateness against its reference.
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "ppsbench/analysis/calibration.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {

namespace {

[[noreturn]] void no_reference(const store::CaptureFile& file) {
    if (file.run_meta.dual) {
        // A two-source run without a reference, or the reference's own file.
        throw core::InputError(fmt::format(
            "{}: its path ({}) was not measured against a reference{}; calibrate the PPS path's "
            "file of a run with a reference ('ppsbench run --source pps:/dev/pps0 --source "
            "poll:gpiochip0:18', or ptp:/dev/ptp0)",
            file.path, file.run_meta.source,
            fmt::format(" (its peer {} is {})", file.run_meta.dual->peer_file,
                        file.run_meta.dual->peer_source)));
    }
    throw core::InputError(fmt::format(
        "{}: a one-path capture has no reference to measure its lateness against; capture "
        "the PPS path with a reference: 'ppsbench run --source pps:/dev/pps0 --source "
        "poll:gpiochip0:18' (or ptp:/dev/ptp0), then calibrate the PPS path's file",
        file.path));
}

void append(Lateness& all, Lateness&& part) {
    all.edge_ns.insert(all.edge_ns.end(), part.edge_ns.begin(), part.edge_ns.end());
    all.late_ns.insert(all.late_ns.end(), part.late_ns.begin(), part.late_ns.end());
    all.unpaired += part.unpaired;
    all.reference_uncertainty_ns =
        std::max(all.reference_uncertainty_ns, part.reference_uncertainty_ns);
}

// What `calibrate` knows of each input once read, to refuse counting edges twice.
struct InputSeen {
    std::string path;
    std::string source;
    std::optional<std::string> host;
    std::int64_t first_edge_ns = 0;
    std::int64_t last_edge_ns = 0;
    bool has_edges = false;
};

// The same file under another name (./a.csv, an absolute path, a symlink, a hard link) would
// count its edges again and shrink the interval as if they were new.
void refuse_same_file(const std::vector<InputSeen>& seen, const std::string& path) {
    for (const auto& earlier : seen) {
        std::error_code error;
        if (std::filesystem::equivalent(earlier.path, path, error)) {
            throw core::InputError(fmt::format(
                "{}: the same file as {}, given twice; each file's edges count once: give it "
                "once",
                path, earlier.path));
        }
    }
}

// Several files are one path's parts or sessions: one source on one host, edges in disjoint
// spans (a copy of a part, or two runs' parts that claim the same time, would pair edges twice).
void refuse_other_path_or_overlap(const std::vector<InputSeen>& seen, const InputSeen& input) {
    for (const auto& earlier : seen) {
        if (earlier.source != input.source || earlier.host != input.host) {
            throw core::InputError(fmt::format(
                "{}: path {} on {}, but {} is path {} on {}: one path's lateness is one "
                "constant; calibrate each path's files separately",
                input.path, input.source, input.host.value_or("an unnamed host"), earlier.path,
                earlier.source, earlier.host.value_or("an unnamed host")));
        }
        if (earlier.has_edges && input.has_edges && input.first_edge_ns <= earlier.last_edge_ns &&
            earlier.first_edge_ns <= input.last_edge_ns) {
            throw core::InputError(fmt::format(
                "{}: its edges ({} … {}) overlap those of {} ({} … {}): the same pulses would "
                "count twice; give each part of the run once",
                input.path, core::format_utc(input.first_edge_ns, core::UtcPrecision::seconds),
                core::format_utc(input.last_edge_ns, core::UtcPrecision::seconds), earlier.path,
                core::format_utc(earlier.first_edge_ns, core::UtcPrecision::seconds),
                core::format_utc(earlier.last_edge_ns, core::UtcPrecision::seconds)));
        }
    }
}

// No paired edge has three causes, each with its own fix; "capture more" fits none of them.
void refuse_nothing_paired(const store::CaptureFile& file, const Lateness& lateness,
                           core::Edge edge) {
    if (!lateness.late_ns.empty() || file.pulses.empty()) {
        return;
    }
    const bool has_edge = std::any_of(file.pulses.begin(), file.pulses.end(),
                                      [&](const core::Pulse& p) { return p.edge == edge; });
    if (!has_edge) {
        throw core::InputError(fmt::format(
            "{}: no {} edges to calibrate (its run captured {}); give the edge chrony's refclock "
            "takes with --edge, as its line has ':clear' or not",
            file.path, core::to_string(edge), core::to_string(file.run_meta.edges)));
    }
    // Polled pairs and not one unpolled period between them: the pattern left none. A short
    // file, or a rotated part whose only pair is polled, has too few to say so; a part with
    // nothing paired is then counted as nothing, as chrony would have seen nothing there.
    constexpr std::size_t polled_pairs_to_judge = 8;
    if (file.run_meta.rotation) {
        return;
    }
    if (lateness.interpolated && lateness.polled_late_ns.size() >= polled_pairs_to_judge) {
        throw core::InputError(fmt::format(
            "{}: its reference {} polled every period, so no period went unpolled: every edge's "
            "timestamp was taken beside a spinning poller, which is not the lateness chrony "
            "sees; capture again with a poll pattern that leaves periods unpolled (the default)",
            file.path, lateness.reference));
    }
}

}  // namespace

CalibrationRun load_calibration_run(const std::vector<std::string>& paths, core::Edge edge) {
    CalibrationRun run;
    std::vector<InputSeen> seen;
    // Each file's lateness, kept until all are read: the drift test splits the polls into
    // quarters of time, so they are joined in the order of their first edges, not of the
    // command line (`calibrate day2.csv day1.csv`, or a glob that puts run-10 before run-9).
    struct Part {
        std::int64_t first_edge_ns;
        bool has_edges;
        std::string path;
        Lateness lateness;
    };
    std::vector<Part> parts;
    for (const auto& path : paths) {
        refuse_same_file(seen, path);
        const store::CaptureFile file = store::read_capture_file(path);
        auto lateness = reference_lateness(file, edge);
        if (!lateness) {
            no_reference(file);
        }
        InputSeen input{path, file.run_meta.source, file.run_meta.host};
        if (!lateness->edge_ns.empty()) {
            const auto [first, last] =
                std::minmax_element(lateness->edge_ns.begin(), lateness->edge_ns.end());
            input.first_edge_ns = *first;
            input.last_edge_ns = *last;
            input.has_edges = true;
        }
        refuse_other_path_or_overlap(seen, input);
        refuse_nothing_paired(file, *lateness, edge);
        if (parts.empty()) {
            run.label = run_label(file.run_meta, file.path);
            run.lateness.reference = lateness->reference;
            const std::string_view source = file.run_meta.source;
            if (source.starts_with("pps:")) {
                run.pps_device = std::string(source.substr(4));
            }
        } else if (lateness->reference != run.lateness.reference) {
            throw core::InputError(fmt::format(
                "{}: measured against {}, but {} against {}: calibrate one reference's runs "
                "at a time",
                path, lateness->reference, parts.front().path, run.lateness.reference));
        }
        run.simulated = run.simulated || file.simulated();
        if (file.run_meta.capture_process && file.run_meta.capture_process->cpu_dma_latency_us) {
            run.cpu_dma_latency_us = std::max(run.cpu_dma_latency_us.value_or(0),
                                              *file.run_meta.capture_process->cpu_dma_latency_us);
        }
        parts.push_back({input.first_edge_ns, input.has_edges, path, std::move(*lateness)});
        seen.push_back(std::move(input));
    }
    // Spans are disjoint (refused above otherwise), so the first edges order them.
    std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
        return std::make_pair(!a.has_edges, a.first_edge_ns) <
               std::make_pair(!b.has_edges, b.first_edge_ns);
    });
    for (auto& part : parts) {
        append(run.lateness, std::move(part.lateness));
        run.inputs.push_back(std::move(part.path));
    }
    return run;
}

}  // namespace ppsbench::analysis
