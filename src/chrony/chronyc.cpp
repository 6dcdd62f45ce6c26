// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/chronyc.hpp"

#include <fmt/format.h>

#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/process.hpp"

namespace ppsbench::chrony {
namespace {

std::string first_line(std::string_view text) {
    while (!text.empty() && (text.front() == '\n' || text.front() == ' ')) {
        text.remove_prefix(1);
    }
    return std::string(text.substr(0, text.find('\n')));
}

}  // namespace

ChronycResult run_chronyc(const ChronycOptions& options, std::string_view command) {
    std::vector<std::string> argv{options.program, "-c", "-n"};
    if (!options.socket.empty()) {
        argv.emplace_back("-h");
        argv.push_back(options.socket);
    }
    argv.emplace_back(command);

    const auto run = core::run_process(argv, options.timeout);
    ChronycResult result;
    if (run.spawn_error != 0) {
        result.outcome = ChronycOutcome::missing;
        result.detail =
            fmt::format("cannot run {}: {}", options.program, core::errno_message(run.spawn_error));
        return result;
    }
    if (run.timed_out) {
        result.outcome = ChronycOutcome::timed_out;
        result.detail = fmt::format("{} {} gave no answer within {} ms", options.program, command,
                                    options.timeout.count());
        return result;
    }
    if (run.exit_code == 0) {
        result.outcome = ChronycOutcome::ok;
        result.out = run.out;
        return result;
    }
    // chrony 4.3 says "Could not open connection to daemon" (stderr) when the Unix socket is
    // absent, and "506 Cannot talk to daemon" (stdout) when nothing answers.
    const std::string all = run.err + "\n" + run.out;
    if (all.find("Could not open connection to daemon") != std::string::npos ||
        all.find("Cannot talk to daemon") != std::string::npos) {
        result.outcome = ChronycOutcome::no_daemon;
    } else if (run.exit_code == 127 || run.exit_code == 126) {
        result.outcome = ChronycOutcome::missing;
    } else {
        result.outcome = ChronycOutcome::failed;
    }
    result.detail = first_line(run.err.empty() ? run.out : run.err);
    if (result.detail.empty()) {
        result.detail = fmt::format("{} exited with status {}", options.program, run.exit_code);
    }
    return result;
}

}  // namespace ppsbench::chrony
