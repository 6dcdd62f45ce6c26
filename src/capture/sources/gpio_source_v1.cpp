// SPDX-License-Identifier: GPL-2.0-or-later
// The gpio: source and the poll:CHIP:LINE level reader through libgpiod 1.6's C++ bindings
// (uAPI v1), built when pkg-config finds libgpiod < 2 (CMakeLists.txt). Events are read raw from
// the line's fd by GpioEventReader: no allocation per edge.
#include <fmt/format.h>
#include <cerrno>
#include <gpiod.hpp>
#include <optional>
#include <system_error>

#include "gpio_event_reader.hpp"
#include "gpio_source.hpp"
#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

// One line's libgpiod handles, the line released before the chip closes: the gpio: source's
// (with its event reader) and the poll: level reader's. Outside the anonymous namespace: the
// source holds it (a unity build compiles this file into a batch, not as its own unit).
struct GpioSource::Impl {
    gpiod::chip chip;
    gpiod::line line;
    std::optional<GpioEventReader> reader;
    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl() {
        if (line && line.is_requested()) {
            line.release();
        }
    }
};

namespace {

std::bitset<32> v1_bias_flags(GpioBias bias) {
    switch (bias) {
        case GpioBias::as_is:
            return {};
        case GpioBias::pull_up:
            return gpiod::line_request::FLAG_BIAS_PULL_UP;
        case GpioBias::pull_down:
            return gpiod::line_request::FLAG_BIAS_PULL_DOWN;
        case GpioBias::disable:
            return gpiod::line_request::FLAG_BIAS_DISABLE;
    }
    return {};
}

int v1_request_type(core::EdgeSelection edges) {
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

// The chip and line `where` names, refused with the fix when absent or already in use. libgpiod
// 1.6 looks a chip up by name, path, number or label itself (OPEN_LOOKUP).
void open_free_line(GpioSource::Impl& line, const GpioLineSpec& where, const std::string& spec,
                    const std::string& who) {
    try {
        line.chip.open(where.chip, gpiod::chip::OPEN_LOOKUP);
    } catch (const std::system_error& e) {
        throw core::InputError(gpio_chip_error(who, e.code().value()));
    }
    if (!line.chip) {
        throw core::InputError(gpio_chip_error(who, ENOENT));
    }
    const auto offset = gpio_line_offset(where.line);
    try {
        line.line = offset ? line.chip.get_line(*offset) : line.chip.find_line(where.line);
    } catch (const std::exception&) {
        line.line = gpiod::line();
    }
    if (!line.line) {
        throw core::InputError(
            gpio_no_line_error(spec, line.chip.name(), where.line, line.chip.num_lines()));
    }
    if (line.line.is_used()) {
        throw core::InputError(gpio_busy_error(spec, line.line.consumer()));
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
            throw core::InputError(
                gpio_request_error(spec, "the line as an input", e.code().value()));
        }
    }
    bool level() override { return line_.line.get_value() != 0; }

  private:
    GpioSource::Impl line_;  // its reader unused: levels are read, not events
};

}  // namespace

GpioSource::GpioSource(std::string spec, const GpioLineSpec& where, const SourceOptions& options)
    : impl_(std::make_unique<Impl>()) {
    info_.spec = std::move(spec);
    info_.kind = "gpio";
    info_.clock = core::ClockId::monotonic;
    info_.edges = options.edges;
    info_.period = options.period;
    info_.paced = true;
    info_.host_hardware = true;
    const auto flags = v1_bias_flags(parse_gpio_bias(options.bias, info_.spec));
    GpioSource::Impl& line = *impl_;
    open_free_line(line, where, info_.spec, "gpio:" + where.chip);
    try {
        line.line.request({"ppsbench", v1_request_type(options.edges), flags});
    } catch (const std::system_error& e) {
        throw core::InputError(gpio_request_error(info_.spec, "edge events", e.code().value()));
    }
    info_.details = {{"chip", line.chip.name()},
                     {"chip_label", line.chip.label()},
                     {"line_offset", line.line.offset()},
                     {"line_name", line.line.name()},
                     {"bias", options.bias.empty() ? "as-is" : options.bias},
                     {"uapi", "v1"},
                     {"event_clock", "monotonic"},
                     {"sequence", "counted by ppsbench (uAPI v1 events carry none)"}};
    impl_->reader.emplace(line.line.event_get_fd(), options.edges);
}

GpioSource::~GpioSource() = default;

std::unique_ptr<detail::LevelReader> open_gpio_level_reader(const std::string& spec,
                                                            const GpioLineSpec& line) {
    return std::make_unique<GpioLevelReader>(spec, line);
}

WaitResult GpioSource::wait(core::Duration timeout) {
    return impl_->reader->wait(timeout);
}

std::size_t GpioSource::read(std::span<core::Pulse> out) {
    return impl_->reader->read(out, info_.spec);
}

}  // namespace ppsbench::capture
