// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/distinct_labels.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace ppsbench::analysis {

namespace {

using Qualifier = std::function<std::string(const RunAnalysis& run, std::size_t place)>;

std::map<std::string, std::size_t> label_uses(const std::vector<RunAnalysis>& runs) {
    std::map<std::string, std::size_t> uses;
    for (const auto& run : runs) {
        ++uses[run.label];
    }
    return uses;
}

bool any_repeated(const std::vector<RunAnalysis>& runs) {
    const auto uses = label_uses(runs);
    return std::any_of(uses.begin(), uses.end(), [](const auto& use) { return use.second > 1; });
}

// Each label of `labels` that more than one run has, with "(qualifier)" appended; the others
// as they are.
void qualify_repeated(std::vector<RunAnalysis>& runs, const std::vector<std::string>& labels,
                      const Qualifier& qualifier) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
        runs[i].label = labels[i];
    }
    const auto uses = label_uses(runs);
    std::map<std::string, std::size_t> seen;
    for (auto& run : runs) {
        if (uses.at(run.label) > 1) {
            const std::size_t place = ++seen[run.label];
            run.label = fmt::format("{} ({})", run.label, qualifier(run, place));
        }
    }
}

}  // namespace

void make_labels_distinct(std::vector<RunAnalysis>& runs) {
    if (!any_repeated(runs)) {
        return;
    }
    std::vector<std::string> labels;
    for (const auto& run : runs) {
        labels.push_back(run.label);
    }
    const Qualifier qualifiers[] = {
        [](const RunAnalysis& run, std::size_t) {
            return std::filesystem::path(run.input()).filename().string();
        },
        [](const RunAnalysis& run, std::size_t) { return run.input(); },
        [](const RunAnalysis&, std::size_t place) { return fmt::format("#{}", place); },
    };
    for (const auto& qualifier : qualifiers) {
        qualify_repeated(runs, labels, qualifier);
        if (!any_repeated(runs)) {
            return;
        }
    }
}

}  // namespace ppsbench::analysis
