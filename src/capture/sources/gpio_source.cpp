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

// `who` names what was asked for: "gpio:CHIP" for a gpio: source, the spec for poll:.
std::string chip_error(const std::string& who, int err) {
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

// The chip and line `where` names, refused with the fix when absent or already in use.
void open_free_line(GpioSource::Line& line, const GpioLineSpec& where, const std::string& spec,
                    const std::string& who) {
    try {
        line.chip.open(where.chip, gpiod::chip::OPEN_LOOKUP);
    } catch (const std::system_error& e) {
        throw core::InputError(chip_error(who, e.code().value()));
    }
    if (!line.chip) {
        throw core::InputError(chip_error(who, ENOENT));
    }
    unsigned int offset = 0;
    const auto [ptr, ec] =
        std::from_chars(where.line.data(), where.line.data() + where.line.size(), offset);
    const bool numeric = ec == std::errc{} && ptr == where.line.data() + where.line.size();
    try {
        line.line = numeric ? line.chip.get_line(offset) : line.chip.find_line(where.line);
    } catch (const std::exception&) {
        line.line = gpiod::line();
    }
    if (!line.line) {
        throw core::InputError(fmt::format(
            "{}: chip {} has no line '{}' (it has {} lines); check the offset with 'gpioinfo {}'",
            spec, line.chip.name(), where.line, line.chip.num_lines(), line.chip.name()));
    }
    if (line.line.is_used()) {
        const auto consumer = line.line.consumer();
        throw core::InputError(fmt::format(
            "{}: the line is busy (used by '{}'); stop that user (a pps-gpio overlay on the same "
            "pin, or another program) or wire the signal to a free line",
            spec, consumer.empty() ? "the kernel" : consumer));
    }
}

// A line requested as an input, its value read on each call (poll:CHIP:LINE): in libgpiod 1.6
// one GPIOHANDLE_GET_LINE_VALUES ioctl per read.
class GpioLevelReader final : public detail::LevelReader {
  public:
    // The line's bias is left as it is: the PPS signal driving it needs none.
    GpioLevelReader(const std::string& spec, const GpioLineSpec& where) {
        open_free_line(line_, where, spec, spec);
        try {
            line_.line.request({"ppsbench-poll", gpiod::line_request::DIRECTION_INPUT, 0});
        } catch (const std::system_error& e) {
            const int err = e.code().value();
            throw core::InputError(fmt::format(
                "{}: cannot request the line as an input: {}{}", spec, core::errno_message(err),
                err == EACCES || err == EPERM ? "; run as root or join the GPIO group" : ""));
        }
    }
    bool level() override { return line_.line.get_value() != 0; }

  private:
    GpioSource::Line line_;
};

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
    open_free_line(*line_, where, info_.spec, "gpio:" + where.chip);
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

std::unique_ptr<detail::LevelReader> open_gpio_level_reader(const std::string& spec,
                                                            const GpioLineSpec& line) {
    return std::make_unique<GpioLevelReader>(spec, line);
}

WaitResult GpioSource::wait(core::Duration timeout) {
    return reader_->wait(timeout);
}

std::size_t GpioSource::read(std::span<core::Pulse> out) {
    return reader_->read(out, info_.spec);
}

}  // namespace ppsbench::capture
