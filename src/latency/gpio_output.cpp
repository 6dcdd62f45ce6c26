// SPDX-License-Identifier: GPL-2.0-or-later
// The drive end of the latency loopback. It uses libgpiod's C API rather than the C++ bindings
// that the GPIO source uses: in libgpiod 1.6, gpiod::line::set_value() builds a line_bulk and a
// std::vector for every call, which would put two heap allocations between the "drive" time
// stamp and the edge. gpiod_line_set_value() is one ioctl.
#include <fmt/format.h>
#include <gpiod.h>
#include <cerrno>
#include <charconv>

#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/output_line.hpp"

namespace ppsbench::latency {

namespace {

struct ChipCloser {
    void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
using ChipHandle = std::unique_ptr<gpiod_chip, ChipCloser>;

std::string name_of(const DriveSpec& spec) {
    return fmt::format("--drive {}:{}", spec.chip, spec.line);
}

class GpioOutput final : public OutputLine {
  public:
    explicit GpioOutput(const DriveSpec& spec) {
        const std::string what = name_of(spec);
        chip_.reset(gpiod_chip_open_lookup(spec.chip.c_str()));
        if (!chip_) {
            const int err = errno;
            throw core::InputError(
                err == EACCES || err == EPERM
                    ? fmt::format("{}: permission denied on the GPIO chip; run as root, or join "
                                  "the group owning /dev/gpiochip*",
                                  what)
                    : fmt::format("{}: no such GPIO chip '{}'; list chips with 'gpiodetect' and "
                                  "name one as gpiochip0, /dev/gpiochip0 or its label",
                                  what, spec.chip));
        }
        unsigned int offset = 0;
        const char* end = spec.line.data() + spec.line.size();
        const auto [ptr, ec] = std::from_chars(spec.line.data(), end, offset);
        line_ = ec == std::errc{} && ptr == end
                    ? gpiod_chip_get_line(chip_.get(), offset)
                    : gpiod_chip_find_line(chip_.get(), spec.line.c_str());
        if (line_ == nullptr) {
            throw core::InputError(fmt::format(
                "{}: chip {} has no line '{}' (it has {} lines); check with 'gpioinfo {}'", what,
                gpiod_chip_name(chip_.get()), spec.line, gpiod_chip_num_lines(chip_.get()),
                gpiod_chip_name(chip_.get())));
        }
        if (gpiod_line_is_used(line_)) {
            const char* consumer = gpiod_line_consumer(line_);
            throw core::InputError(
                fmt::format("{}: the line is busy (used by '{}'); free it or drive another line",
                            what, consumer != nullptr ? consumer : "the kernel"));
        }
        if (gpiod_line_request_output(line_, "ppsbench-drive", 0) != 0) {
            const int err = errno;
            throw core::InputError(fmt::format(
                "{}: cannot request the line as an output: {}{}", what, core::errno_message(err),
                err == EACCES || err == EPERM ? "; run as root or join the GPIO group" : ""));
        }
        const char* name = gpiod_line_name(line_);
        details_ = {{"chip", gpiod_chip_name(chip_.get())},
                    {"chip_label", gpiod_chip_label(chip_.get())},
                    {"line_offset", gpiod_line_offset(line_)},
                    {"line_name", name != nullptr ? name : ""}};
        what_ = what;
    }

    ~GpioOutput() override {
        if (line_ != nullptr) {
            gpiod_line_release(line_);  // the chip handle closes after this
        }
    }

    void set(bool high) override {
        if (gpiod_line_set_value(line_, high ? 1 : 0) != 0) {
            throw core::MeasurementError(fmt::format("{}: setting the line failed mid-run: {}",
                                                     what_, core::errno_message(errno)));
        }
    }

    nlohmann::json details() const override { return details_; }

  private:
    ChipHandle chip_;
    gpiod_line* line_ = nullptr;  // owned by chip_; released in the destructor
    nlohmann::json details_;
    std::string what_;
};

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

std::unique_ptr<OutputLine> open_gpio_output(const DriveSpec& spec) {
    return std::make_unique<GpioOutput>(spec);
}

}  // namespace ppsbench::latency
