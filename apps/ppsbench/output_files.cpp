#include "output_files.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "output_path.hpp"
#include "ppsbench/analysis/plot_data.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/prometheus_export.hpp"
#include "ppsbench/render/svg_plot.hpp"

namespace ppsbench::app {

void write_file_atomically(const std::string& path, const std::string& text, const char* option) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            out.close();
            std::remove(temporary.c_str());
            throw core::InputError(
                fmt::format("{} {}: cannot write the file; choose a writable "
                            "path",
                            option, path));
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        throw core::InputError(
            fmt::format("{} {}: cannot write the file ({}); choose a writable path", option, path,
                        core::errno_message(errno)));
    }
}

void add_output_file_options(po::options_description& options, OutputFiles& outputs) {
    // clang-format off
    options.add_options()
        ("plot", po::value(&outputs.plot),
         "write an SVG plot: offset histograms on a shared axis and the offset time series")
        ("prometheus", po::value(&outputs.prometheus),
         "write the figures in Prometheus text format (node_exporter textfile collector)")
        ("force", po::bool_switch(&outputs.force), "overwrite existing --plot/--prometheus files");
    // clang-format on
}

void check_output_files(const OutputFiles& outputs) {
    if (!outputs.plot.empty()) {
        if (!outputs.plot.ends_with(".svg")) {
            throw core::UsageError(fmt::format(
                "--plot {}: the plot is an SVG image; name the file .svg, e.g. --plot jitter.svg",
                outputs.plot));
        }
        check_output_path(outputs.plot, "--plot", outputs.force);
    }
    if (!outputs.prometheus.empty()) {
        check_output_path(outputs.prometheus, "--prometheus", outputs.force);
    }
}

void write_output_files(const OutputFiles& outputs,
                        const std::vector<analysis::RunAnalysis>& runs) {
    if (!outputs.plot.empty()) {
        std::ostringstream svg;
        render::write_svg_plot(analysis::make_plot(runs), svg);
        write_file_atomically(outputs.plot, svg.str(), "--plot");
    }
    if (!outputs.prometheus.empty()) {
        std::ostringstream text;
        render::write_prometheus(render::prometheus_families(runs), text);
        write_file_atomically(outputs.prometheus, text.str(), "--prometheus");
    }
}

}  // namespace ppsbench::app
