// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ppsbench/analysis/gate.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/render/table.hpp"

namespace ppsbench::render {

// One check of a gate as the page shows it: the words of the text verdict (gate_text.hpp).
struct PageCheck {
    std::string name;
    std::string message;
    bool failed = false;
};

// What a command puts on its page; the runs' plots, configuration and the definitions come
// from the runs themselves.
struct HtmlPage {
    std::string title;          // "ppsbench compare"
    std::vector<Table> tables;  // as the command's text output shows them
    // gate only: the verdict and its checks.
    std::optional<bool> gate_failed;
    std::vector<PageCheck> checks;
    // gate only: why it could not judge (exit 2); the verdict then says NOT JUDGED and this, so
    // a page of an earlier pass never stays in place of a refusal.
    std::optional<std::string> not_judged;
    bool log_counts = false;  // --plot-log-counts: the histogram on a log axis
    // --bin-width: the histogram's bins; the default round bins without (analysis::shared_bins).
    std::optional<double> bin_width_ns;

    static HtmlPage of(std::string title, std::vector<Table> tables) {
        HtmlPage page;
        page.title = std::move(title);
        page.tables = std::move(tables);
        return page;
    }
};

// One self-contained HTML5 page (docs/cli.md, "The HTML page"): inline CSS and SVG, no script,
// nothing fetched; light and dark (prefers-color-scheme) and print (@media print). Sections:
// the verdict (gate), the tables, the offset plot (histograms and time series) and σ(τ) when
// the runs have the series and taus, each run's configuration, the fingerprint's findings,
// and the tables' footnotes and the definitions as numbered notes. Every label is escaped.
void write_html_page(const HtmlPage& page, const std::vector<analysis::RunAnalysis>& runs,
                     std::ostream& out);

// gate's page: the runs table of `runs` (the baseline first, when there is one, then the
// current run) and the checks.
HtmlPage gate_page(const analysis::GateResult& result,
                   const std::vector<analysis::RunAnalysis>& runs);

}  // namespace ppsbench::render
