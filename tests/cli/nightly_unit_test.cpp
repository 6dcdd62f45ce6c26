// SPDX-License-Identifier: GPL-2.0-or-later
// ppsbench-nightly.service's own commands, as systemd runs a oneshot (each ExecStart= in turn,
// stopping at the first that fails), on two nights: the second a regression. Both nights
// publish their figures (main: the second night's compare exited 2 for want of --force, and a
// regression night's gate exit 1 skipped ExecStartPost, so nothing was published).
// A real systemd running the installed units is the package test's part (tests/package/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

// The unit's lines with systemd's continuation lines joined.
std::vector<std::string> unit_lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    std::string line;
    std::string joined;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\\') {
            joined += line.substr(0, line.size() - 1);
            continue;
        }
        lines.push_back(joined + line);
        joined.clear();
    }
    return lines;
}

// The ExecStart= command lines in order, pointed at `dir` and the built binary.
std::vector<std::string> nightly_commands(const TempDir& dir) {
    std::vector<std::string> commands;
    for (auto line :
         unit_lines(std::string(PPSBENCH_SOURCE_DIR) + "/dist/systemd/ppsbench-nightly.service")) {
        EXPECT_FALSE(line.starts_with("ExecStartPost=")) << "a failed gate skips it: " << line;
        if (!line.starts_with("ExecStart=")) {
            continue;
        }
        line = line.substr(std::string("ExecStart=").size());
        EXPECT_FALSE(contains(line, "/usr/bin/")) << "the installed program's path: " << line;
        replace_all(line, "@PPSBENCH_BINDIR@/ppsbench", PPSBENCH_BINARY);
        replace_all(line, "/var/lib/ppsbench", dir.path().string());
        replace_all(line, "/run/ppsbench", dir.file("run"));
        commands.push_back(line);
    }
    return commands;
}

// Runs the commands as a oneshot service does; returns the exit status of the last one run.
int start_service(const std::vector<std::string>& commands) {
    int status = 0;
    for (const auto& command : commands) {
        status = testing::run_program(
                     {"/usr/bin/env", "PPSBENCH_MAX_RATIO=1.25", "/bin/sh", "-c", command})
                     .exit_code;
        if (status != 0) {
            break;
        }
    }
    return status;
}

void capture_to(const std::string& path, const std::string& model) {
    const auto r = run_ppsbench({"run", "-q", "-s", model, "--count", "300", "-o", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(NightlyUnit, PublishesEveryNightAndOnARegressionNightBeforeTheGateFails) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "run");
    const auto commands = nightly_commands(dir);
    ASSERT_EQ(commands.size(), 2U);
    EXPECT_TRUE(contains(commands[0], " compare ")) << "publish first: " << commands[0];
    EXPECT_TRUE(contains(commands[1], " gate ")) << commands[1];
    const auto prom = dir.file("run/ppsbench-nightly.prom");
    capture_to(dir.file("baseline.csv"), "sim:hardirq");
    capture_to(dir.file("2026-01-01T000000Z.csv"), "sim:hardirq");
    capture_to(dir.file("2026-01-02T000000Z.csv"), "sim:threaded");  // written during night 1

    EXPECT_EQ(start_service(commands), 0) << "night 1: no regression";
    EXPECT_TRUE(contains(read_text(prom), "2026-01-01T000000Z.csv")) << read_text(prom);

    capture_to(dir.file("2026-01-03T000000Z.csv"), "sim:hardirq");  // being written on night 2
    EXPECT_EQ(start_service(commands), 1) << "night 2: the force-threaded day regressed";
    const auto published = read_text(prom);
    EXPECT_TRUE(contains(published, "2026-01-02T000000Z.csv")) << published;
    EXPECT_FALSE(contains(published, "2026-01-01T000000Z.csv")) << published;
}

}  // namespace
}  // namespace ppsbench
