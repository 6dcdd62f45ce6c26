// SPDX-License-Identifier: GPL-2.0-or-later
// ppswatch's closing figures against the event lines before them (docs/import.md, "What is
// cross-checked"): its own sums redone, then compared as it printed them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ppsbench/import/ppswatch.hpp"

namespace ppsbench::import {
namespace {

// Whether `ours` is what printf's %g (6 significant digits, as ppswatch prints) shows as
// `printed`: within half a unit of its last digit. A last-bit difference (ppswatch built where
// a*b+c is fused, as on arm64) can move a value across a rounding boundary, hence the slack.
bool prints_as(double printed, double ours) {
    if (printed == 0.0) {
        return ours == 0.0;
    }
    const double half_unit = 0.5 * std::pow(10.0, std::floor(std::log10(std::fabs(printed))) - 5);
    return std::fabs(ours - printed) <= half_unit * (1 + 1e-9) + 1e-12 * std::fabs(printed);
}

}  // namespace

void PpswatchRunning::add(std::int64_t offset_ns) {
    // ppswatch.c: div = ts.tv_nsec; delta = div - mean; mean += delta / total;
    // delta2 = div - mean; M2 += delta * delta2; max_divergence = max(|div|).
    ++count;
    const double div = static_cast<double>(offset_ns);
    const double delta = div - mean;
    mean += delta / static_cast<double>(count);
    const double delta2 = div - mean;
    m2 += delta * delta2;
    max_divergence_ns = std::max(max_divergence_ns, offset_ns < 0 ? -offset_ns : offset_ns);
}

namespace {

// With --margin ppswatch prints only the events at or beyond it ("overflows"), while its mean
// and SD cover every signal; the largest |offset| is always among those printed.
PpswatchCheck check_margin_run(const PpswatchFigures& printed, const PpswatchRunning& lines,
                               const std::string& where) {
    PpswatchCheck check;
    std::vector<std::string> contradictions;
    if (*printed.overflows != lines.count) {
        // ppswatch counts an overflow after printing it, so a Ctrl-C in between leaves one
        // line more than the count: not a contradiction to refuse a file over.
        check.text = fmt::format(
            "not cross-checked: ppswatch ran with --margin and its closing figures at {} "
            "count {} overflows, but {} event lines precede them",
            where, *printed.overflows, lines.count);
        return check;
    }
    if (lines.count > 0 && *printed.max_divergence_ns != lines.max_divergence_ns) {
        contradictions.push_back(
            fmt::format("maximum divergence {} ns printed, {} ns in the "
                        "lines",
                        *printed.max_divergence_ns, lines.max_divergence_ns));
    }
    check.judged = true;
    check.agrees = contradictions.empty();
    check.text = check.agrees
                     ? fmt::format(
                           "cross-checked: ppswatch ran with --margin; its {} overflows and "
                           "maximum divergence {} ns at {} agree with the event lines before "
                           "them (its mean and SD also cover the {} signals it did not print, "
                           "so they are not compared)",
                           lines.count, *printed.max_divergence_ns, where,
                           *printed.total - std::min(*printed.total, lines.count))
                     : fmt::format(
                           "{}: ppswatch's closing figures contradict the event lines before "
                           "them: {}",
                           where, contradictions.front());
    return check;
}

}  // namespace

PpswatchCheck check_ppswatch_figures(const PpswatchFigures& printed, const PpswatchRunning& lines,
                                     const std::string& where) {
    PpswatchCheck check;
    if (!printed.total || !printed.max_divergence_ns || !printed.mean_ns || !printed.sd_ns) {
        check.text = fmt::format(
            "not cross-checked: ppswatch's closing figures at {} are incomplete (it prints the "
            "number of signals, maximum divergence, mean and standard deviation)",
            where);
        return check;
    }
    if (printed.overflows) {
        return check_margin_run(printed, lines, where);
    }
    std::vector<std::string> contradictions;
    if (*printed.total != lines.count) {
        check.text = fmt::format(
            "not cross-checked: ppswatch's closing figures at {} count {} signals, but {} event "
            "lines precede them (lines lost or added in the paste?); the import holds the lines "
            "the file has",
            where, *printed.total, lines.count);
        return check;
    }
    check.judged = true;
    const double sd = lines.count > 0 ? std::sqrt(lines.m2 / static_cast<double>(lines.count)) : 0;
    if (*printed.max_divergence_ns != lines.max_divergence_ns) {
        contradictions.push_back(fmt::format("maximum divergence {} ns printed, {} ns in the lines",
                                             *printed.max_divergence_ns, lines.max_divergence_ns));
    }
    if (!prints_as(*printed.mean_ns, lines.mean)) {
        contradictions.push_back(fmt::format("mean {:g} ns printed, {:.9g} ns from the lines",
                                             *printed.mean_ns, lines.mean));
    }
    if (!prints_as(*printed.sd_ns, sd)) {
        contradictions.push_back(fmt::format(
            "standard deviation {:g} ns printed, {:.9g} ns from the lines", *printed.sd_ns, sd));
    }
    check.agrees = contradictions.empty();
    if (check.agrees) {
        check.text = fmt::format(
            "cross-checked: ppswatch's closing figures at {} ({} signals, maximum divergence {} "
            "ns, mean {:g} ns, SD {:g} ns) agree with the event lines before them",
            where, lines.count, *printed.max_divergence_ns, *printed.mean_ns, *printed.sd_ns);
    } else {
        std::string list;
        for (const auto& c : contradictions) {
            list += (list.empty() ? "" : "; ") + c;
        }
        check.text = fmt::format(
            "{}: ppswatch's closing figures contradict the {} event lines before them: {}", where,
            lines.count, list);
    }
    return check;
}

}  // namespace ppsbench::import
