// SPDX-License-Identifier: GPL-2.0-or-later
// The drive end of the latency loopback through libgpiod 2 (uAPI v2), built when pkg-config
// finds libgpiod >= 2 (CMakeLists.txt). libgpiod's C API, not its C++ bindings: the bindings'
// line_request::set_value() builds std::vectors on every call, which would put heap allocations
// between the "drive" time stamp and the edge; gpiod_line_request_set_value() is one ioctl and
// no allocation. Every handle is a unique_ptr.
#include <gpiod.h>
#include <cerrno>
#include <memory>

#include "gpio_output.hpp"
#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::latency {

namespace {

template <auto Free>
struct DriveFree {
    template <typename T>
    void operator()(T* handle) const {
        Free(handle);
    }
};
using DriveChip = std::unique_ptr<gpiod_chip, DriveFree<gpiod_chip_close>>;
using DriveChipInfo = std::unique_ptr<gpiod_chip_info, DriveFree<gpiod_chip_info_free>>;
using DriveLineInfo = std::unique_ptr<gpiod_line_info, DriveFree<gpiod_line_info_free>>;
using DriveSettings = std::unique_ptr<gpiod_line_settings, DriveFree<gpiod_line_settings_free>>;
using DriveConfig = std::unique_ptr<gpiod_line_config, DriveFree<gpiod_line_config_free>>;
using DriveRequestConfig =
    std::unique_ptr<gpiod_request_config, DriveFree<gpiod_request_config_free>>;
using DriveRequest = std::unique_ptr<gpiod_line_request, DriveFree<gpiod_line_request_release>>;

class GpioOutput final : public OutputLine {
  public:
    explicit GpioOutput(const DriveSpec& spec) : what_(drive_name(spec)) {
        const capture::GpioChipLookup found = capture::find_gpio_chip(spec.chip);
        if (found.node.empty()) {
            throw core::InputError(drive_chip_error(spec, found.error));
        }
        chip_.reset(gpiod_chip_open(found.node.c_str()));
        const DriveChipInfo info(chip_ ? gpiod_chip_get_info(chip_.get()) : nullptr);
        if (!info) {
            throw core::InputError(drive_chip_error(spec, errno));
        }
        const std::string chip_name = gpiod_chip_info_get_name(info.get());
        find_free_line(spec, chip_name, gpiod_chip_info_get_num_lines(info.get()));
        if (const int err = request_output(); err != 0) {
            throw core::InputError(drive_request_error(what_, err));
        }
        details_["chip"] = chip_name;
        details_["chip_label"] = gpiod_chip_info_get_label(info.get());
        details_["line_offset"] = offset_;
        details_["uapi"] = "v2";
    }

    void set(bool high) override {
        const gpiod_line_value value = high ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
        if (gpiod_line_request_set_value(request_.get(), offset_, value) != 0) {
            throw core::MeasurementError(drive_set_error(what_, errno));
        }
    }

    nlohmann::json details() const override { return details_; }

  private:
    // The line by offset or name, refused when absent or in use; its name for the metadata.
    void find_free_line(const DriveSpec& spec, const std::string& chip_name, std::size_t lines) {
        const auto number = capture::gpio_line_offset(spec.line);
        int offset = -1;
        if (!number) {
            offset = gpiod_chip_get_line_offset_from_name(chip_.get(), spec.line.c_str());
        } else if (*number < lines) {
            offset = static_cast<int>(*number);
        }
        if (offset < 0) {
            throw core::InputError(drive_no_line_error(what_, chip_name, spec.line, lines));
        }
        offset_ = static_cast<unsigned int>(offset);
        const DriveLineInfo info(gpiod_chip_get_line_info(chip_.get(), offset_));
        if (!info) {
            throw core::InputError(drive_request_error(what_, errno));
        }
        if (gpiod_line_info_is_used(info.get())) {
            const char* consumer = gpiod_line_info_get_consumer(info.get());
            throw core::InputError(drive_busy_error(what_, consumer != nullptr ? consumer : ""));
        }
        const char* name = gpiod_line_info_get_name(info.get());
        details_["line_name"] = name != nullptr ? name : "";
    }

    // Requests the line as an output, driven low first: 0, or the errno that refused it.
    int request_output() {
        const DriveSettings settings(gpiod_line_settings_new());
        const DriveConfig config(gpiod_line_config_new());
        const DriveRequestConfig request_config(gpiod_request_config_new());
        if (!settings || !config || !request_config) {
            return ENOMEM;
        }
        gpiod_line_settings_set_direction(settings.get(), GPIOD_LINE_DIRECTION_OUTPUT);
        gpiod_line_settings_set_output_value(settings.get(), GPIOD_LINE_VALUE_INACTIVE);
        if (gpiod_line_config_add_line_settings(config.get(), &offset_, 1, settings.get()) != 0) {
            return errno;
        }
        gpiod_request_config_set_consumer(request_config.get(), "ppsbench-drive");
        request_.reset(gpiod_chip_request_lines(chip_.get(), request_config.get(), config.get()));
        return request_ ? 0 : errno;  // read before the handles above are freed
    }

    std::string what_;
    DriveChip chip_;
    DriveRequest request_;  // released before the chip closes
    unsigned int offset_ = 0;
    nlohmann::json details_ = nlohmann::json::object();
};

}  // namespace

std::unique_ptr<OutputLine> open_gpio_output(const DriveSpec& spec) {
    return std::make_unique<GpioOutput>(spec);
}

}  // namespace ppsbench::latency
