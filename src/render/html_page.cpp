// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/html_page.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <sstream>

#include "column_layout.hpp"
#include "html_style.hpp"
#include "ppsbench/analysis/plot_data.hpp"
#include "ppsbench/analysis/stability_plot_data.hpp"
#include "ppsbench/render/run_configuration.hpp"
#include "ppsbench/render/stability_plot.hpp"
#include "ppsbench/render/svg_plot.hpp"
#include "ppsbench/version.hpp"
#include "svg_embed.hpp"
#include "xml.hpp"

namespace ppsbench::render {

namespace {

// The definitions every page carries, after the tables' own footnotes (docs/metrics.md and
// docs/methodology.md say the same at length).
constexpr const char* definitions[] = {
    "Phase offset: o = t − P·round(t / P), how far a timestamp is from the top of its period P.",
    "σ (raw PPS jitter): the sample standard deviation (n − 1) of the phase offsets; "
    "peak-to-peak: their maximum minus their minimum; RMS: the root mean square, mean included; "
    "p99: the 99th percentile of |offset|, linearly interpolated.",
    "σ vs baseline: the ratio of σ to the baseline's with its confidence interval (the wider of "
    "the F-interval and a block bootstrap); 'not noise' only when the interval excludes 1.",
    "ADEV, MDEV, TDEV: the overlapping Allan, modified Allan and time deviations of the phase at "
    "octave averaging times τ (NIST SP 1065).",
    "Bias: PPS timestamp minus a hardware reference's timestamp of the same edge "
    "(docs/latency.md)."};

// Every table's footnotes, numbered once across the page: a note two tables share is one note.
class Notes {
  public:
    std::size_t number(const std::string& note) {
        const auto it = std::find(notes_.begin(), notes_.end(), note);
        if (it != notes_.end()) {
            return static_cast<std::size_t>(it - notes_.begin()) + 1;
        }
        notes_.push_back(note);
        return notes_.size();
    }
    const std::vector<std::string>& all() const { return notes_; }

