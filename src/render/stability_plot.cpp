// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/stability_plot.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include "xml.hpp"

namespace ppsbench::render {

namespace {

constexpr double stability_plot_width = 1020;
constexpr double legend_top = 470;
constexpr double panel_top = 70;
constexpr double panel_bottom = 370;
constexpr double panel_width = 250;
constexpr double panel_step = 335;
constexpr double first_panel_left = 80;

// A noise type's slope on one statistic's log-log plot (Riley, NIST SP 1065, table 5).
struct Slope {
    const char* noise;
    const char* exponent;  // as printed
    double value;
};

struct Panel {
    const char* statistic;
    const char* axis_label;
    bool in_seconds;  // TDEV: tick labels in ns/µs/ms
    std::vector<double> analysis::StabilityCurve::*values;
    std::vector<Slope> slopes;
};

std::vector<Panel> panels() {
    return {
        // ADEV cannot tell white from flicker PM: both fall as τ^−1.
        {"ADEV",
         "Allan deviation σy(τ)",
         false,
         &analysis::StabilityCurve::adev,
         {{"white/flicker PM", "−1", -1.0}, {"white FM", "−1/2", -0.5}}},
        {"MDEV",
         "modified Allan deviation",
         false,
         &analysis::StabilityCurve::mdev,
         {{"white PM", "−3/2", -1.5}, {"flicker PM", "−1", -1.0}, {"white FM", "−1/2", -0.5}}},
        {"TDEV",
         "time deviation σx(τ)",
         true,
         &analysis::StabilityCurve::tdev_s,
         {{"white PM", "−1/2", -0.5}, {"flicker PM", "0", 0.0}, {"white FM", "+1/2", 0.5}}},
    };
}

struct LogAxis {
    double lo_decade;  // log10 of the lowest edge
    double hi_decade;
    double pixel_lo;
    double pixel_hi;
    double map(double v) const {
        return pixel_lo +
               (std::log10(v) - lo_decade) / (hi_decade - lo_decade) * (pixel_hi - pixel_lo);
    }
};

// Whole decades around [lo, hi], at least one.
LogAxis log_axis(double lo, double hi, double pixel_lo, double pixel_hi) {
    double a = std::floor(std::log10(lo) + 1e-9);
    double b = std::ceil(std::log10(hi) - 1e-9);
    if (b <= a) {
        b = a + 1;
    }
    return {a, b, pixel_lo, pixel_hi};
}

std::string superscript(int exponent) {
    static const std::array<const char*, 10> digits = {"⁰", "¹", "²", "³", "⁴",
                                                       "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string text = exponent < 0 ? "⁻" : "";
    const std::string magnitude = std::to_string(std::abs(exponent));
    for (char c : magnitude) {
        text += digits[static_cast<std::size_t>(c - '0')];
    }
    return text;
}

// 10⁻⁹ for a dimensionless decade; 1 ns, 10 ns, 100 ns, 1 µs for a time.
std::string decade_label(int exponent, bool in_seconds) {
    if (!in_seconds) {
        return "10" + superscript(exponent);
    }
    static const std::array<const char*, 5> units = {"ps", "ns", "µs", "ms", "s"};
    const int from_ps = exponent + 12;
    if (from_ps < 0 || from_ps >= 15) {
        return "10" + superscript(exponent) + " s";
    }
    const int step = from_ps / 3;
    const int power = from_ps % 3;
    return fmt::format("{} {}",
                       power == 0   ? 1
                       : power == 1 ? 10
                                    : 100,
                       units[static_cast<std::size_t>(step)]);
}

std::string tau_label(int exponent) {
    return exponent >= 0 ? fmt::format("{:.0f}", std::pow(10.0, exponent))
                         : fmt::format("{:g}", std::pow(10.0, exponent));
}

void frame(std::ostream& out, const LogAxis& x, const LogAxis& y, bool in_seconds) {
    // Faint grid at the decades, minor ticks at 2..9 of each decade.
    for (int d = static_cast<int>(x.lo_decade); d <= static_cast<int>(x.hi_decade); ++d) {
        const double px = x.map(std::pow(10.0, d));
        out << fmt::format(R"~(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#ddd"/>)~"
                           R"~(<text x="{0:.1f}" y="{3}" text-anchor="middle">{4}</text>)~"
                           "\n",
                           px, y.pixel_hi, y.pixel_lo, y.pixel_lo + 18, tau_label(d));
        for (int m = 2; m < 10 && d < static_cast<int>(x.hi_decade); ++m) {
            const double mx = x.map(m * std::pow(10.0, d));
            out << fmt::format(
                R"~(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#333"/>)~"
                "\n",
                mx, y.pixel_lo, y.pixel_lo - 3);
        }
    }
    for (int d = static_cast<int>(y.lo_decade); d <= static_cast<int>(y.hi_decade); ++d) {
        const double py = y.map(std::pow(10.0, d));
        out << fmt::format(R"~(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#ddd"/>)~"
                           R"~(<text x="{3}" y="{4:.1f}" text-anchor="end">{5}</text>)~"
                           "\n",
                           x.pixel_lo, py, x.pixel_hi, x.pixel_lo - 6, py + 4,
                           decade_label(d, in_seconds));
        for (int m = 2; m < 10 && d < static_cast<int>(y.hi_decade); ++m) {
            const double my = y.map(m * std::pow(10.0, d));
            out << fmt::format(
                R"~(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#333"/>)~"
                "\n",
                x.pixel_lo, my, x.pixel_lo + 3);
        }
    }
    out << fmt::format(R"~(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333"/>)~"
                       "\n",
                       x.pixel_lo, y.pixel_hi, x.pixel_hi - x.pixel_lo, y.pixel_lo - y.pixel_hi);
}

