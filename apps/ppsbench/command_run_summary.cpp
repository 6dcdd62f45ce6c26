// SPDX-License-Identifier: GPL-2.0-or-later
#include "command_run_summary.hpp"

#include <fmt/format.h>
#include <iostream>

#include "analysis_options.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/latency_tables.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/session/dual_run.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::app {

// One path: the run's row per edge captured ("--edge both --count 100" wrote 100 edges, 50 of
// each), chrony's view, where the pulses went, and exit 1 when the source failed mid-run.
int print_run_summary(const session::RunOutcome& outcome) {
    const auto file = store::read_capture_file(outcome.output_path);
    const auto runs = analysis::analyze_edges(file, {});
    const auto renderer = render::make_renderer("text");
    print_warnings(runs);
    renderer->render(render::runs_table(runs, render::default_metrics(runs)), std::cout);
    if (const auto chrony = render::chrony_table(runs)) {
        std::cout << "\n";
        renderer->render(*chrony, std::cout);
    }
    if (outcome.files.size() > 1) {
        // The table above is the last file's; each file is a complete capture of its own.
        std::cout << fmt::format("{} pulses ({}) written to {} files, {} … {}\n",
                                 outcome.progress.pulses,
                                 capture::to_string(outcome.progress.stop_reason),
                                 outcome.files.size(), outcome.files.front(), outcome.files.back());
    } else {
        std::cout << fmt::format("{} pulses ({}) written to {}\n", outcome.progress.pulses,
                                 capture::to_string(outcome.progress.stop_reason),
                                 outcome.output_path);
    }
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
        if (path.files.size() > 1) {
            std::cout << fmt::format("{} pulses ({}) written to {} files, {} … {}\n",
                                     path.progress.pulses,
                                     capture::to_string(path.progress.stop_reason),
                                     path.files.size(), path.files.front(), path.files.back());
        } else {
            std::cout << fmt::format("{} pulses ({}) written to {}\n", path.progress.pulses,
                                     capture::to_string(path.progress.stop_reason),
                                     path.output_path);
        }
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
