// SPDX-License-Identifier: GPL-2.0-or-later
#include "gpio_source.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <charconv>
#include <gpiod.hpp>
#include <system_error>

#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

struct GpioSource::Line {
    gpiod::chip chip;
    gpiod::line line;
    ~Line() {
        if (line && line.is_requested()) {
            line.release();
        }
    }
};

namespace {

std::string chip_error(const std::string& chip, int err) {
    if (err == EACCES || err == EPERM) {
        return fmt::format(
            "gpio:{}: permission denied; run as root, or add your user to the group owning "
            "/dev/gpiochip* (often 'gpio' or 'plugdev')",
            chip);
    }
    return fmt::format(
        "gpio:{}: no such GPIO chip ({}); list chips with 'gpiodetect' and name one as "
        "gpiochip0, /dev/gpiochip0 or its label",
        chip, core::errno_message(err));
}

std::bitset<32> bias_flags(const std::string& bias, const std::string& spec) {
    if (bias.empty() || bias == "as-is") {
        return {};
    }
    if (bias == "pull-up") {
        return gpiod::line_request::FLAG_BIAS_PULL_UP;
    }
    if (bias == "pull-down") {
        return gpiod::line_request::FLAG_BIAS_PULL_DOWN;
    }
    if (bias == "disable") {
        return gpiod::line_request::FLAG_BIAS_DISABLE;
    }
    throw core::UsageError(
        fmt::format("{}: --bias {}: use as-is, pull-up, pull-down or disable", spec, bias));
}

int request_type(core::EdgeSelection edges) {
    switch (edges) {
        case core::EdgeSelection::assert_only:
            return gpiod::line_request::EVENT_RISING_EDGE;
        case core::EdgeSelection::clear_only:
            return gpiod::line_request::EVENT_FALLING_EDGE;
        case core::EdgeSelection::both:
            return gpiod::line_request::EVENT_BOTH_EDGES;
    }
    return gpiod::line_request::EVENT_RISING_EDGE;
}

}  // namespace

GpioLineSpec parse_gpio_spec(std::string_view rest) {
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
        throw core::UsageError(
            fmt::format("--source gpio:{}: expected gpio:CHIP:LINE, e.g. gpio:gpiochip0:17", rest));
    }
    return {std::string(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
}

GpioSource::GpioSource(std::string spec, const GpioLineSpec& where, const SourceOptions& options)
    : line_(std::make_unique<Line>()) {
    info_.spec = std::move(spec);
    info_.kind = "gpio";
    info_.clock = core::ClockId::monotonic;
    info_.edges = options.edges;
    info_.period = options.period;
    info_.paced = true;
    info_.host_hardware = true;
    const auto flags = bias_flags(options.bias, info_.spec);
    try {
        line_->chip.open(where.chip, gpiod::chip::OPEN_LOOKUP);
    } catch (const std::system_error& e) {
        throw core::InputError(chip_error(where.chip, e.code().value()));
    }
    if (!line_->chip) {
        throw core::InputError(chip_error(where.chip, ENOENT));
    }
    unsigned int offset = 0;
    const auto [ptr, ec] =
        std::from_chars(where.line.data(), where.line.data() + where.line.size(), offset);
    const bool numeric = ec == std::errc{} && ptr == where.line.data() + where.line.size();
    try {
        line_->line = numeric ? line_->chip.get_line(offset) : line_->chip.find_line(where.line);
    } catch (const std::exception&) {
        line_->line = gpiod::line();
    }
    if (!line_->line) {
        throw core::InputError(fmt::format(
            "{}: chip {} has no line '{}' (it has {} lines); check the offset with 'gpioinfo {}'",
            info_.spec, line_->chip.name(), where.line, line_->chip.num_lines(),
            line_->chip.name()));
    }
    if (line_->line.is_used()) {
        const auto consumer = line_->line.consumer();
        throw core::InputError(fmt::format(
            "{}: the line is busy (used by '{}'); stop that user (a pps-gpio overlay on the same "
            "pin, or another program) or wire the signal to a free line",
            info_.spec, consumer.empty() ? "the kernel" : consumer));
    }
    try {
        line_->line.request({"ppsbench", request_type(options.edges), flags});
    } catch (const std::system_error& e) {
        const int err = e.code().value();
        throw core::InputError(
            err == EBUSY
                ? fmt::format("{}: the line is busy; another program holds it", info_.spec)
                : fmt::format(
                      "{}: cannot request edge events: {}{}", info_.spec, core::errno_message(err),
                      err == EACCES || err == EPERM ? "; run as root or join the GPIO group" : ""));
    }
    info_.details = {{"chip", line_->chip.name()},
                     {"chip_label", line_->chip.label()},
                     {"line_offset", line_->line.offset()},
                     {"line_name", line_->line.name()},
                     {"bias", options.bias.empty() ? "as-is" : options.bias},
                     {"uapi", "v1"},
                     {"sequence", "counted by ppsbench (uAPI v1 events carry none)"}};
    reader_ = std::make_unique<GpioEventReader>(line_->line.event_get_fd(), options.edges);
}

GpioSource::~GpioSource() = default;

WaitResult GpioSource::wait(core::Duration timeout) {
    return reader_->wait(timeout);
}

std::size_t GpioSource::read(std::span<core::Pulse> out) {
    return reader_->read(out, info_.spec);
}

}  // namespace ppsbench::capture
