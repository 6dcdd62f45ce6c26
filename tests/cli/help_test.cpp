// SPDX-License-Identifier: GPL-2.0-or-later
// The help and the usage errors people see first: readable defaults, no internal names, one
// error prefix, and a suggestion for a typo.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;

const std::vector<std::string> commands = {"run",  "report", "compare", "gate",     "latency",
                                           "demo", "doctor", "import",  "calibrate"};

TEST(Help, HelpCommandPrintsTheCommandsOwnHelp) {
    for (const auto& command : commands) {
        const auto via_help = run_ppsbench({"help", command});
        const auto via_option = run_ppsbench({command, "--help"});
        EXPECT_EQ(via_help.exit_code, 0) << command;
        EXPECT_EQ(via_help.out, via_option.out) << command;
        EXPECT_TRUE(via_help.out.starts_with("Usage: ppsbench " + command)) << via_help.out;
    }
}

TEST(Help, DefaultsReadAsTheyWouldBeTyped) {
    for (const auto& command : {"compare", "gate"}) {
        const auto help = run_ppsbench({"help", command}).out;
        EXPECT_TRUE(contains(help, "--confidence arg (=0.95)")) << help;
        EXPECT_FALSE(contains(help, "0.9499")) << help;
    }
}

TEST(Help, PositionalArgumentsAreNotListedAsOptions) {
    EXPECT_FALSE(contains(run_ppsbench({"help", "report"}).out, "--file"));
    EXPECT_FALSE(contains(run_ppsbench({"help", "compare"}).out, "--file"));
    EXPECT_FALSE(contains(run_ppsbench({"help", "gate"}).out, "--current"));
    const auto import = run_ppsbench({"help", "import"}).out;
    EXPECT_FALSE(contains(import, "--format")) << import;
    EXPECT_FALSE(contains(import, "--file")) << import;  // the FILE... positional
    EXPECT_FALSE(contains(run_ppsbench({"help", "doctor"}).out, "--device"));
}

TEST(Help, EveryLineFitsAnEightyColumnTerminal) {
    for (const auto& command : commands) {
        std::istringstream help(run_ppsbench({"help", command}).out);
        for (std::string line; std::getline(help, line);) {
            // Code points, not bytes: σ and → are one column each.
            const auto width = std::count_if(line.begin(), line.end(), [](char c) {
                return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
            });
            EXPECT_LE(width, 80) << command << ": " << line;
        }
    }
}

// A paragraph of the description is filled greedily: no line of it ends where the next line's
// first word would still have fitted (a hard break typed mid-paragraph leaves a short line and
// then a wrapped one: ragged).
TEST(Help, DescriptionParagraphsAreFilledNotRagged) {
    const auto columns = [](const std::string& text) {
        return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
        }));
    };
    for (const auto& command : commands) {
        const auto help = run_ppsbench({"help", command}).out;
        const auto start = help.find("\n\n");
        const auto end = help.find("\nOptions:");
        ASSERT_NE(start, std::string::npos) << command;
        ASSERT_NE(end, std::string::npos) << command;
        std::istringstream description(help.substr(start + 2, end - start - 2));
        std::string previous;
        for (std::string line; std::getline(description, line); previous = line) {
            const bool prose = !line.empty() && line.front() != ' ';
            if (!prose || previous.empty() || previous.front() == ' ') {
                continue;
            }
            const auto first_word = line.substr(0, line.find(' '));
            EXPECT_GT(columns(previous) + 1 + columns(first_word), 79U)
                << command << ": \"" << previous << "\" ends before \"" << first_word << "\"";
        }
    }
}

TEST(UsageErrors, CarryOnePrefixNamingTheCommand) {
    const auto r = run_ppsbench({"report"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.err.starts_with("ppsbench report: name at least one capture file")) << r.err;
    const auto option = run_ppsbench({"gate", "--no-such-option"});
    EXPECT_TRUE(option.err.starts_with("ppsbench gate: ")) << option.err;
    EXPECT_FALSE(contains(option.err, "ppsbench: ")) << option.err;
}

TEST(UsageErrors, SuggestWhatATypoMeant) {
    const auto command = run_ppsbench({"reprot", "x.csv"});
    EXPECT_EQ(command.exit_code, 2);
    EXPECT_EQ(command.err,
              "ppsbench: unknown command 'reprot' (did you mean 'report'?); see 'ppsbench help'\n");
    EXPECT_TRUE(contains(run_ppsbench({"help", "compair"}).err, "(did you mean 'compare'?)"));
    EXPECT_TRUE(contains(run_ppsbench({"report", "--formt", "csv", "x.csv"}).err,
                         "unrecognised option '--formt' (did you mean '--format'?)"));
    const auto format = run_ppsbench({"compare", "-b", "a.csv", "b.csv", "--format", "markdwn"});
    EXPECT_TRUE(contains(format.err,
                         "--format markdwn: use text, markdown, csv or json (did "
                         "you mean 'markdown'?)"))
        << format.err;
    const auto metric = run_ppsbench({"compare", "-b", "a.csv", "b.csv", "-m", "sigma,p2pp"});
    EXPECT_TRUE(contains(metric.err, "unknown metric 'p2pp' (did you mean 'p2p'?)")) << metric.err;
    const auto stability = run_ppsbench({"compare", "-b", "a.csv", "b.csv", "-m", "tdve@16s"});
    EXPECT_TRUE(contains(stability.err, "(did you mean 'tdev@16s'?)")) << stability.err;
}

TEST(UsageErrors, APlotIsWrittenOnlyUnderAnSvgName) {
    for (const auto& option : {"--plot", "--plot-stability"}) {
        const auto r = run_ppsbench({"report", "x.csv", option, "p.png"});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_TRUE(contains(r.err, std::string(option) + " p.png: plots are written as SVG; "
                                                          "name the file p.svg"))
            << r.err;
    }
}

}  // namespace
}  // namespace ppsbench
