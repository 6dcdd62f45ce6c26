// SPDX-License-Identifier: GPL-2.0-or-later
#include "phc_device.hpp"

#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <cerrno>

#include "wait_readable.hpp"

namespace ppsbench::capture {

namespace {

template <typename T>
int call(int fd, unsigned long request, T* argument) {
    int rc = 0;
    do {
        rc = ::ioctl(fd, request, argument);
    } while (rc < 0 && errno == EINTR);
    return rc < 0 ? errno : 0;
}

}  // namespace

int PtpCharDevice::capabilities(ptp_clock_caps& caps) {
    return call(fd_.get(), PTP_CLOCK_GETCAPS2, &caps);
}

int PtpCharDevice::pin_function(ptp_pin_desc& pin) {
    return call(fd_.get(), PTP_PIN_GETFUNC2, &pin);
}

int PtpCharDevice::set_pin_function(const ptp_pin_desc& pin) {
    ptp_pin_desc copy = pin;
    return call(fd_.get(), PTP_PIN_SETFUNC2, &copy);
}

int PtpCharDevice::request_extts(const ptp_extts_request& request) {
    ptp_extts_request copy = request;
    return call(fd_.get(), PTP_EXTTS_REQUEST2, &copy);
}

int PtpCharDevice::precise_offset(ptp_sys_offset_precise& sample) {
    return call(fd_.get(), PTP_SYS_OFFSET_PRECISE2, &sample);
}

int PtpCharDevice::extended_offset(ptp_sys_offset_extended& sample) {
    return call(fd_.get(), PTP_SYS_OFFSET_EXTENDED2, &sample);
}

int PtpCharDevice::basic_offset(ptp_sys_offset& sample) {
    return call(fd_.get(), PTP_SYS_OFFSET2, &sample);
}

WaitResult PtpCharDevice::wait(core::Duration timeout) {
    // The PHC's poll reports POLLERR once the clock is unregistered (driver or NIC gone).
    return detail::wait_readable(fd_.get(), POLLIN, timeout);
}

long PtpCharDevice::read_events(std::span<ptp_extts_event> out) {
    ssize_t n = 0;
    do {
        n = ::read(fd_.get(), out.data(), out.size_bytes());
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return -errno;
    }
    // The kernel hands out whole records only.
    return static_cast<long>(static_cast<std::size_t>(n) / sizeof(ptp_extts_event));
}

}  // namespace ppsbench::capture
