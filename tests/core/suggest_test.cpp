// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/suggest.hpp"

#include <gtest/gtest.h>

namespace ppsbench::core {
namespace {

const std::vector<std::string> commands = {"run",     "report", "compare", "gate",
                                           "latency", "demo",   "doctor",  "import"};

TEST(ClosestMatch, FindsTheCommandATypoMeant) {
    EXPECT_EQ(closest_match("rnu", commands), "run");         // two letters swapped
    EXPECT_EQ(closest_match("reprot", commands), "report");   // swapped
    EXPECT_EQ(closest_match("compar", commands), "compare");  // one missing
    EXPECT_EQ(closest_match("docter", commands), "doctor");   // one wrong
}

TEST(ClosestMatch, StaysQuietWhenNothingIsClose) {
    EXPECT_EQ(closest_match("benchmark", commands), std::nullopt);
    EXPECT_EQ(closest_match("xyz", commands), std::nullopt);
    // The word itself is not a suggestion.
    EXPECT_EQ(closest_match("run", {"run"}), std::nullopt);
}

TEST(ClosestMatch, AllowsMoreEditsForLongerWords) {
    const std::vector<std::string> metrics = {"sigma", "detrended_sigma", "sigma_no_outliers"};
    EXPECT_EQ(closest_match("detrendd_sigm", metrics), "detrended_sigma");
    EXPECT_EQ(closest_match("sgma", metrics), "sigma");
}

TEST(DidYouMean, ReadsAsPartOfAnErrorMessage) {
    EXPECT_EQ(did_you_mean("cvs", {"text", "markdown", "csv", "json"}), " (did you mean 'csv'?)");
    EXPECT_EQ(did_you_mean("yaml", {"text", "markdown", "csv", "json"}), "");
}

}  // namespace
}  // namespace ppsbench::core
