// SPDX-License-Identifier: GPL-2.0-or-later
// Hostile paths (issue 23): however an input is spelt as an output (the same name, ./, dir/..,
// a symlink, a hard link, a link to its folder), with or without --force, every command
// refuses it before any work and the input keeps every byte. Two outputs spelt differently
// but naming one file are refused too, and nothing is created.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;

// Every way of naming `name` in `dir` that the file plan must see through.
std::vector<std::string> spellings(const TempDir& dir, const std::string& name) {
    namespace fs = std::filesystem;
    fs::create_directories(dir.path() / "sub");
    if (!fs::exists(dir.path() / "again")) {
        fs::create_directory_symlink(dir.path(), dir.path() / "again");
    }
    std::vector<std::string> names{dir.file(name), dir.file("./" + name),
                                   dir.file("sub/../" + name), dir.file("again/" + name)};
    if (fs::exists(dir.path() / name)) {
        fs::create_symlink(dir.path() / name, dir.path() / ("link-" + name));
        fs::create_hard_link(dir.path() / name, dir.path() / ("hard-" + name));
        names.push_back(dir.file("link-" + name));
        names.push_back(dir.file("hard-" + name));
        names.push_back(dir.file("again/link-" + name));
    }
    return names;
}

TEST(HostilePaths, NoSpellingOfAnInputIsAcceptedAsAnOutput) {
    TempDir dir;
    const auto v = dir.file("v.csv");
    const auto s = dir.file("s.csv");
    for (const auto& path : {v, s}) {
        ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "150", "-o", path})
                      .exit_code,
                  0);
    }
    const auto before = read_text(v);
    // Each command with the input v.csv, and the output option that is to name it.
    const std::vector<std::pair<std::vector<std::string>, std::string>> commands{
        {{"report", v}, "--prometheus"},
        {{"compare", "--baseline", s, v}, "--prometheus"},
        {{"gate", v, "--max-sigma", "3us"}, "--junit"},
        {{"gate", "--baseline", v, s, "--max-sigma", "3us"}, "--junit"},
        {{"import", "ppstest", v}, "-o"},
        {{"run", "-q", "-s", "replay:" + v}, "-o"},
        {{"run", "-q", "-s", "replay:" + v, "-o", dir.file("out.csv")}, "--prometheus"},
    };
    for (const auto& spelling : spellings(dir, "v.csv")) {
        for (const auto& [command, option] : commands) {
            for (const bool force : {false, true}) {
                auto args = command;
                args.insert(args.end(), {option, spelling});
                if (force) {
                    args.emplace_back("--force");
                }
                const auto r = run_ppsbench(args);
                EXPECT_EQ(r.exit_code, 2) << args[0] << " " << option << " " << spelling;
                EXPECT_TRUE(contains(r.err, option + " " + spelling + " is also ")) << r.err;
                EXPECT_EQ(read_text(v), before) << args[0] << " " << option << " " << spelling;
            }
        }
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.csv")));
}

TEST(HostilePaths, TwoOutputsNamingOneNewFileAreRefusedAndNothingIsCreated) {
    TempDir dir;
    const auto v = dir.file("v.csv");
    ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "150", "-o", v}).exit_code,
              0);
    const auto names = spellings(dir, "same.svg");
    const std::vector<std::pair<std::string, std::string>> pairs{
        {"--plot", "--plot-stability"},
        {"--plot", "--prometheus"},
        {"--plot-stability", "--prometheus"}};
    for (const auto& first : names) {
        for (const auto& second : names) {
            for (const auto& [a, b] : pairs) {
                const auto r = run_ppsbench({"report", v, a, first, b, second, "--force"});
                EXPECT_EQ(r.exit_code, 2) << a << " " << first << " " << b << " " << second;
                EXPECT_TRUE(contains(r.err, b + " " + second + " is also " + a + " " + first))
                    << r.err;
            }
        }
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("same.svg")));
    // run: the capture and its live metrics, spelt apart.
    const auto r = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "5", "-o",
                                 dir.file("c.csv"), "--prometheus", dir.file("sub/../c.csv")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.csv")));
}

// A file name may hold an escape sequence, a carriage return or bytes that are not UTF-8.
// The message that names it shows them as \xNN, so it cannot clear the terminal, hide the
// start of its line or break the journal's UTF-8; the message is still one line.
TEST(HostilePaths, AFileNameInAMessageIsShownNotObeyed) {
    TempDir dir;
    const auto hostile = dir.file("run\x1b[2J\r\xff.csv");
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"report", hostile},
          {"gate", hostile, "--max-sigma", "1us"},
          {"import", "ppstest", hostile, "-o", dir.file("out.csv")}}) {
        const auto result = run_ppsbench(command);
        EXPECT_EQ(result.exit_code, 2) << command[0] << ": " << result.err;
        EXPECT_TRUE(contains(result.err, "run\\x1b[2J\\x0d\\xff.csv"))
            << command[0] << ": " << result.err;
        EXPECT_EQ(result.err.find_first_of("\x1b\r\xff"), std::string::npos) << command[0];
        EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << command[0] << ": " << result.err;
    }
}

// run's progress lines name the source, here a replayed file whose name clears the screen:
// they are written to stderr's FILE, past std::cerr's filter, and escape it the same way.
TEST(HostilePaths, ARunsProgressLinesShowTheSourceAndDoNotObeyIt) {
    TempDir dir;
    const auto hostile = dir.file("h\x1b[2J\r.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-s", "sim:threaded", "--count", "20", "-q", "-o", hostile}).exit_code,
        0);
    const auto result =
        run_ppsbench({"run", "-s", "replay:" + hostile, "--pace", "realtime", "--duration", "2.5s",
                      "--progress-interval", "1s", "-o", dir.file("out.csv")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(contains(result.err, "replay:" + dir.file("h\\x1b[2J\\x0d.csv"))) << result.err;
    EXPECT_EQ(result.err.find_first_of("\x1b\r"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace ppsbench
