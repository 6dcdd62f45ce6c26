// SPDX-License-Identifier: GPL-2.0-or-later
#include "pps_device_source.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/timepps.h>
#include <unistd.h>
#include <cerrno>
#include <ctime>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

std::string pps_open_error(const std::string& device, int err) {
    switch (err) {
        case ENOENT:
            return fmt::format(
                "{}: no such PPS device; check that a PPS driver is loaded (ls /sys/class/pps/; "
                "for a GPIO pin: dtoverlay=pps-gpio or modprobe pps-gpio) and the path",
                device);
        case EACCES:
        case EPERM:
            return fmt::format(
                "{}: permission denied; run as root, or add a udev rule such as "
                "KERNEL==\"pps[0-9]*\", GROUP=\"dialout\", MODE=\"0660\" and join that group",
                device);
        default:
            return fmt::format("{}: cannot open: {}", device, core::errno_message(err));
    }
}

std::int64_t to_ns(const timespec& ts) {
    return static_cast<std::int64_t>(ts.tv_sec) * core::ns_per_second + ts.tv_nsec;
}

int capture_bits(core::EdgeSelection edges) {
    switch (edges) {
        case core::EdgeSelection::assert_only:
            return PPS_CAPTUREASSERT;
        case core::EdgeSelection::clear_only:
            return PPS_CAPTURECLEAR;
        case core::EdgeSelection::both:
            return PPS_CAPTUREBOTH;
    }
    return PPS_CAPTUREASSERT;
}

}  // namespace

PpsDeviceSource::PpsDeviceSource(std::string spec, std::string device, const SourceOptions& options)
    : device_(std::move(device)) {
    info_.spec = std::move(spec);
    info_.kind = "pps";
    info_.clock = core::ClockId::realtime;
    info_.edges = options.edges;
    info_.period = options.period;
    info_.paced = true;
    info_.host_hardware = true;
    info_.pps_device = device_;
    info_.details = {{"device", device_}};

    // A failed open below throws: fd_ closes the device as the constructor unwinds.
    fd_.reset(::open(device_.c_str(), O_RDWR | O_CLOEXEC));
    if (!fd_.valid() && (errno == EACCES || errno == EROFS)) {
        // Fetching needs no write access.
        fd_.reset(::open(device_.c_str(), O_RDONLY | O_CLOEXEC));
    }
    if (!fd_.valid()) {
        throw core::InputError(pps_open_error(device_, errno));
    }
    struct stat st {};
    pps_handle_t handle = fd_.get();
    if (::fstat(fd_.get(), &st) != 0 || !S_ISCHR(st.st_mode) ||
        time_pps_create(fd_.get(), &handle) != 0) {
        throw core::InputError(fmt::format(
            "{}: not a PPS device (the PPS_GETPARAMS ioctl failed); name a /dev/ppsN device "
            "(ls /sys/class/pps/)",
            device_));
    }

    int caps = 0;
    if (time_pps_getcap(fd_.get(), &caps) != 0) {
        const int err = errno;
        throw core::InputError(
            fmt::format("{}: cannot read PPS capabilities: {}", device_, core::errno_message(err)));
    }
    const auto fail = [](const std::string& message) { throw core::InputError(message); };
    if ((caps & PPS_CANWAIT) == 0) {
        fail(fmt::format(
            "{}: the driver cannot wait for events (PPS_CANWAIT missing), so capturing would "
            "mean polling; use a driver that supports it (pps-gpio, pps-ldisc, pps-ktimer do)",
            device_));
    }
    const int wanted = capture_bits(options.edges);
    if ((caps & wanted) != wanted) {
        fail(fmt::format("{}: the device cannot capture the {} edge; use --edge {}", device_,
                         core::to_string(options.edges),
                         (caps & PPS_CAPTUREASSERT) != 0 ? "assert" : "clear"));
    }

    pps_params_t params{};
    if (time_pps_getparams(fd_.get(), &params) != 0) {
        const int err = errno;
        fail(fmt::format("{}: cannot read PPS parameters: {}", device_, core::errno_message(err)));
    }
    // Setting parameters needs CAP_SYS_TIME; skip it when the device already captures what we
    // want (chronyd usually set it up), so an unprivileged user in the right group can measure.
    if ((params.mode & wanted) != wanted) {
        params.mode |= wanted | PPS_TSFMT_TSPEC;
        if (time_pps_setparams(fd_.get(), &params) != 0) {
            const int err = errno;
            fail(err == EPERM || err == EACCES
                     ? fmt::format("{}: enabling {} capture needs CAP_SYS_TIME; run as root (or "
                                   "start chronyd with this refclock first)",
                                   device_, core::to_string(options.edges))
                     : fmt::format("{}: cannot set PPS parameters: {}", device_,
                                   core::errno_message(err)));
        }
    }
    info_.details["capabilities"] = caps;
    opened_ns_ = core::realtime_now_ns();
}

