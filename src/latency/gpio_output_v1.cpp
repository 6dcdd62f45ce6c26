// SPDX-License-Identifier: GPL-2.0-or-later
// The drive end of the latency loopback through libgpiod 1.6 (uAPI v1), built when pkg-config
// finds libgpiod < 2 (CMakeLists.txt). It uses libgpiod's C API rather than the C++ bindings
// that the GPIO source uses: in libgpiod 1.6, gpiod::line::set_value() builds a line_bulk and a
// std::vector for every call, which would put two heap allocations between the "drive" time
// stamp and the edge. gpiod_line_set_value() is one ioctl.
#include <gpiod.h>
#include <cerrno>
#include <memory>

#include "gpio_output.hpp"
#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {

namespace {

struct V1ChipCloser {
    void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
using V1Chip = std::unique_ptr<gpiod_chip, V1ChipCloser>;

class GpioOutput final : public OutputLine {
  public:
    explicit GpioOutput(const DriveSpec& spec) : what_(drive_name(spec)) {
        chip_.reset(gpiod_chip_open_lookup(spec.chip.c_str()));
        if (!chip_) {
            throw core::InputError(drive_chip_error(spec, errno));
        }
        const auto offset = capture::gpio_line_offset(spec.line);
        line_ = offset ? gpiod_chip_get_line(chip_.get(), *offset)
                       : gpiod_chip_find_line(chip_.get(), spec.line.c_str());
        if (line_ == nullptr) {
            throw core::InputError(drive_no_line_error(
                what_, gpiod_chip_name(chip_.get()), spec.line, gpiod_chip_num_lines(chip_.get())));
        }
        if (gpiod_line_is_used(line_)) {
            const char* consumer = gpiod_line_consumer(line_);
            throw core::InputError(drive_busy_error(what_, consumer != nullptr ? consumer : ""));
        }
        if (gpiod_line_request_output(line_, "ppsbench-drive", 0) != 0) {
            throw core::InputError(drive_request_error(what_, errno));
        }
        const char* name = gpiod_line_name(line_);
        details_ = {{"chip", gpiod_chip_name(chip_.get())},
                    {"chip_label", gpiod_chip_label(chip_.get())},
                    {"line_offset", gpiod_line_offset(line_)},
                    {"line_name", name != nullptr ? name : ""},
                    {"uapi", "v1"}};
    }

    ~GpioOutput() override {
        if (line_ != nullptr && gpiod_line_is_requested(line_)) {
            gpiod_line_release(line_);  // the chip handle closes after this
        }
    }

    void set(bool high) override {
        if (gpiod_line_set_value(line_, high ? 1 : 0) != 0) {
            throw core::MeasurementError(drive_set_error(what_, errno));
        }
    }

    nlohmann::json details() const override { return details_; }

  private:
    std::string what_;
    V1Chip chip_;
    gpiod_line* line_ = nullptr;  // owned by chip_; released in the destructor
    nlohmann::json details_;
};

}  // namespace

std::unique_ptr<OutputLine> open_gpio_output(const DriveSpec& spec) {
    return std::make_unique<GpioOutput>(spec);
}

}  // namespace ppsbench::latency
