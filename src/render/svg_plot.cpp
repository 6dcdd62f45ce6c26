// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <utility>

#include "ppsbench/core/round_number.hpp"
#include "ppsbench/render/svg_plot.hpp"
#include "ppsbench/render/units.hpp"
#include "xml.hpp"

namespace ppsbench::render {

namespace {

constexpr double offset_plot_width = 960;
constexpr double panel_left = 90;
constexpr double panel_right = 940;
constexpr double strips_top = 410;
constexpr double strip_gap = 8;
constexpr double legend_row = 18;

// Where the parts go for n runs. A strip is at least 36 px high, so its name and its two scale
// labels never overprint the next strip's; past six runs the legend would cover the
// histograms, so it leaves the panel for two columns under the plot.
struct Layout {
    double strips_bottom = 660;
    bool legend_inside = true;
    double legend_top = 62;
    double height = 760;
};

Layout layout_for(std::size_t runs) {
    constexpr double min_strip = 36;
    const double n = static_cast<double>(std::max<std::size_t>(1, runs));
    Layout layout;
    layout.strips_bottom = std::max(660.0, strips_top + n * min_strip + (n - 1) * strip_gap);
    layout.legend_inside = runs <= 6;
    const double rows = layout.legend_inside ? 0 : std::ceil(static_cast<double>(runs + 1) / 2);
    layout.legend_top = layout.legend_inside ? 62 : layout.strips_bottom + 70;
    layout.height = layout.strips_bottom + 100 + rows * legend_row;
    return layout;
}

// Round tick steps (1, 2, 5 × 10^k) giving about `count` ticks over [lo, hi].
std::vector<double> ticks(double lo, double hi, int count) {
    const double span = hi - lo;
    if (!(span > 0)) {
        return {lo};
    }
    const double step = core::round_up_1_2_5(span / count);
    std::vector<double> result;
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
        result.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    }
    return result;
}

struct Axis {
    double lo;
    double hi;
    double pixel_lo;
    double pixel_hi;
    double map(double v) const { return pixel_lo + (v - lo) / (hi - lo) * (pixel_hi - pixel_lo); }
};

void x_axis(std::ostream& out, const Axis& x, double y, const TimeUnit& unit, const char* label,
            bool time_in_seconds) {
    out << fmt::format(R"~(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#333"/>)~", x.pixel_lo, y,
                       x.pixel_hi, y)
        << "\n";
    for (double t : ticks(x.lo, x.hi, 8)) {
        const double px = x.map(t);
        const std::string text =
            time_in_seconds ? fmt::format("{:g}", t) : fmt::format("{:g}", t / unit.ns_per_unit);
        out << fmt::format(R"~(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#333"/>)~",
                           px, y, y + 5)
            << fmt::format(R"~(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)~", px,
                           y + 18, text)
            << "\n";
    }
    out << fmt::format(R"~(<text x="{}" y="{}" text-anchor="middle">{}</text>)~",
                       (x.pixel_lo + x.pixel_hi) / 2, y + 38, xml_escape(label))
        << "\n";
}

void y_axis(std::ostream& out, const Axis& y, double x, const std::string& label, double scale) {
    out << fmt::format(R"~(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#333"/>)~", x, y.pixel_lo,
                       x, y.pixel_hi)
        << "\n";
    for (double t : ticks(y.lo, y.hi, 5)) {
        const double py = y.map(t);
        out << fmt::format(R"~(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#333"/>)~",
                           x - 5, py, x, py)
            << fmt::format(R"~(<text x="{}" y="{:.1f}" text-anchor="end">{:g}</text>)~", x - 8,
                           py + 4, t / scale)
            << "\n";
    }
    const double mid = (y.pixel_lo + y.pixel_hi) / 2;
    out << fmt::format(
               R"~(<text x="20" y="{0:.1f}" text-anchor="middle" transform="rotate(-90 20 {0:.1f})">{1}</text>)~",
               mid, xml_escape(label))
        << "\n";
}

