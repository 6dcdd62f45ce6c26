// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace ppsbench::core {

// Exit codes are part of the command-line contract (docs/cli.md).
enum class ExitCode : int { ok = 0, failed = 1, bad_input = 2 };

// Every error ppsbench raises names the thing that is wrong (device, file and line, option) and
// what to do about it, in one line. Only main() catches these and maps them to exit codes.
class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    virtual ExitCode exit_code() const noexcept = 0;
};

// Bad command line or option value. Exit 2.
class UsageError : public Error {
  public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::bad_input; }
};

// Bad input: a device that cannot be opened or used, a malformed file, an unwritable path.
// Exit 2.
class InputError : public Error {
  public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::bad_input; }
};

// A measurement that started but could not complete (device vanished, disk full mid-run).
// Whatever was captured is kept. Exit 1.
class MeasurementError : public Error {
  public:
    using Error::Error;
    ExitCode exit_code() const noexcept override { return ExitCode::failed; }
};

// "what failed: strerror(errno)"; for the errno -> message mapping in one place.
std::string errno_message(int err);

}  // namespace ppsbench::core
