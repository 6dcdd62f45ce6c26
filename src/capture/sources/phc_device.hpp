// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <linux/ptp_clock.h>
#include <cstdint>
#include <span>
#include <string>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::capture {

// The PTP hardware clock's character device (linux/ptp_clock.h), reduced to what the PTP source
// needs. An interface because there are two: the real ioctls on /dev/ptpN, and the recorded
// event streams the tests replay where no PHC exists (tests/capture/ptp_source_test.cpp).
// Every call returns 0 or an errno value: the source turns errno into the user's message.
class PhcDevice {
  public:
    virtual ~PhcDevice() = default;
    PhcDevice() = default;
    PhcDevice(const PhcDevice&) = delete;
    PhcDevice& operator=(const PhcDevice&) = delete;

    virtual int capabilities(ptp_clock_caps& caps) = 0;                // PTP_CLOCK_GETCAPS2
    virtual int pin_function(ptp_pin_desc& pin) = 0;                   // PTP_PIN_GETFUNC2
    virtual int set_pin_function(const ptp_pin_desc& pin) = 0;         // PTP_PIN_SETFUNC2
    virtual int request_extts(const ptp_extts_request& request) = 0;   // PTP_EXTTS_REQUEST2
    virtual int precise_offset(ptp_sys_offset_precise& sample) = 0;    // PTP_SYS_OFFSET_PRECISE2
    virtual int extended_offset(ptp_sys_offset_extended& sample) = 0;  // ..._EXTENDED2
    virtual int basic_offset(ptp_sys_offset& sample) = 0;              // PTP_SYS_OFFSET2
    // Blocks until events are readable, a signal or the timeout.
    virtual WaitResult wait(core::Duration timeout) = 0;
    // read(2) of whole ptp_extts_event records; the count, or −errno.
    virtual long read_events(std::span<ptp_extts_event> out) = 0;
};

// /dev/ptpN itself. Opening is left to the caller so it can word the error.
class PtpCharDevice final : public PhcDevice {
  public:
    explicit PtpCharDevice(core::UniqueFd fd) : fd_(std::move(fd)) {}

    int capabilities(ptp_clock_caps& caps) override;
    int pin_function(ptp_pin_desc& pin) override;
    int set_pin_function(const ptp_pin_desc& pin) override;
    int request_extts(const ptp_extts_request& request) override;
    int precise_offset(ptp_sys_offset_precise& sample) override;
    int extended_offset(ptp_sys_offset_extended& sample) override;
    int basic_offset(ptp_sys_offset& sample) override;
    WaitResult wait(core::Duration timeout) override;
    long read_events(std::span<ptp_extts_event> out) override;

  private:
    core::UniqueFd fd_;
};

}  // namespace ppsbench::capture
