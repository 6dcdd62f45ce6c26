// SPDX-License-Identifier: GPL-2.0-or-later
#include "output_files.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <sstream>

#include "ppsbench/analysis/plot_data.hpp"
#include "ppsbench/analysis/stability_plot_data.hpp"
#include "ppsbench/core/atomic_file.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/prometheus_export.hpp"
#include "ppsbench/render/stability_plot.hpp"
#include "ppsbench/render/svg_plot.hpp"

namespace ppsbench::app {

namespace {

// Boost notifier for --plot and --plot-stability.
auto svg_name(const char* option) {
    return [option](const std::string& path) {
        if (!path.ends_with(".svg")) {
            throw core::UsageError(fmt::format(
                "{} {}: plots are written as SVG; name the file {}.svg (rsvg-convert or a "
                "browser turns it into PNG)",
                option, path, std::filesystem::path(path).replace_extension().string()));
        }
    };
}

}  // namespace

void add_output_file_options(po::options_description& options, OutputFiles& outputs) {
    // clang-format off
    options.add_options()
        ("plot", po::value(&outputs.plot)->notifier(svg_name("--plot")),
         "write an SVG plot (FILE.svg): offset histograms on a shared axis and the offset "
         "time series")
        ("plot-log-counts", po::bool_switch(&outputs.plot_log_counts),
         "--plot's histogram on a log axis, so tails of a few pulses show")
        ("plot-stability",
         po::value(&outputs.stability_plot)->notifier(svg_name("--plot-stability")),
         "write an SVG plot (FILE.svg) of ADEV, MDEV and TDEV against τ on log-log axes, one "
         "line per run, with the white PM, flicker PM and white FM slopes")
        ("prometheus", po::value(&outputs.prometheus),
         "write the figures in Prometheus text format (node_exporter textfile collector); "
         "replaced on every run when it is empty or ppsbench's own")
        ("force", po::bool_switch(&outputs.force),
         "overwrite existing --plot/--plot-stability/--html files (or a --prometheus file ppsbench "
         "did not write); never an input");
    // clang-format on
    add_html_option(options, outputs.html);
}

void add_html_option(po::options_description& options, std::string& path) {
    options.add_options()(
        "html", po::value(&path),
        "write one self-contained HTML page (FILE.html): the tables, the plots, each run's "
        "configuration and the definitions; no script, nothing fetched (docs/cli.md)");
}

void write_html_file(const std::string& path, render::HtmlPage page,
                     const std::vector<analysis::RunAnalysis>& runs, bool log_counts) {
    if (path.empty()) {
        return;
    }
    page.log_counts = log_counts;
    std::ostringstream html;
    render::write_html_page(page, runs, html);
    core::write_file_atomically(path, html.str(), "--html");
}

std::vector<OptionUse> output_file_uses(const OutputFiles& outputs) {
    const bool any_file = !outputs.plot.empty() || !outputs.stability_plot.empty() ||
                          !outputs.prometheus.empty() || !outputs.html.empty();
    return {{"force", any_file,
             "there is no --plot, --plot-stability, --prometheus or --html file to overwrite; "
             "drop it"},
            {"plot-log-counts", !outputs.plot.empty() || !outputs.html.empty(),
             "it sets the histogram axis of --plot and --html, and there is neither; drop it, or "
             "add --plot FILE.svg"}};
}

void plan_output_files(const OutputFiles& outputs, core::FilePlan& plan) {
    // The .svg names were checked by svg_name() while the options were parsed.
    if (!outputs.plot.empty()) {
        plan.write("--plot", outputs.plot, core::OutputKind::record);
    }
    if (!outputs.stability_plot.empty()) {
        plan.write("--plot-stability", outputs.stability_plot, core::OutputKind::record);
    }
    if (!outputs.prometheus.empty()) {
        plan.write("--prometheus", outputs.prometheus, core::OutputKind::prometheus_state);
    }
    if (!outputs.html.empty()) {
        plan.write("--html", outputs.html, core::OutputKind::record);
    }
}

void write_output_files(const OutputFiles& outputs, const std::vector<analysis::RunAnalysis>& runs,
                        std::optional<double> bin_width_ns) {
    if (!outputs.plot.empty()) {
        std::ostringstream svg;
        auto plot = analysis::make_plot(runs, bin_width_ns);
        plot.log_counts = outputs.plot_log_counts;
        render::write_svg_plot(plot, svg);
        core::write_file_atomically(outputs.plot, svg.str(), "--plot");
    }
    if (!outputs.stability_plot.empty()) {
        const auto plot = analysis::make_stability_plot(runs);
        const bool any = std::any_of(plot.runs.begin(), plot.runs.end(),
                                     [](const auto& curve) { return !curve.tau_s.empty(); });
        if (!any) {
            throw core::InputError(fmt::format(
                "--plot-stability {}: no run is long enough for a stability figure (it needs "
                "at least 3 pulses); capture longer",
                outputs.stability_plot));
        }
        std::ostringstream svg;
        render::write_stability_svg(plot, svg);
        core::write_file_atomically(outputs.stability_plot, svg.str(), "--plot-stability");
    }
    if (!outputs.prometheus.empty()) {
        std::ostringstream text;
        render::write_prometheus(render::prometheus_families(runs), text);
        core::write_file_atomically(outputs.prometheus, text.str(), "--prometheus");
    }
}

}  // namespace ppsbench::app
