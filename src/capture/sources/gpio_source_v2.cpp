// SPDX-License-Identifier: GPL-2.0-or-later
// The gpio: source and the poll:CHIP:LINE level reader through libgpiod 2 (uAPI v2), built when
// pkg-config finds libgpiod >= 2 (CMakeLists.txt). libgpiod's C API, not its C++ bindings: the
// bindings' line_request::get_value() builds std::vectors on every call, and the poll: reader
// calls it in its timed loop; gpiod_line_request_get_value() is one ioctl and no allocation (the
// latency drive line uses the C API for the same reason). Every handle is a unique_ptr.
#include <fmt/format.h>
#include <gpiod.h>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>

#include "gpio_source.hpp"
#include "gpio_v2_event_reader.hpp"
#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

namespace ppsbench::capture {

// libgpiod's handles, each freed by its own function. In a named namespace, not an anonymous one:
// the source's Impl holds them (a unity build compiles this file into a batch, not as its own
// unit, and GCC refuses an external class with members of internal types there).
namespace gpiod_v2 {

template <auto Free>
struct Freed {
    template <typename T>
    void operator()(T* handle) const {
        Free(handle);
    }
};
using Chip = std::unique_ptr<gpiod_chip, Freed<gpiod_chip_close>>;
using ChipInfo = std::unique_ptr<gpiod_chip_info, Freed<gpiod_chip_info_free>>;
using LineInfo = std::unique_ptr<gpiod_line_info, Freed<gpiod_line_info_free>>;
using LineSettings = std::unique_ptr<gpiod_line_settings, Freed<gpiod_line_settings_free>>;
using LineConfig = std::unique_ptr<gpiod_line_config, Freed<gpiod_line_config_free>>;
using RequestConfig = std::unique_ptr<gpiod_request_config, Freed<gpiod_request_config_free>>;
using LineRequest = std::unique_ptr<gpiod_line_request, Freed<gpiod_line_request_release>>;

}  // namespace gpiod_v2

// An open chip and the free line on it that a spec names, then its request: the gpio:
// source's (with its event reader) and the poll: level reader's. The request is released
// before the chip closes (members go in reverse order).
struct GpioSource::Impl {
    gpiod_v2::Chip chip;
    std::string chip_name;  // "gpiochip0", as gpiodetect and gpioinfo name it
    std::string chip_label;
    unsigned int offset = 0;
    std::string line_name;
    gpiod_v2::LineRequest request;
    std::optional<GpioV2EventReader> reader;
};

namespace {

using V2Line = GpioSource::Impl;

void check_line_free(gpiod_chip* chip, V2Line& line, const std::string& spec) {
    const gpiod_v2::LineInfo info(gpiod_chip_get_line_info(chip, line.offset));
    if (!info) {
        throw core::InputError(gpio_request_error(spec, "the line's state", errno));
    }
    if (gpiod_line_info_is_used(info.get())) {
        const char* consumer = gpiod_line_info_get_consumer(info.get());
        throw core::InputError(gpio_busy_error(spec, consumer != nullptr ? consumer : ""));
    }
    const char* name = gpiod_line_info_get_name(info.get());
    line.line_name = name != nullptr ? name : "";
}

// The offset of a line named by number or by name; -1 when the chip has no such line.
int line_offset_on(gpiod_chip* chip, const std::string& line, std::size_t lines) {
    if (const auto number = gpio_line_offset(line)) {
        return *number < lines ? static_cast<int>(*number) : -1;
    }
    return gpiod_chip_get_line_offset_from_name(chip, line.c_str());
}

// The chip and line `where` names, refused with the fix when absent or already in use.
void open_free_line(V2Line& line, const GpioLineSpec& where, const std::string& spec,
                    const std::string& who) {
    const GpioChipLookup found = find_gpio_chip(where.chip);
    if (found.node.empty()) {
        throw core::InputError(gpio_chip_error(who, found.error));
    }
    line.chip.reset(gpiod_chip_open(found.node.c_str()));
    const gpiod_v2::ChipInfo info(line.chip ? gpiod_chip_get_info(line.chip.get()) : nullptr);
    if (!info) {
        throw core::InputError(gpio_chip_error(who, errno));
    }
    line.chip_name = gpiod_chip_info_get_name(info.get());
    line.chip_label = gpiod_chip_info_get_label(info.get());
    const std::size_t lines = gpiod_chip_info_get_num_lines(info.get());
    const int offset = line_offset_on(line.chip.get(), where.line, lines);
    if (offset < 0) {
        throw core::InputError(gpio_no_line_error(spec, line.chip_name, where.line, lines));
    }
    line.offset = static_cast<unsigned int>(offset);
    check_line_free(line.chip.get(), line, spec);
}

// One line requested with `settings`, or no request and the errno that refused it.
struct Requested {
    gpiod_v2::LineRequest request;
    int error = 0;
};
Requested request_line(const V2Line& line, gpiod_line_settings* settings, const char* consumer) {
    const gpiod_v2::LineConfig config(gpiod_line_config_new());
    const gpiod_v2::RequestConfig request_config(gpiod_request_config_new());
    if (!config || !request_config ||
        gpiod_line_config_add_line_settings(config.get(), &line.offset, 1, settings) != 0) {
        return {nullptr, errno};
    }
    gpiod_request_config_set_consumer(request_config.get(), consumer);
    gpiod_v2::LineRequest request(
        gpiod_chip_request_lines(line.chip.get(), request_config.get(), config.get()));
    const int error = request ? 0 : errno;
    return {std::move(request), error};
}

gpiod_v2::LineSettings new_settings(const std::string& spec) {
    gpiod_v2::LineSettings settings(gpiod_line_settings_new());
    if (!settings) {
        throw core::InputError(gpio_request_error(spec, "line settings", errno));
    }
    gpiod_line_settings_set_direction(settings.get(), GPIOD_LINE_DIRECTION_INPUT);
    return settings;
}

gpiod_line_edge v2_edge_detection(core::EdgeSelection edges) {
    switch (edges) {
        case core::EdgeSelection::assert_only:
            return GPIOD_LINE_EDGE_RISING;
        case core::EdgeSelection::clear_only:
            return GPIOD_LINE_EDGE_FALLING;
        case core::EdgeSelection::both:
            return GPIOD_LINE_EDGE_BOTH;
    }
    return GPIOD_LINE_EDGE_RISING;
}

gpiod_line_bias v2_bias(GpioBias bias) {
    switch (bias) {
        case GpioBias::as_is:
            return GPIOD_LINE_BIAS_AS_IS;
        case GpioBias::pull_up:
            return GPIOD_LINE_BIAS_PULL_UP;
        case GpioBias::pull_down:
            return GPIOD_LINE_BIAS_PULL_DOWN;
        case GpioBias::disable:
            return GPIOD_LINE_BIAS_DISABLED;
    }
    return GPIOD_LINE_BIAS_AS_IS;
}

// Edge events stamped on CLOCK_REALTIME, the clock /dev/pps stamps on, so a gpio: capture has a
// top of the second and pairs with a pps: one. Kernels before 5.11 refuse that flag (EINVAL):
// the request is made again on CLOCK_MONOTONIC, and the source says so once, here at open.
Requested request_edge_events(const V2Line& line, gpiod_line_settings* settings,
                              const std::string& spec, core::ClockId& clock) {
    gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_REALTIME);
    Requested requested = request_line(line, settings, "ppsbench");
    clock = core::ClockId::realtime;
    if (!requested.request && requested.error == EINVAL) {
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
        requested = request_line(line, settings, "ppsbench");
        clock = core::ClockId::monotonic;
        if (requested.request) {
            // Not through std::cerr's filter (the library does not rely on main's): the spec
            // is the user's, shown printable here.
            fmt::print(stderr,
                       "ppsbench: note: {}: this kernel cannot stamp line events on "
                       "CLOCK_REALTIME (Linux 5.11 can): stamped on CLOCK_MONOTONIC, so the "
                       "figures are detrended, with no phase against the second\n",
                       core::printable_utf8(spec));
        }
    }
    if (!requested.request) {
        throw core::InputError(gpio_request_error(spec, "edge events", requested.error));
    }
    return requested;
}

// A line requested as an input, its value read on each call (poll:CHIP:LINE): one
// GPIO_V2_LINE_GET_VALUES ioctl per read, no allocation.
class GpioLevelReader final : public detail::LevelReader {
  public:
    // The line's bias is left as it is: the PPS signal driving it needs none.
    GpioLevelReader(const std::string& spec, const GpioLineSpec& where) : spec_(spec) {
        open_free_line(line_, where, spec, spec);
        const gpiod_v2::LineSettings settings = new_settings(spec);
        Requested requested = request_line(line_, settings.get(), "ppsbench-poll");
        if (!requested.request) {
            throw core::InputError(
                gpio_request_error(spec, "the line as an input", requested.error));
        }
        line_.request = std::move(requested.request);
    }
    bool level() override {
        const gpiod_line_value value =
            gpiod_line_request_get_value(line_.request.get(), line_.offset);
        if (value == GPIOD_LINE_VALUE_ERROR) {
            throw core::MeasurementError(
                fmt::format("{}: reading the line's level failed mid-run: {}", spec_,
                            core::errno_message(errno)));
        }
        return value == GPIOD_LINE_VALUE_ACTIVE;
    }