// p50 (a triangle under the axis) and ±|offset| p99 (dashed) of each run, in its colour.
void write_histogram_marks(const analysis::Plot& plot, const Axis& hx, std::ostream& out) {
    for (std::size_t r = 0; r < plot.runs.size(); ++r) {
        const auto& run = plot.runs[r];
        const char* colour = run_colour(r);
        const double mx = hx.map(run.median_ns);
        out << fmt::format(
                   R"~(<path d="M{0:.1f},{1} l-5,9 h10 z" fill="{2}"><title>p50 {3}</title></path>)~",
                   mx, 331, colour, xml_escape(format_ns(run.median_ns, true)))
            << "\n";
        for (double x : {-run.p99_abs_ns, run.p99_abs_ns}) {
            if (x < hx.lo || x > hx.hi) {
                continue;
            }
            out << fmt::format(
                       R"~(<line x1="{0:.1f}" y1="330" x2="{0:.1f}" y2="60" stroke="{1}" stroke-width="1.2" stroke-dasharray="6 4" stroke-opacity="0.8"/>)~",
                       hx.map(x), colour)
                << "\n";
        }
    }
}

void write_histogram_panel(const analysis::Plot& plot, std::ostream& out) {
    // Histogram panel: every run on the same bins, as the fraction of its pulses; on a log axis
    // (--plot-log-counts) a single pulse in the tail is as visible as the peak.
    double bins_hi = plot.bins_lower_ns;
    double peak = 0;
    double smallest = 1;
    for (const auto& run : plot.runs) {
        bins_hi =
            std::max(bins_hi, plot.bins_lower_ns +
                                  plot.bin_width_ns * static_cast<double>(run.bin_counts.size()));
        for (double c : run.bin_counts) {
            peak = std::max(peak, c);
            if (c > 0) {
                smallest = std::min(smallest, c);
            }
        }
    }
    const double all[] = {plot.bins_lower_ns, bins_hi};
    const TimeUnit unit = choose_time_unit(all);
    const Axis hx{plot.bins_lower_ns, std::max(bins_hi, plot.bins_lower_ns + 1), panel_left,
                  panel_right};
    const double log_floor = std::floor(std::log10(smallest));
    const double log_top = peak > 0 ? std::ceil(std::log10(peak)) : 0;
    const Axis hy = plot.log_counts ? Axis{log_floor, std::max(log_top, log_floor + 1), 330, 60}
                                    : Axis{0, peak > 0 ? peak * 1.08 : 1, 330, 60};
    // A bin's height on the chosen axis; empty bins sit on the axis.
    const auto bar_y = [&](double fraction) {
        if (!plot.log_counts) {
            return hy.map(fraction);
        }
        return fraction > 0 ? hy.map(std::log10(fraction)) : hy.map(hy.lo);
    };
    out << "<g id=\"histogram\">\n";
    for (std::size_t r = 0; r < plot.runs.size(); ++r) {
        const auto& run = plot.runs[r];
        const auto style = run_style(r);
        const char* colour = style.colour;
        std::string points = fmt::format("{:.1f},{:.1f}", hx.map(plot.bins_lower_ns), bar_y(0));
        for (std::size_t b = 0; b < run.bin_counts.size(); ++b) {
            const double left = plot.bins_lower_ns + plot.bin_width_ns * static_cast<double>(b);
            const double y = bar_y(run.bin_counts[b]);
            points += fmt::format(" {:.1f},{:.1f} {:.1f},{:.1f}", hx.map(left), y,
                                  hx.map(left + plot.bin_width_ns), y);
        }
        points += fmt::format(" {:.1f},{:.1f}", hx.map(bins_hi), bar_y(0));
        // Outlines only, no fill over fill: every run's shape stays visible through the others.
        out << fmt::format(
                   R"~(<polygon points="{}" fill="{}" fill-opacity="0.08" stroke="{}" stroke-width="1.5"{}/>)~",
                   points, colour, colour, dash_attribute(style))
            << "\n";
    }
    write_histogram_marks(plot, hx, out);
    // The bin width on the axis, as the text histogram states it: the same bins in every output.
    const auto axis_label = fmt::format("{} ({}), bins {} wide", plot.value_name, unit.suffix,
                                        format_ns(plot.bin_width_ns));
    x_axis(out, hx, 330, unit, axis_label.c_str(), false);
    if (plot.log_counts) {
        out << fmt::format(R"~(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#333"/>)~",
                           panel_left, hy.pixel_lo, hy.pixel_hi)
            << "\n";
        for (int d = static_cast<int>(hy.lo); d <= static_cast<int>(hy.hi); ++d) {
            const double py = hy.map(d);
            out << fmt::format(
                       R"~(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#333"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5:g}</text>)~",
                       panel_left - 5, py, panel_left, panel_left - 8, py + 4, std::pow(10.0, d))
                << "\n";
        }
        out << fmt::format(
                   R"~(<text x="20" y="195" text-anchor="middle" transform="rotate(-90 20 195)">fraction of pulses (log)</text>)~")
            << "\n";
    } else {
        y_axis(out, hy, panel_left, "fraction of pulses", 1.0);
    }
    out << "</g>\n";
}

