// SPDX-License-Identifier: GPL-2.0-or-later
// Picking one run of a multi-run saved summary (`--run LABEL|N`), and what a summary says of its
// counts. A label cannot always pick: `report` writes whatever labels the captures had, so two
// runs may share one ("Stock kernel" twice) or have none; then only the number can.
#include <fmt/format.h>
#include <algorithm>
#include <limits>

#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

// "1 \"Stock kernel\", 2 \"\"": every run by number, for a refusal to list.
std::string numbered_labels(const std::vector<RunAnalysis>& runs) {
    std::string list;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        list += fmt::format("{}{} \"{}\"", i == 0 ? "" : ", ", i + 1, runs[i].label);
    }
    return list;
}

std::optional<std::size_t> run_number(std::string_view selector) {
    if (selector.empty() || selector.size() > 9 ||
        !std::all_of(selector.begin(), selector.end(),
                     [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    return std::stoul(std::string(selector));
}

}  // namespace

double SavedSummary::figure(std::string_view key) const {
    const auto it = figures.find(key);
    return it == figures.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

RunAnalysis select_run(std::vector<RunAnalysis> runs, std::string_view selector,
                       const std::string& path) {
    const auto refuse = [&](const std::string& why) {
        return core::UsageError(fmt::format("--run {}: {} {}; its runs: {}", selector, path, why,
                                            numbered_labels(runs)));
    };
    std::vector<std::size_t> labelled;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!selector.empty() && runs[i].label == selector) {
            labelled.push_back(i);
        }
    }
    if (const auto number = run_number(selector)) {
        if (*number < 1 || *number > runs.size()) {
            throw refuse(fmt::format("holds {} run{}, so there is no run {}", runs.size(),
                                     runs.size() == 1 ? "" : "s", *number));
        }
        if (std::any_of(labelled.begin(), labelled.end(),
                        [&](std::size_t i) { return i + 1 != *number; })) {
            throw refuse(fmt::format("has a run labelled \"{}\" that is not run {}: ambiguous",
                                     selector, *number));
        }
        return std::move(runs[*number - 1]);
    }
    if (selector.empty()) {
        throw refuse("cannot pick by an empty label; give the run's number");
    }
    if (labelled.empty()) {
        throw refuse(fmt::format("has no run labelled \"{}\"", selector));
    }
    if (labelled.size() > 1) {
        throw refuse(fmt::format("has {} runs labelled \"{}\"; give the run's number",
                                 labelled.size(), selector));
    }
    return std::move(runs[labelled.front()]);
}

}  // namespace ppsbench::analysis