  private:
    std::string spec_;
    V2Line line_;  // its reader unused: levels are read, not events
};

}  // namespace

GpioSource::GpioSource(std::string spec, const GpioLineSpec& where, const SourceOptions& options)
    : impl_(std::make_unique<Impl>()) {
    info_.spec = std::move(spec);
    info_.kind = "gpio";
    info_.edges = options.edges;
    info_.period = options.period;
    info_.paced = true;
    info_.host_hardware = true;
    const GpioBias bias = parse_gpio_bias(options.bias, info_.spec);
    open_free_line(*impl_, where, info_.spec, "gpio:" + where.chip);
    const gpiod_v2::LineSettings settings = new_settings(info_.spec);
    gpiod_line_settings_set_edge_detection(settings.get(), v2_edge_detection(options.edges));
    gpiod_line_settings_set_bias(settings.get(), v2_bias(bias));
    impl_->request = request_edge_events(*impl_, settings.get(), info_.spec, info_.clock).request;
    const V2Line& line = *impl_;
    const bool realtime = info_.clock == core::ClockId::realtime;
    info_.details = {
        {"chip", line.chip_name},
        {"chip_label", line.chip_label},
        {"line_offset", line.offset},
        {"line_name", line.line_name},
        {"bias", options.bias.empty() ? "as-is" : options.bias},
        {"uapi", "v2"},
        {"event_clock", realtime ? "realtime" : "monotonic"},
        {"sequence", options.edges == core::EdgeSelection::both
                         ? "kernel line sequence numbers (uAPI v2), shared by both edges: split "
                           "per edge by alternation"
                         : "kernel line sequence numbers (uAPI v2)"}};
    impl_->reader.emplace(gpiod_line_request_get_fd(impl_->request.get()), options.edges);
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