bool drawable(double tau, double value) {
    return std::isfinite(tau) && tau > 0 && std::isfinite(value) && value > 0;
}

struct LegendEntry {
    std::size_t run;  // runs.size() for the slopes' entry
    std::string text;
    double x;
    double y;
};

// Entries left to right, a new row when the next would not fit; the width of a label is
// estimated (7.5 px a character at 12 px DejaVu Sans), which is all an SVG writer can do.
std::vector<LegendEntry> legend_layout(const analysis::StabilityPlot& plot) {
    std::vector<LegendEntry> entries;
    double x = first_panel_left;
    double y = legend_top;
    for (std::size_t r = 0; r <= plot.runs.size(); ++r) {
        std::string text = r < plot.runs.size() ? plot.runs[r].label : "noise-type slopes";
        const double needed = 48 + 7.5 * static_cast<double>(text.size());
        if (x > first_panel_left && x + needed > stability_plot_width - 10) {
            x = first_panel_left;
            y += 20;
        }
        entries.push_back({r, std::move(text), x, y});
        x += needed;
    }
    return entries;
}

struct Range {
    double lo;
    double hi;
};

// One τ range for every panel, so the panels line up; 1–10 s when no run has a τ.
Range tau_range(const analysis::StabilityPlot& plot) {
    Range tau{INFINITY, 0};
    for (const auto& run : plot.runs) {
        for (double t : run.tau_s) {
            if (std::isfinite(t) && t > 0) {
                tau.lo = std::min(tau.lo, t);
                tau.hi = std::max(tau.hi, t);
            }
        }
    }
    if (!(tau.hi > 0)) {
        tau = {1, 10};
    }
    return tau;
}

struct PanelAxes {
    LogAxis x;
    LogAxis y;
};

