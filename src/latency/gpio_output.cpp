// SPDX-License-Identifier: GPL-2.0-or-later
// The drive line's spec and messages, shared by its two libgpiod backends.
#include "gpio_output.hpp"

#include <fmt/format.h>
#include <cerrno>

#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {

namespace {

bool permission(int err) {
    return err == EACCES || err == EPERM;
}

}  // namespace

DriveSpec parse_drive_spec(std::string_view text) {
    std::string_view rest = text;
    if (rest.starts_with("gpio:")) {
        rest.remove_prefix(5);
    }
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
        throw core::UsageError(
            fmt::format("--drive '{}': expected CHIP:LINE, e.g. --drive gpiochip0:17", text));
    }
    return {std::string(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
}

std::string drive_name(const DriveSpec& spec) {
    return fmt::format("--drive {}:{}", spec.chip, spec.line);
}

std::string drive_chip_error(const DriveSpec& spec, int err) {
    return permission(err)
               ? fmt::format(
                     "{}: permission denied on the GPIO chip; run as root, or join the "
                     "group owning /dev/gpiochip*",
                     drive_name(spec))
               : fmt::format(
                     "{}: no such GPIO chip '{}'; list chips with 'gpiodetect' and name "
                     "one as gpiochip0, /dev/gpiochip0 or its label",
                     drive_name(spec), spec.chip);
}

std::string drive_no_line_error(const std::string& what, const std::string& chip,
                                const std::string& line, std::size_t lines) {
    return fmt::format("{}: chip {} has no line '{}' (it has {} lines); check with 'gpioinfo {}'",
                       what, chip, line, lines, chip);
}

std::string drive_busy_error(const std::string& what, std::string_view consumer) {
    return fmt::format("{}: the line is busy (used by '{}'); free it or drive another line", what,
                       consumer.empty() ? "the kernel" : consumer);
}

std::string drive_request_error(const std::string& what, int err) {
    return fmt::format("{}: cannot request the line as an output: {}{}", what,
                       core::errno_message(err),
                       permission(err) ? "; run as root or join the GPIO group" : "");
}

std::string drive_set_error(const std::string& what, int err) {
    return fmt::format("{}: setting the line failed mid-run: {}", what, core::errno_message(err));
}

}  // namespace ppsbench::latency