PpsDeviceSource::~PpsDeviceSource() {
    if (fd_.valid()) {
        time_pps_destroy(fd_.release());  // RFC 2783's close
    }
}

WaitResult PpsDeviceSource::wait(core::Duration timeout) {
    if (ready_count_ > 0) {
        return WaitResult::ready;
    }
    const auto ns = timeout.count();
    const timespec limit{static_cast<time_t>(ns / core::ns_per_second),
                         static_cast<long>(ns % core::ns_per_second)};
    if (ns > 0) {
        // A waiting PPS_FETCH returns at the *next* event: one that arrived since the last
        // fetch (before this call) would be passed over, so look at the current state first.
        // `latency` drives an edge and then waits; a fast hard-IRQ path has often stamped it
        // by then (found by the lab's jumper wire, where every such edge went unseen).
        if (const auto now = fetch(timespec{0, 0}); now == WaitResult::ready) {
            return now;
        }
    }
    return fetch(limit);
}

bool PpsDeviceSource::vanished() const {
    struct stat open_device {};
    struct stat named {};
    if (::fstat(fd_.get(), &open_device) != 0) {
        return false;  // cannot tell; the next fetch reports a broken fd itself
    }
    return ::stat(device_.c_str(), &named) != 0 || named.st_rdev != open_device.st_rdev;
}

WaitResult PpsDeviceSource::fetch(const timespec& limit) {
    pps_info_t fetched{};
    // Blocks in the kernel (PPS_FETCH) until the next edge, a signal or the timeout.
    if (time_pps_fetch(fd_.get(), PPS_TSFMT_TSPEC, &fetched, &limit) != 0) {
        const int err = errno;
        if (err == ETIMEDOUT) {
            // The kernel does not wake a waiting reader when the device is unregistered (its
            // driver unloaded): the fd stays valid and every fetch simply times out. So a quiet
            // second is also the moment to check that the device node is still this device.
            if (vanished()) {
                throw core::MeasurementError(fmt::format(
                    "{}: the device disappeared mid-run (its driver was unloaded or the device "
                    "removed); the pulses captured so far are kept",
                    device_));
            }
            return WaitResult::timeout;
        }
        if (err == EINTR) {
            return WaitResult::interrupted;
        }
        throw core::MeasurementError(
            fmt::format("{}: the device failed mid-run ({}); the pulses captured so far are kept",
                        device_, core::errno_message(err)));
    }
    const auto assert_seq = static_cast<std::uint64_t>(fetched.assert_sequence);
    const auto clear_seq = static_cast<std::uint64_t>(fetched.clear_sequence);
    const bool want_assert = core::selects(info_.edges, core::Edge::assert_edge);
    const bool want_clear = core::selects(info_.edges, core::Edge::clear_edge);
    // Newer kernels answer the first fetch at once with the last edge seen, which may predate
    // the run; an edge older than the moment we opened the device is not part of the run.
    const auto fresh = [this](const timespec& ts) { return to_ns(ts) >= opened_ns_; };
    if (want_assert && assert_seq != last_assert_ && fresh(fetched.assert_timestamp)) {
        ready_[ready_count_++] = {assert_seq, to_ns(fetched.assert_timestamp),
                                  core::Edge::assert_edge};
    }
    if (want_clear && clear_seq != last_clear_ && fresh(fetched.clear_timestamp)) {
        ready_[ready_count_++] = {clear_seq, to_ns(fetched.clear_timestamp),
                                  core::Edge::clear_edge};
    }
    last_assert_ = assert_seq;
    last_clear_ = clear_seq;
    if (ready_count_ == 2 && ready_[1].timestamp_ns < ready_[0].timestamp_ns) {
        std::swap(ready_[0], ready_[1]);  // keep capture order = time order
    }
    // An edge we do not capture woke us: report a timeout-free "nothing" as interrupted so the
    // loop simply waits again (it re-checks its deadline first).
    return ready_count_ > 0 ? WaitResult::ready : WaitResult::interrupted;
}

std::size_t PpsDeviceSource::read(std::span<core::Pulse> out) {
    const std::size_t n = std::min(out.size(), ready_count_);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = ready_[i];
    }
    // Keep any pulse that did not fit (out.size() == 1 with two edges ready).
    for (std::size_t i = n; i < ready_count_; ++i) {
        ready_[i - n] = ready_[i];
    }
    ready_count_ -= n;
    return n;
}

}  // namespace ppsbench::capture
