// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/command_runner.hpp"

#include <chrono>

#include "ppsbench/core/process.hpp"

namespace ppsbench::sysinfo::detail {

std::optional<std::string> run_program(const std::vector<std::string>& argv) {
    if (argv.empty()) {
        return std::nullopt;
    }
    // `chronyd --version` and the like answer at once; a hung helper must not hang doctor.
    auto result = core::run_process(argv, std::chrono::seconds{5});
    if (result.spawn_error != 0 || result.timed_out || result.exit_code != 0) {
        return std::nullopt;
    }
    constexpr std::size_t max_output = 64U << 10;
    if (result.out.size() > max_output) {
        result.out.resize(max_output);
    }
    return result.out;
}

}  // namespace ppsbench::sysinfo::detail
