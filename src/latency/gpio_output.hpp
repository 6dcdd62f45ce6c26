// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: what latency's drive line says whichever libgpiod backend is built
// (gpio_output_v1.cpp for libgpiod 1.6, gpio_output_v2.cpp for 2.x): one line each, naming the
// --drive spec and the fix, the same on both releases.

#include <string>
#include <string_view>

#include "ppsbench/latency/output_line.hpp"

namespace ppsbench::latency {

std::string drive_name(const DriveSpec& spec);  // "--drive gpiochip0:17"
std::string drive_chip_error(const DriveSpec& spec, int err);
std::string drive_no_line_error(const std::string& what, const std::string& chip,
                                const std::string& line, std::size_t lines);
std::string drive_busy_error(const std::string& what, std::string_view consumer);
std::string drive_request_error(const std::string& what, int err);
std::string drive_set_error(const std::string& what, int err);

}  // namespace ppsbench::latency