// The p-th panel's place on the page, and its statistic's range over every run (one decade
// from 10⁻⁹ when nothing is drawable).
PanelAxes panel_axes(const analysis::StabilityPlot& plot, const Panel& panel, std::size_t p,
                     Range tau) {
    const double left = first_panel_left + panel_step * static_cast<double>(p);
    Range v{INFINITY, 0};
    for (const auto& run : plot.runs) {
        const auto& values = run.*panel.values;
        for (std::size_t i = 0; i < values.size() && i < run.tau_s.size(); ++i) {
            if (drawable(run.tau_s[i], values[i])) {
                v.lo = std::min(v.lo, values[i]);
                v.hi = std::max(v.hi, values[i]);
            }
        }
    }
    if (!(v.hi > 0)) {
        v = {1e-9, 1e-8};
    }
    return {log_axis(tau.lo, tau.hi, left, left + panel_width),
            log_axis(v.lo, v.hi, panel_bottom, panel_top)};
}

// The clip region the slopes are drawn in, the grid and frame, the panel's name and its axes'.
void write_panel_frame(const Panel& panel, const PanelAxes& axes, std::ostream& out) {
    const auto& [x, y] = axes;
    out << fmt::format(
               R"~(<clipPath id="clip-{0}"><rect x="{1}" y="{2}" width="{3}" height="{4}"/></clipPath>)~",
               panel.statistic, x.pixel_lo, y.pixel_hi, x.pixel_hi - x.pixel_lo,
               y.pixel_lo - y.pixel_hi)
        << "\n";
    frame(out, x, y, panel.in_seconds);
    out << fmt::format(R"~(<text x="{}" y="{}" text-anchor="middle" font-size="14">{}</text>)~",
                       (x.pixel_lo + x.pixel_hi) / 2, panel_top - 10, panel.statistic)
        << "\n"
        << fmt::format(R"~(<text x="{}" y="{}" text-anchor="middle">averaging time τ (s)</text>)~",
                       (x.pixel_lo + x.pixel_hi) / 2, panel_bottom + 38)
        << "\n"
        << fmt::format(
               R"~(<text x="{0}" y="{1:.1f}" text-anchor="middle" transform="rotate(-90 {0} {1:.1f})">{2}</text>)~",
               x.pixel_lo - 52, (panel_top + panel_bottom) / 2, panel.axis_label)
        << "\n";
}

struct Point {
    double tau;
    double value;
};

// The first run's first drawable point: where the reference slopes start.
std::optional<Point> slope_anchor(const analysis::StabilityPlot& plot, const Panel& panel) {
    for (const auto& run : plot.runs) {
        const auto& values = run.*panel.values;
        for (std::size_t i = 0; i < values.size() && i < run.tau_s.size(); ++i) {
            if (drawable(run.tau_s[i], values[i])) {
                return Point{run.tau_s[i], values[i]};
            }
        }
    }
    return std::nullopt;
}