void write_timeseries_panel(const analysis::Plot& plot, const Layout& layout, std::ostream& out) {
    // Time series: one strip per run on a shared value axis (small multiples), so no run hides
    // another, the baseline included. Each strip carries its run's name, so its line is solid
    // in every case: a dash pattern would break up a noisy series.
    double t_hi = 0;
    double v_lo = INFINITY;
    double v_hi = -INFINITY;
    for (const auto& run : plot.runs) {
        for (double t : run.time_s) {
            t_hi = std::max(t_hi, t);
        }
        for (double v : run.value_ns) {
            v_lo = std::min(v_lo, v);
            v_hi = std::max(v_hi, v);
        }
    }
    if (!std::isfinite(v_lo)) {
        v_lo = -1;
        v_hi = 1;
    }
    const double values[] = {v_lo, v_hi};
    const TimeUnit vunit = choose_time_unit(values);
    const double pad = (v_hi - v_lo) * 0.05 + 1;
    const Axis tx{0, t_hi > 0 ? t_hi : 1, panel_left, panel_right};
    const double area_top = strips_top;
    const double area_bottom = layout.strips_bottom;
    const double strips = static_cast<double>(std::max<std::size_t>(1, plot.runs.size()));
    const double gap = strip_gap;
    const double strip = (area_bottom - area_top - gap * (strips - 1)) / strips;
    out << "<g id=\"timeseries\">\n";
    for (std::size_t r = 0; r < plot.runs.size(); ++r) {
        const auto& run = plot.runs[r];
        const double bottom = area_top + (strip + gap) * static_cast<double>(r) + strip;
        const Axis ty{v_lo - pad, v_hi + pad, bottom, bottom - strip};
        const char* colour = run_colour(r);
        std::string points;
        for (std::size_t i = 0; i < run.time_s.size(); ++i) {
            points += fmt::format("{}{:.1f},{:.1f}", i == 0 ? "" : " ", tx.map(run.time_s[i]),
                                  ty.map(run.value_ns[i]));
        }
        out << fmt::format(
                   R"~(<rect x="{}" y="{:.1f}" width="{}" height="{:.1f}" fill="none" stroke="#ccc"/>)~",
                   panel_left, bottom - strip, panel_right - panel_left, strip)
            << "\n";
        if (ty.lo < 0 && ty.hi > 0) {
            out << fmt::format(R"~(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#ccc"/>)~",
                               panel_left, ty.map(0), panel_right, ty.map(0))
                << "\n";
        }
        out << fmt::format(
                   R"~(<polyline points="{}" fill="none" stroke="{}" stroke-width="0.8"/>)~",
                   points, colour)
            << "\n"
            << fmt::format(
                   R"~(<text x="{}" y="{:.1f}" font-size="11" fill="{}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>)~",
                   panel_left + 6, bottom - strip + 13, colour, xml_escape(run.label))
            << "\n";
        // The shared scale, written on every strip: its top and bottom values.
        out << fmt::format(
                   R"~(<text x="{0}" y="{1:.1f}" text-anchor="end" font-size="10">{2:g}</text><text x="{0}" y="{3:.1f}" text-anchor="end" font-size="10">{4:g}</text>)~",
                   panel_left - 6, bottom - strip + 9,
                   std::round((v_hi + pad) / vunit.ns_per_unit * 10) / 10, bottom,
                   std::round((v_lo - pad) / vunit.ns_per_unit * 10) / 10)
            << "\n";
    }
    x_axis(out, tx, area_bottom, vunit, "time since the first pulse (s)", true);
    const double mid = (area_top + area_bottom) / 2;
    out << fmt::format(
               R"~(<text x="20" y="{0:.1f}" text-anchor="middle" transform="rotate(-90 20 {0:.1f})">{1}</text>)~",
               mid, xml_escape(plot.value_name + " (" + vunit.suffix + ")"))
        << "\n";
    out << "</g>\n";
}

