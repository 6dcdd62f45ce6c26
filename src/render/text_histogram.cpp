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

std::string ascii_histograms(const std::vector<analysis::RunAnalysis>& runs,
                             const analysis::SharedBins& shared, std::size_t width) {
    const auto* bins = &shared;
    if (std::none_of(bins->counts.begin(), bins->counts.end(),
                     [](const auto& counts) { return counts.has_value(); })) {
        return "";  // saved summaries: no pulses to count
    }
    const double bin = bins->bin_width_ns;
    const double lower = bins->lower_ns;
    const double upper = bins->upper_ns;
    const double edges[] = {lower, upper};
    const TimeUnit unit = [&] {
        TimeUnit u = choose_time_unit(edges);
        // The decimals the bin width has in this unit (2.5 µs: one), so every edge, a whole
        // multiple of it, prints exactly.
        const double step = bin / u.ns_per_unit;
        u.decimals = 0;
        while (u.decimals < 3 && std::fabs(step * std::pow(10.0, u.decimals) -
                                           std::round(step * std::pow(10.0, u.decimals))) > 1e-6) {
            ++u.decimals;
        }
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
    for (std::size_t r = 0; r < runs.size() && r < bins->counts.size(); ++r) {
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
