#include "output_files.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "ppsbench/analysis/plot_data.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/prometheus_export.hpp"
#include "ppsbench/render/svg_plot.hpp"

namespace ppsbench::app {

namespace {

// Writes via a temporary file and rename, so a node_exporter scrape or a browser never sees a
// half-written file.
void write_file_atomically(const std::string& path, const std::string& text, const char* option) {
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
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

}  // namespace

void add_output_file_options(po::options_description& options, OutputFiles& outputs) {
    // clang-format off
    options.add_options()
        ("plot", po::value(&outputs.plot),
         "write an SVG plot: offset histograms on a shared axis and the offset time series")
        ("prometheus", po::value(&outputs.prometheus),
         "write the figures in Prometheus text format (node_exporter textfile collector)");
    // clang-format on
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
