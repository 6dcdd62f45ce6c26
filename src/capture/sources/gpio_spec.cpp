// SPDX-License-Identifier: GPL-2.0-or-later
#include "gpio_spec.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <charconv>

#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

GpioLineSpec parse_gpio_spec(std::string_view rest) {
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
        throw core::UsageError(
            fmt::format("--source gpio:{}: expected gpio:CHIP:LINE, e.g. gpio:gpiochip0:17", rest));
    }
    return {std::string(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
}

GpioBias parse_gpio_bias(const std::string& bias, const std::string& spec) {
    if (bias.empty() || bias == "as-is") {
        return GpioBias::as_is;
    }
    if (bias == "pull-up") {
        return GpioBias::pull_up;
    }
    if (bias == "pull-down") {
        return GpioBias::pull_down;
    }
    if (bias == "disable") {
        return GpioBias::disable;
    }
    throw core::UsageError(
        fmt::format("{}: --bias {}: use as-is, pull-up, pull-down or disable", spec, bias));
}

std::string gpio_chip_error(const std::string& who, int err) {
    if (err == EACCES || err == EPERM) {
        return fmt::format(
            "{}: permission denied; run as root, or add your user to the group owning "
            "/dev/gpiochip* (often 'gpio' or 'plugdev')",
            who);
    }
    return fmt::format(
        "{}: no such GPIO chip ({}); list chips with 'gpiodetect' and name one as "
        "gpiochip0, /dev/gpiochip0 or its label",
        who, core::errno_message(err));
}

std::string gpio_no_line_error(const std::string& spec, const std::string& chip,
                               const std::string& line, std::size_t lines) {
    return fmt::format(
        "{}: chip {} has no line '{}' (it has {} lines); check the offset with 'gpioinfo {}'", spec,
        chip, line, lines, chip);
}

std::string gpio_busy_error(const std::string& spec, std::string_view consumer) {
    return fmt::format(
        "{}: the line is busy (used by '{}'); stop that user (a pps-gpio overlay on the same "
        "pin, or another program) or wire the signal to a free line",
        spec, consumer.empty() ? "the kernel" : consumer);
}

std::string gpio_request_error(const std::string& spec, std::string_view what, int err) {
    if (err == EBUSY) {
        return fmt::format("{}: the line is busy; another program holds it", spec);
    }
    return fmt::format("{}: cannot request {}: {}{}", spec, what, core::errno_message(err),
                       err == EACCES || err == EPERM ? "; run as root or join the GPIO group" : "");
}

std::optional<std::string> gpio_chip_node(std::string_view chip) {
    const auto digits = [](std::string_view text) {
        return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (digits(chip)) {
        return fmt::format("/dev/gpiochip{}", chip);
    }
    if (chip.starts_with("gpiochip") && digits(chip.substr(8))) {
        return fmt::format("/dev/{}", chip);
    }
    if (chip.find('/') != std::string_view::npos) {
        return std::string(chip);
    }
    return std::nullopt;
}

std::optional<unsigned int> gpio_line_offset(std::string_view line) {
    unsigned int offset = 0;
    const char* end = line.data() + line.size();
    const auto [ptr, ec] = std::from_chars(line.data(), end, offset);
    if (line.empty() || ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return offset;
}

}  // namespace ppsbench::capture
