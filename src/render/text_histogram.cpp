// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/analysis/shared_bins.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench::render {

namespace {

std::string row_label(const analysis::RunAnalysis& run) {
    return run.simulated ? run.label + " (simulated)" : run.label;
}

}  // namespace

std::string ascii_histograms(const std::vector<analysis::RunAnalysis>& runs, std::size_t width) {
    const auto bins = analysis::shared_bins(runs);
    if (!bins) {
        return "";
    }
    const double bin = bins->bin_width_ns;
    const double lower = bins->lower_ns;
    const double upper = bins->upper_ns;
    const double edges[] = {lower, upper};
    const TimeUnit unit = [&] {
        TimeUnit u = choose_time_unit(edges);
        // Enough decimals to tell the edges apart at this bin width.
        const double step = bin / u.ns_per_unit;
        u.decimals = step >= 1 ? 0 : (step >= 0.1 ? 1 : 2);
        return u;
    }();
    const auto edge_text = [&](double ns) {
        const double v = ns / unit.ns_per_unit;
        return std::round(std::fabs(v) * std::pow(10.0, unit.decimals)) == 0
                   ? fmt::format("{:.{}f}", 0.0, unit.decimals)
                   : fmt::format("{:+.{}f}", v, unit.decimals);
    };
    const std::size_t edge_width = std::max(edge_text(lower).size(), edge_text(upper).size());
    const std::size_t label_width = 2 * edge_width + 4;
    std::string text = fmt::format(
        "Offset histograms: bins [from, to) in {}, {} wide, the same bins for every run\n",
        unit.suffix, format_in_unit(bin, unit));
    for (std::size_t r = 0; r < runs.size(); ++r) {
        if (!bins->counts[r]) {
            continue;
        }
        const auto& run = runs[r];
        const auto& counts = *bins->counts[r];
        const auto* series = run.stats.headline_series();
        const std::uint64_t peak = *std::max_element(counts.begin(), counts.end());
        text += fmt::format("\n{}: {} pulses\n", row_label(run), series->size());
        text +=
            fmt::format("  {:<{}} │ pulses\n", fmt::format("bin ({})", unit.suffix), label_width);
        for (std::size_t i = 0; i < counts.size(); ++i) {
            const double from = lower + bin * static_cast<double>(i);
            const auto bar = peak == 0 ? 0 : (counts[i] * width + peak - 1) / peak;
            text += fmt::format("  [{:>{}}, {:>{}}) │{:<{}} {}\n", edge_text(from), edge_width,
                                edge_text(from + bin), edge_width, std::string(bar, '#'), width,
                                counts[i]);
        }
    }
    return text;
}

}  // namespace ppsbench::render
