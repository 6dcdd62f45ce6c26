// SPDX-License-Identifier: GPL-2.0-or-later
// ppsbench: measure PPS timestamp jitter and compare it across kernels and configurations.
// This file only dispatches to a subcommand and maps typed errors to exit codes.
#include <fmt/format.h>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/printable_stream.hpp"
#include "ppsbench/core/suggest.hpp"
#include "ppsbench/version.hpp"

namespace {

using ppsbench::app::Command;

std::vector<std::unique_ptr<Command>> all_commands() {
    std::vector<std::unique_ptr<Command>> commands;
    commands.push_back(ppsbench::app::make_run_command());
    commands.push_back(ppsbench::app::make_report_command());
    commands.push_back(ppsbench::app::make_compare_command());
    commands.push_back(ppsbench::app::make_gate_command());
    commands.push_back(ppsbench::app::make_latency_command());
    commands.push_back(ppsbench::app::make_calibrate_command());
    commands.push_back(ppsbench::app::make_demo_command());
    commands.push_back(ppsbench::app::make_doctor_command());
    commands.push_back(ppsbench::app::make_import_command());
    return commands;
}

void print_help(const std::vector<std::unique_ptr<Command>>& commands) {
    std::cout << "Usage: ppsbench COMMAND [OPTIONS]\n\n"
                 "Measure PPS (pulse-per-second) timestamp jitter on Linux and compare it across\n"
                 "kernels and configurations.\n\nCommands:\n";
    for (const auto& command : commands) {
        std::cout << fmt::format("  {:<10} {}\n", command->name(), command->summary());
    }
    std::cout << "\nRun 'ppsbench help COMMAND' (or 'ppsbench COMMAND --help') for a command's\n"
                 "options.\n"
                 "Exit status: 0 success, 1 a gate or measurement failed, 2 bad usage or input.\n";
}

Command& find_command(const std::vector<std::unique_ptr<Command>>& commands,
                      const std::string& name) {
    std::vector<std::string> names;
    for (const auto& command : commands) {
        if (command->name() == name) {
            return *command;
        }
        names.emplace_back(command->name());
    }
    throw ppsbench::core::UsageError(fmt::format("unknown command '{}'{}; see 'ppsbench help'",
                                                 name, ppsbench::core::did_you_mean(name, names)));
}

// Errors read "ppsbench run: --count 0: ..." inside a command, "ppsbench: ..." outside one.
std::string error_prefix(const std::string& command) {
    return command.empty() ? "ppsbench: " : "ppsbench " + command + ": ";
}

}  // namespace

int main(int argc, char** argv) {
    // A file-size limit (ulimit -f) would otherwise kill the process with SIGXFSZ mid-line, with
    // no message and no end record; ignored, the write fails with EFBIG and the writer keeps
    // every complete line and says so (exit 1), as for a full disk.
    std::signal(SIGXFSZ, SIG_IGN);
    // Messages name files, and a file name may hold an escape sequence or bytes that are not
    // UTF-8: stderr shows them as \xNN (core/printable_stream.hpp).
    const ppsbench::core::PrintableStream printable_errors(std::cerr);
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::string command_name;
    try {
        auto commands = all_commands();
        if (args.size() >= 2 && args[0] == "help") {
            return find_command(commands, args[1]).run({"--help"});
        }
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            print_help(commands);
            return args.empty() ? 2 : 0;
        }
        if (args[0] == "--version") {
            std::cout << "ppsbench " << ppsbench::version_string << "\n";
            return 0;
        }
        auto& command = find_command(commands, args[0]);
        command_name = args[0];
        const int status = command.run(std::vector<std::string>(args.begin() + 1, args.end()));
        // A report that did not reach stdout (> /dev/full, a closed pipe) is not a success: a
        // pipeline saving a baseline must see it fail.
        std::cout.flush();
        if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
            std::cerr << error_prefix(command_name)
                      << "cannot write to standard output (disk full or the reader went away); "
                         "nothing complete was written\n";
            return static_cast<int>(ppsbench::core::ExitCode::bad_input);
        }
        return status;
    } catch (const ppsbench::core::Error& e) {
        std::cout.flush();
        std::cerr << error_prefix(command_name) << e.what() << "\n";
        return static_cast<int>(e.exit_code());
    } catch (const std::exception& e) {
        std::cout.flush();
        std::cerr << error_prefix(command_name) << "internal error: " << e.what()
                  << " (please report this with the command line)\n";
        return 1;
    }
}