  private:
    std::vector<std::string> notes_;
};

void write_table(const Table& table, Notes& notes, std::ostream& out) {
    const auto cells = format_for_people(table);
    out << "<table>\n<caption>" << xml_escape(table.title.empty() ? "Results" : table.title);
    for (const auto& note : table.footnotes) {
        const auto n = notes.number(note);
        out << fmt::format(R"( <sup><a href="#note-{0}" aria-label="note {0}">{0}</a></sup>)", n);
    }
    out << "</caption>\n<thead><tr>";
    for (const auto& header : cells.headers) {
        out << "<th scope=\"col\">" << xml_escape(header) << "</th>";
    }
    out << "</tr></thead>\n<tbody>\n";
    for (const auto& row : cells.rows) {
        out << "<tr>";
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool number =
                c < table.columns.size() && table.columns[c].quantity != Quantity::text;
            if (c == 0) {
                out << "<th scope=\"row\">" << xml_escape(row[c]) << "</th>";
            } else {
                out << (number ? "<td class=\"number\">" : "<td>") << xml_escape(row[c]) << "</td>";
            }
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
}

void write_head(const HtmlPage& page, const std::vector<analysis::RunAnalysis>& runs,
                std::ostream& out) {
    std::string labels;
    for (const auto& run : runs) {
        labels += (labels.empty() ? "" : ", ") + run.label;
    }
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<meta name=\"color-scheme\" content=\"light dark\">\n"
        << "<meta name=\"generator\" content=\"ppsbench " << xml_escape(version_string) << "\">\n"
        << "<title>" << xml_escape(page.title + (labels.empty() ? "" : ": " + labels))
        << "</title>\n<style>" << page_style << "</style>\n</head>\n<body>\n<header>\n<h1>"
        << xml_escape(page.title) << "</h1>\n<p class=\"muted\">" << xml_escape(labels) << "</p>\n";
    if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.simulated; })) {
        out << "<p class=\"simulated\">SIMULATED: runs marked (simulated) come from ppsbench's "
               "sim models, not from hardware.</p>\n";
    }
    out << "</header>\n<main>\n";
}

void write_verdict(const HtmlPage& page, std::ostream& out) {
    if (page.not_judged) {
        out << "<section id=\"verdict\">\n<h2>Verdict</h2>\n"
            << R"(<p class="verdict fail">NOT JUDGED — the gate could not judge the run</p>)"
            << "\n<p>" << xml_escape(*page.not_judged) << "</p>\n</section>\n";
        return;
    }
    if (!page.gate_failed) {
        return;
    }
    const bool failed = *page.gate_failed;
    const auto failures = std::count_if(page.checks.begin(), page.checks.end(),
                                        [](const auto& c) { return c.failed; });
    out << "<section id=\"verdict\">\n<h2>Verdict</h2>\n"
        << fmt::format(R"(<p class="verdict {}">{} — {} of {} checks failed</p>)",
                       failed ? "fail" : "pass", failed ? "REGRESSION" : "PASS", failures,
                       page.checks.size())
        << "\n<ul>\n";
    for (const auto& check : page.checks) {
        out << fmt::format(R"(<li><strong class="{}">{}</strong> {}: {}</li>)",
                           check.failed ? "fail" : "pass", check.failed ? "FAIL" : "pass",
                           xml_escape(check.name), xml_escape(check.message))
            << "\n";
    }
    out << "</ul>\n</section>\n";
}

void write_figure(const std::string& svg, const char* id, const std::string& title,
                  const char* caption, std::ostream& out) {
    out << "<figure id=\"" << id << "\">\n"
        << svg_for_page(svg, id, title) << "<figcaption>" << xml_escape(caption)
        << "</figcaption>\n</figure>\n";
}

// The offset plot needs the runs' series, σ(τ) their stability grid; a page of saved summaries
// has neither and says so rather than drawing empty axes.
void write_plots(const HtmlPage& page, const std::vector<analysis::RunAnalysis>& runs,
                 std::ostream& out) {
    out << "<section id=\"plots\">\n<h2>Plots</h2>\n";
    const bool series = std::any_of(runs.begin(), runs.end(),
                                    [](const auto& r) { return r.stats.series.has_value(); });
    if (series) {
        auto plot = analysis::make_plot(runs, page.bin_width_ns);
        plot.log_counts = page.log_counts;
        std::ostringstream svg;
        write_svg_plot(plot, svg);
        write_figure(svg.str(), "offset-plot", plot.title,
                     "Offset histograms of every run on shared bins (▲ p50, dashed ±|offset| "
                     "p99), and each run's offset against time.",
                     out);
    }
    const auto stability = analysis::make_stability_plot(runs);
    const bool taus = std::any_of(stability.runs.begin(), stability.runs.end(),
                                  [](const auto& curve) { return !curve.tau_s.empty(); });
    if (taus) {
        std::ostringstream svg;
        write_stability_svg(stability, svg);
        write_figure(svg.str(), "stability-plot", stability.title,
                     "σ(τ): ADEV, MDEV and TDEV against the averaging time τ, with the slopes of "
                     "white PM, flicker PM and white FM noise.",
                     out);
    }
    if (!series && !taus) {
        out << "<p>No plot: these runs are saved summaries without their pulses.</p>\n";
    }
    out << "</section>\n";
}

void write_findings(const std::vector<analysis::RunAnalysis>& runs, std::ostream& out) {
    const auto findings = recorded_findings(runs);
    if (findings.empty()) {
        return;
    }
    out << "<section id=\"findings\">\n<h2>What the recorded fingerprint shows</h2>\n"
        << "<p class=\"muted\">Facts ppsbench doctor's reader recorded when each run started; run "
           "<code>ppsbench doctor</code> on the host for its verdicts and fixes "
           "(docs/doctor.md).</p>\n";
    for (const auto& [label, lines] : findings) {
        out << "<h3>" << xml_escape(label) << "</h3>\n<ul>\n";
        for (const auto& line : lines) {
            out << "<li>" << xml_escape(line) << "</li>\n";
        }
        out << "</ul>\n";
    }
    out << "</section>\n";
}

void write_notes(const Notes& notes, std::ostream& out) {
    out << "<section id=\"definitions\" class=\"notes\">\n<h2>Notes and definitions</h2>\n<ol>\n";
    for (std::size_t i = 0; i < notes.all().size(); ++i) {
        out << fmt::format(R"(<li id="note-{}">{}</li>)", i + 1, xml_escape(notes.all()[i]))
            << "\n";
    }
    out << "</ol>\n</section>\n";
}

}  // namespace

void write_html_page(const HtmlPage& page, const std::vector<analysis::RunAnalysis>& runs,
                     std::ostream& out) {
    Notes notes;
    write_head(page, runs, out);
    write_verdict(page, out);
    // A gate that could not judge has no figures to show: only its reason.
    if (!page.not_judged) {
        out << "<section id=\"results\">\n<h2>Results</h2>\n";
        for (const auto& table : page.tables) {
            write_table(table, notes, out);
        }
        out << "</section>\n";
        write_plots(page, runs, out);
        out << "<section id=\"configuration\">\n<h2>What each run measured</h2>\n";
        write_table(run_configuration_table(runs), notes, out);
        out << "</section>\n";
        write_findings(runs, out);
    }
    for (const char* definition : definitions) {
        notes.number(definition);
    }
    write_notes(notes, out);
    out << "</main>\n<footer class=\"muted\"><p>Written by ppsbench " << xml_escape(version_string)
        << ". This page is self-contained: no script, nothing fetched.</p></footer>\n"
        << "</body>\n</html>\n";
}

}  // namespace ppsbench::render
