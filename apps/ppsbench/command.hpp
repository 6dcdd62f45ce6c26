// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::app {

// One subcommand (osmium-tool's shape): parse options, then do the work by calling the library.
// Options are parsed with Boost.Program_options inside run(); a bad option throws
// core::UsageError, which main() maps to exit code 2.
class Command {
  public:
    virtual ~Command() = default;
    virtual std::string_view name() const = 0;
    // One line for `ppsbench --help`.
    virtual std::string_view summary() const = 0;
    // args excludes the program and subcommand names. Returns the process exit code.
    virtual int run(const std::vector<std::string>& args) = 0;
};

// Each command_*.cpp defines one of these; main.cpp lists them.
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_demo_command();
std::unique_ptr<Command> make_compare_command();
std::unique_ptr<Command> make_gate_command();
std::unique_ptr<Command> make_doctor_command();
std::unique_ptr<Command> make_import_command();
std::unique_ptr<Command> make_latency_command();
std::unique_ptr<Command> make_calibrate_command();

}  // namespace ppsbench::app