// The noise types' slopes as dashed lines from the anchor to the right edge, clipped to the
// panel, each labelled where it leaves the panel.
void write_slopes(const Panel& panel, const PanelAxes& axes, Point anchor, std::ostream& out) {
    const auto& [x, y] = axes;
    const double tau0 = anchor.tau;
    const double v0 = anchor.value;
    const double tau1 = std::pow(10.0, x.hi_decade);
    out << fmt::format(
               R"~(<g clip-path="url(#clip-{})" stroke="#888" stroke-width="1" stroke-dasharray="5 4" fill="#666" font-size="10">)~",
               panel.statistic)
        << "\n";
    for (const auto& slope : panel.slopes) {
        const double v1 = v0 * std::pow(tau1 / tau0, slope.value);
        // The label sits where the line leaves the panel: its right edge or, for a
        // steep line, its bottom or top.
        double label_tau = tau1;
        double label_v = v1;
        const double v_floor = std::pow(10.0, y.lo_decade);
        const double v_ceiling = std::pow(10.0, y.hi_decade);
        if (v1 < v_floor || v1 > v_ceiling) {
            label_v = v1 < v_floor ? v_floor : v_ceiling;
            label_tau = tau0 * std::pow(label_v / v0, 1.0 / slope.value);
        }
        out << fmt::format(R"~(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)~",
                           x.map(tau0), y.map(v0), x.map(tau1), y.map(v1))
            << fmt::format(
                   R"~(<text x="{:.1f}" y="{:.1f}" text-anchor="end" stroke="white" stroke-width="3" stroke-dasharray="none" paint-order="stroke">{} {}</text>)~",
                   x.map(label_tau) - 3, y.map(label_v) + (label_v > v0 ? 12 : -4), slope.noise,
                   slope.exponent)
            << "\n";
    }
    out << "</g>\n";
}

// Each run's curve: a line through its drawable points, a dot on each.
void write_run_marks(const analysis::StabilityPlot& plot, const Panel& panel, const PanelAxes& axes,
                     std::ostream& out) {
    const auto& [x, y] = axes;
    for (std::size_t r = 0; r < plot.runs.size(); ++r) {
        const auto& run = plot.runs[r];
        const auto& values = run.*panel.values;
        const auto style = run_style(r);
        std::string points;
        std::string markers;
        for (std::size_t i = 0; i < values.size() && i < run.tau_s.size(); ++i) {
            if (!drawable(run.tau_s[i], values[i])) {
                continue;
            }
            const double px = x.map(run.tau_s[i]);
            const double py = y.map(values[i]);
            points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", px, py);
            markers += marker_svg(style, px, py);
        }
        out << fmt::format(
                   R"~(<g stroke="{0}" fill="{0}"><polyline points="{1}" fill="none" stroke-width="1.6"{3}/>{2}</g>)~",
                   style.colour, points, markers, dash_attribute(style))
            << "\n";
    }
}

void write_panel(const analysis::StabilityPlot& plot, const Panel& panel, const PanelAxes& axes,
                 std::ostream& out) {
    out << fmt::format(R"~(<g id="{}">)~", panel.statistic) << "\n";
    write_panel_frame(panel, axes, out);
    if (const auto anchor = slope_anchor(plot, panel)) {
        write_slopes(panel, axes, *anchor, out);
    }
    write_run_marks(plot, panel, axes, out);
    out << "</g>\n";
}

// Under the panels, in rows: one entry per run, then what the dashed lines are.
void write_stability_legend(const analysis::StabilityPlot& plot,
                            const std::vector<LegendEntry>& legend, std::ostream& out) {
    out << "<g id=\"legend\">\n";
    for (const auto& entry : legend) {
        if (entry.run < plot.runs.size()) {
            const auto style = run_style(entry.run);
            out << fmt::format(
                R"~(<g stroke="{3}" fill="{3}"><line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke-width="2"{4}/>{5}</g>)~",
                entry.x, entry.y - 4, entry.x + 22, style.colour, dash_attribute(style),
                marker_svg(style, entry.x + 11, entry.y - 4));
        } else {
            out << fmt::format(
                R"~(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#888" stroke-dasharray="5 4"/>)~",
                entry.x, entry.y - 4, entry.x + 22);
        }
        out << fmt::format(R"~(<text x="{}" y="{}">{}</text>)~", entry.x + 28, entry.y,
                           xml_escape(entry.text))
            << "\n";
    }
    out << "</g>\n";
}

}  // namespace

void write_stability_svg(const analysis::StabilityPlot& plot, std::ostream& out) {
    // The legend's rows decide the height, so it is laid out first.
    const auto legend = legend_layout(plot);
    write_svg_head(plot.title, plot.simulated, stability_plot_width, legend.back().y + 22, out);
    const Range tau = tau_range(plot);
    const auto all_panels = panels();
    for (std::size_t p = 0; p < all_panels.size(); ++p) {
        write_panel(plot, all_panels[p], panel_axes(plot, all_panels[p], p, tau), out);
    }
    write_stability_legend(plot, legend, out);
    out << "</svg>\n";
}

}  // namespace ppsbench::render