// A run's swatch: a short line in its colour and pattern, as its histogram outline is drawn.
std::string swatch(std::size_t run, double x, double y) {
    const auto style = run_style(run);
    return fmt::format(
        R"~(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="3"{}/>)~", x, y, x + 22,
        y, style.colour, dash_attribute(style));
}

std::string legend_text(const analysis::PlotRun& run) {
    return fmt::format("{} — σ {}, p-p {}", xml_escape(run.label),
                       xml_escape(format_ns(run.sigma_ns)), xml_escape(format_ns(run.p2p_ns)));
}

void write_offset_legend(const analysis::Plot& plot, const Layout& layout, std::ostream& out) {
    // Each run with its σ and peak-to-peak, then what the marks are: top right of the histogram
    // panel, right-aligned against its edge so a long label grows to the left; or, for many
    // runs, in two columns under the plot.
    out << "<g id=\"legend\">\n";
    const std::size_t n = plot.runs.size();
    const auto place = [&](std::size_t entry) {
        if (layout.legend_inside) {
            return std::pair{panel_right - 24,
                             layout.legend_top + legend_row * static_cast<double>(entry)};
        }
        const double column = (panel_right - panel_left) / 2;
        return std::pair{panel_left + column * static_cast<double>(entry % 2),
                         layout.legend_top + legend_row * static_cast<double>(entry / 2)};
    };
    for (std::size_t r = 0; r < n; ++r) {
        const auto [x, y] = place(r);
        out << swatch(r, x, y + 5)
            << (layout.legend_inside
                    ? fmt::format(
                          R"~(<text x="{}" y="{}" text-anchor="end" stroke="white" stroke-width="3" paint-order="stroke">{}</text>)~",
                          x - 6, y + 9, legend_text(plot.runs[r]))
                    : fmt::format(R"~(<text x="{}" y="{}">{}</text>)~", x + 28, y + 9,
                                  legend_text(plot.runs[r])))
            << "\n";
    }
    const auto [x, y] = place(n);
    out << fmt::format(
               R"~(<text x="{}" y="{}" text-anchor="{}" fill="#555" stroke="white" stroke-width="3" paint-order="stroke">marks: ▲ p50   ┆ ±|offset| p99</text>)~",
               layout.legend_inside ? x + 22 : x + 28, y + 9,
               layout.legend_inside ? "end" : "start")
        << "\n";
    out << "</g>\n";
}

}  // namespace

// The offset plot: a histogram panel on top, a time-series strip per run below, a legend.
void write_svg_plot(const analysis::Plot& plot, std::ostream& out) {
    const Layout layout = layout_for(plot.runs.size());
    write_svg_head(plot.title, plot.simulated, offset_plot_width, layout.height, out);
    write_histogram_panel(plot, out);
    write_timeseries_panel(plot, layout, out);
    write_offset_legend(plot, layout, out);
    out << "</svg>\n";
}

}  // namespace ppsbench::render
