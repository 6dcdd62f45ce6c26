// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <iostream>
#include <limits>

#include "command.hpp"
#include "options.hpp"
#include "ppsbench/core/option_value.hpp"
#include "ppsbench/render/renderer.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/session/demo.hpp"

namespace ppsbench::app {
namespace {

class DemoCommand final : public Command {
  public:
    std::string_view name() const override { return "demo"; }
    std::string_view summary() const override {
        return "simulate stock vs PREEMPT_RT vs RT+IRQF_NO_THREAD and print the table";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::string duration = "1h";
        std::string seed = "1";
        // clang-format off
        options.add_options()
            ("duration", po::value(&duration)->default_value(duration),
             "simulated length of each run (1 pulse per second)")
            ("seed", po::value(&seed)->default_value(seed),
             "the first simulation seed: the three configurations take N, N+1 and N+2, so the "
             "default gives the runs of examples/writeup (seeds 1, 2, 3)");
        // clang-format on
        po::variables_map vm;
        if (!parse_options("demo", "ppsbench demo [--duration D] [--seed N]",
                           "Simulates the three kernel configurations of the PREEMPT_RT PPS "
                           "write-up and prints their jitter table, then its figures beside the "
                           "write-up's published ones (measured on hardware), and the bias row "
                           "of a two-path run: PREEMPT_RT made 12 us late against "
                           "sim:reference. No hardware is "
                           "used: every figure of the demo is SIMULATED (docs/sim-models.md), "
                           "and chrony's RMS offset, which needs a real chronyd, is the "
                           "write-up's only.",
                           args, options, {}, vm)) {
            return 0;
        }
        capture::SourceOptions source;
        const auto configurations = session::demo_configurations();
        // The last configuration's seed, N + 2, must not wrap around.
        source.seed = core::parse_count(
            seed, "--seed", 0,
            std::numeric_limits<std::uint64_t>::max() - configurations.back().seed_offset);
        const auto length = core::parse_duration(duration, "--duration");
        std::vector<analysis::RunAnalysis> runs;
        for (const auto& configuration : configurations) {
            runs.push_back(analysis::analyze_capture(
                session::capture_in_memory(configuration, source, length), {}));
        }
        auto table = render::runs_table(runs, render::default_metrics(runs));
        table.title = fmt::format(
            "ppsbench demo: {} of simulated 1 Hz pulses per configuration (seeds {}, "
            "{}, {})",
            core::format_duration(length), source.seed, source.seed + 1, source.seed + 2);
        const auto text = render::make_renderer("text");
        text->render(table, std::cout);
        std::cout << "\n";
        text->render(session::published_beside_simulated(configurations, runs), std::cout);
        std::cout << "\n";
        const auto bias_run = session::demo_bias_run();
        text->render(session::simulated_bias_table(
                         bias_run, session::simulated_bias_run(bias_run, source, length)),
                     std::cout);
        std::cout << "\nOn real hardware: ppsbench run --source pps:/dev/pps0 --duration 1h "
                     "--label stock -o stock.csv\n";
        return 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_demo_command() {
    return std::make_unique<DemoCommand>();
}

}  // namespace ppsbench::app
