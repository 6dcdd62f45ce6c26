// SPDX-License-Identifier: GPL-2.0-or-later
#include "command_run_summary.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "analysis_options.hpp"
#include "options.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/latency_tables.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/session/dual_run.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/joined_capture.hpp"

namespace ppsbench::app {

namespace {

// "300 pulses (count) written to x.csv"; a rotated run names its first and last file.
std::string written_line(const session::RunOutcome& outcome) {
    const auto pulses = counted(outcome.progress.pulses, "pulse", "pulses");
    const auto why = capture::to_string(outcome.progress.stop_reason);
    if (outcome.files.size() > 1) {
        return fmt::format("{} ({}) written to {} files, {} … {}\n", pulses, why,
                           outcome.files.size(), outcome.files.front(), outcome.files.back());
    }
    return fmt::format("{} ({}) written to {}\n", pulses, why, outcome.output_path);
}

// A rotated run's figures are the whole run's, its parts joined as `report --join` reads them,
// up to a month of 1 Hz pulses (about 40 MB): a monitor stopped after a year must not load the
// year to say goodbye. Beyond that, or when the parts cannot be joined (a clock stepped back
// over a seam), the last file's, saying so.
constexpr std::uint64_t max_joined_summary_pulses = 31ULL * 86'400;

std::vector<analysis::RunAnalysis> closing_runs(const session::RunOutcome& outcome) {
    if (outcome.files.size() < 2) {
        return analysis::load_runs(outcome.output_path, {});
    }
    std::string why;
    if (outcome.progress.pulses <= max_joined_summary_pulses) {
        try {
            return analysis::analyze_edges(store::read_joined_capture(outcome.files), {});
        } catch (const core::InputError& e) {
            why = e.what();
        }
    } else {
        why =
            fmt::format("{} pulses are more than the closing table joins", outcome.progress.pulses);
    }
    std::cerr << "ppsbench: the table is the last file's (" << why << "); 'ppsbench report --join' "
              << "reads the whole run\n";
    return analysis::load_runs(outcome.output_path, {});
}

}  // namespace

// One path: the run's row per edge captured ("--edge both --count 100" wrote 100 edges, 50 of
// each), chrony's view, where the pulses went, and exit 1 when the source failed mid-run.
int print_run_summary(const session::RunOutcome& outcome) {
    // As `report` reads it: the packed pulses (12 B a pulse) unless the file needs the Pulse
    // array (both edges), not the array and its packed copy (36 B).
    const auto runs = closing_runs(outcome);
    const auto renderer = render::make_renderer("text");
    print_warnings(runs);
    renderer->render(render::runs_table(runs, render::default_metrics(runs)), std::cout);
    if (const auto chrony = render::chrony_table(runs)) {
        std::cout << "\n";
        renderer->render(*chrony, std::cout);
    }
    std::cout << written_line(outcome);
    for (const auto& notice : outcome.chrony_notices) {
        std::cerr << "ppsbench: " << notice << "\n";
    }
    if (!outcome.failure.empty()) {
        std::cerr << "ppsbench: " << outcome.failure << "\n";
        return static_cast<int>(core::ExitCode::failed);
    }
    return 0;
}

// Two paths: capture both, then print each path's row (of its last file with --rotate) and the
// per-edge pairing.
int run_dual(const session::RunOptions& run, const SourceArguments& source) {
    const auto outcome = session::execute_dual_run(run, {source.specs[0], source.specs[1]},
                                                   session::dual_output_paths(run.output_path));
    const auto a = store::read_capture_file(outcome.paths[0].output_path);
    const auto b = store::read_capture_file(outcome.paths[1].output_path);
    const std::vector<analysis::RunAnalysis> runs{analysis::analyze_capture(a, {}),
                                                  analysis::analyze_capture(b, {})};
    const auto renderer = render::make_renderer("text");
    print_warnings(runs);
    renderer->render(render::runs_table(runs, render::default_metrics(runs)), std::cout);
    std::cout << "\n";
    renderer->render(render::dual_table(analysis::summarize_dual(a, b)), std::cout);
    int status = 0;
    for (const auto& path : outcome.paths) {
        std::cout << written_line(path);
    }
    for (const auto& notice : outcome.chrony_notices) {
        std::cerr << "ppsbench: " << notice << "\n";
    }
    for (const auto& path : outcome.paths) {
        if (!path.failure.empty()) {
            std::cerr << "ppsbench: " << path.failure << "\n";
            status = static_cast<int>(core::ExitCode::failed);
        }
    }
    return status;
}

}  // namespace ppsbench::app
