// SPDX-License-Identifier: GPL-2.0-or-later
// Runs that share a label are told apart by their file, then their path, then their place; a
// label no other run has is left alone.
#include <gtest/gtest.h>

#include <set>

#include "ppsbench/analysis/distinct_labels.hpp"

namespace ppsbench::analysis {
namespace {

std::vector<RunAnalysis> runs_of(const std::vector<std::pair<std::string, std::string>>& given) {
    std::vector<RunAnalysis> runs;
    for (const auto& [label, file] : given) {
        RunAnalysis run;
        run.label = label;
        run.file = file;
        runs.push_back(std::move(run));
    }
    return runs;
}

std::vector<std::string> labels(const std::vector<RunAnalysis>& runs) {
    std::vector<std::string> l;
    for (const auto& run : runs) {
        l.push_back(run.label);
    }
    return l;
}

TEST(DistinctLabels, RepeatedLabelsGetTheirFileNameOthersStayAsGiven) {
    auto runs = runs_of({{"stock", "/data/stock.csv"},
                         {"sim: threaded", "/data/rt-1.csv"},
                         {"sim: threaded", "/data/rt-2.csv"}});
    make_labels_distinct(runs);
    EXPECT_EQ(labels(runs), (std::vector<std::string>{"stock", "sim: threaded (rt-1.csv)",
                                                      "sim: threaded (rt-2.csv)"}));
}

TEST(DistinctLabels, TheSameFileNameInTwoFoldersGivesThePath) {
    auto runs = runs_of({{"rt", "a/run.csv"}, {"rt", "b/run.csv"}});
    make_labels_distinct(runs);
    EXPECT_EQ(labels(runs), (std::vector<std::string>{"rt (a/run.csv)", "rt (b/run.csv)"}));
}

TEST(DistinctLabels, TheSameFileTwiceIsNumbered) {
    auto runs = runs_of({{"rt", "run.csv"}, {"rt", "run.csv"}, {"stock", "run.csv"}});
    make_labels_distinct(runs);
    EXPECT_EQ(labels(runs), (std::vector<std::string>{"rt (#1)", "rt (#2)", "stock"}));
}

// Whatever the mix, every label comes out distinct and starts with the label it had.
TEST(DistinctLabels, AnyMixComesOutDistinct) {
    const std::vector<std::string> names{"x", "x (a.csv)", "y"};
    const std::vector<std::string> files{"a.csv", "d/a.csv", "b.csv"};
    for (unsigned mask = 0; mask < 729; ++mask) {
        std::vector<std::pair<std::string, std::string>> given;
        for (unsigned m = mask, i = 0; i < 3; ++i, m /= 9) {
            given.emplace_back(names[m % 3], files[(m / 3) % 3]);
        }
        auto runs = runs_of(given);
        make_labels_distinct(runs);
        const auto out = labels(runs);
        EXPECT_EQ(std::set<std::string>(out.begin(), out.end()).size(), out.size()) << mask;
        for (std::size_t i = 0; i < out.size(); ++i) {
            EXPECT_TRUE(out[i].starts_with(given[i].first)) << out[i];
        }
    }
}

}  // namespace
}  // namespace ppsbench::analysis
