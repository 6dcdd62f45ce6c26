// SPDX-License-Identifier: GPL-2.0-or-later
#include "ptp_source.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <cerrno>

#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

constexpr std::array<std::string_view, 2> ptp_columns{"phc_offset_ns", "phc_offset_uncertainty_ns"};

// Seven EXTENDED samples: the narrowest window of a few is robust to one preempted read and
// costs a few µs once per batch.
constexpr unsigned offset_samples = 7;

std::string ptp_open_error(const std::string& device, int err) {
    switch (err) {
        case ENOENT:
        case ENODEV:
            return fmt::format(
                "{}: no such PTP hardware clock; list them with 'ls /sys/class/ptp/' or "
                "'ppsbench doctor' (a NIC's clock: 'ethtool -T IFACE' names its ptpN)",
                device);
        case EACCES:
        case EPERM:
            return fmt::format(
                "{}: permission denied; run as root, or add a udev rule such as "
                "KERNEL==\"ptp[0-9]*\", GROUP=\"dialout\", MODE=\"0660\" and join that group",
                device);
        default:
            return fmt::format("{}: cannot open: {}", device, core::errno_message(err));
    }
}

std::string busy_error(const std::string& what, unsigned channel, const PhcSharing& sharing) {
    return fmt::format(
        "{}: external-timestamp channel {} is busy{} or, on drivers such as igb, no pin is "
        "assigned to it; give pin=P to assign one, or stop the other user (often ts2phc: "
        "'systemctl stop ts2phc') for the measurement",
        what, channel,
        sharing.other_reader.empty() ? "" : fmt::format(" ({} runs)", sharing.other_reader));
}

unsigned extts_flags(core::Edge edge) {
    return PTP_ENABLE_FEATURE |
           (edge == core::Edge::assert_edge ? PTP_RISING_EDGE : PTP_FALLING_EDGE);
}

// A PHC's event does not say which edge it was on every kernel this runs on, so the source
// captures one edge.
core::Edge single_edge(const std::string& spec, core::EdgeSelection edges) {
    if (edges == core::EdgeSelection::both) {
        throw core::UsageError(fmt::format(
            "{}: --edge both: a PHC's events do not say which edge they were; capture one edge "
            "(--edge assert or --edge clear)",
            spec));
    }
    return edges == core::EdgeSelection::clear_only ? core::Edge::clear_edge
                                                    : core::Edge::assert_edge;
}

// The clock's capabilities, checked for the external-timestamp channel the spec names.
ptp_clock_caps channel_capabilities(PhcDevice& device, const PtpSpec& where) {
    const std::string& dev = where.device;
    ptp_clock_caps caps{};
    if (const int err = device.capabilities(caps); err != 0) {
        throw core::InputError(
            err == ENOTTY ? fmt::format("{}: not a PTP clock (PTP_CLOCK_GETCAPS2 failed); name a "
                                        "/dev/ptpN device (ls /sys/class/ptp/)",
                                        dev)
                          : fmt::format("{}: cannot read the clock's capabilities: {}", dev,
                                        core::errno_message(err)));
    }
    if (caps.n_ext_ts <= 0) {
        throw core::InputError(fmt::format(
            "{}: the clock has no external-timestamp channel (n_ext_ts = 0), so it cannot "
            "timestamp a PPS input; use a PHC with event pins (Intel i210/i226 SDP, the CM4/CM5 "
            "NIC's event pin), see 'ppsbench doctor'",
            dev));
    }
    if (where.channel >= static_cast<unsigned>(caps.n_ext_ts)) {
        throw core::InputError(fmt::format(
            "{}: extts={}: the clock has {} external-timestamp channel{} (0–{})", dev,
            where.channel, caps.n_ext_ts, caps.n_ext_ts == 1 ? "" : "s", caps.n_ext_ts - 1));
    }
    return caps;
}

// Before Linux 6.7 another reader (ts2phc) would take some of the events from the shared queue.
void check_sharing(const std::string& dev, const PhcSharing& sharing) {
    if (!sharing.other_reader.empty() && !sharing.per_reader_queues) {
        throw core::InputError(fmt::format(
            "{}: {} reads this host's PHC events, and before Linux 6.7 a PHC has one event queue "
            "for all readers, so each edge would reach only one of you; stop ts2phc for the "
            "measurement (on 6.7 and later each reader gets every event)",
            dev, sharing.other_reader));
    }
}

std::string extts_error(int err, const std::string& dev, unsigned channel, core::Edge edge,
                        const PhcSharing& sharing) {
    switch (err) {
        case EBUSY:
            return busy_error(dev, channel, sharing);
        case EPERM:
        case EACCES:
            return fmt::format(
                "{}: enabling external timestamps needs write access to the device; run as root",
                dev);
        case ENOTTY:
            return fmt::format(
                "{}: the kernel lacks PTP_EXTTS_REQUEST2 (Linux 5.8 and later have it)", dev);
        default:
            return fmt::format(
                "{}: the driver refused external timestamps on channel {} for the {} edge: {}; "
                "try the other --edge, or another channel",
                dev, channel, edge == core::Edge::assert_edge ? "rising" : "falling",
                core::errno_message(err));
    }
}

// What the metadata records about the clock and how its events are read.
nlohmann::json source_details(const PtpSpec& where, const ptp_clock_caps& caps,
                              CrossTimestampMethod method, const PhcSharing& sharing) {
    nlohmann::json details = {{"device", where.device},
                              {"extts_channel", where.channel},
                              {"extts_channels", caps.n_ext_ts},
                              {"pins", caps.n_pins},
                              {"cross_timestamp", std::string(to_string(method))},
                              {"event_queue", sharing.per_reader_queues ? "per reader (Linux 6.7+)"
                                                                        : "shared by all readers"},
                              {"sequence", "counted by ppsbench (PHC events carry none)"}};
    if (where.pin) {
        details["pin"] = *where.pin;
    }
    if (!sharing.other_reader.empty()) {
        details["other_reader"] = sharing.other_reader;
    }
    return details;
}

}  // namespace

PtpSource::PtpSource(std::string spec, const PtpSpec& where, const SourceOptions& options)
    : PtpSource(
          std::move(spec), where, options,
          [&] {
              core::UniqueFd fd(::open(where.device.c_str(), O_RDWR | O_CLOEXEC));
              if (!fd.valid()) {
                  throw core::InputError(ptp_open_error(where.device, errno));
              }
              return std::make_unique<PtpCharDevice>(std::move(fd));
          }(),
          host_phc_sharing()) {}

PtpSource::PtpSource(std::string spec, const PtpSpec& where, const SourceOptions& options,
                     std::unique_ptr<PhcDevice> device, const PhcSharing& sharing)
    : device_(std::move(device)), channel_(where.channel) {
    info_.spec = std::move(spec);
    info_.kind = "ptp";
    info_.clock = core::ClockId::realtime;
    info_.edges = options.edges;
    info_.period = options.period;
    info_.paced = true;
    // The PHC's events carry no number: the source counts those it reads, so a number proves
    // no event was lost (an overflowed queue drops some unseen) and no time jump either.
    info_.sequences = core::SequenceEvidence::synthetic;
    info_.host_hardware = true;
    info_.hardware_reference = true;
    const std::string& dev = where.device;
    edge_ = single_edge(info_.spec, options.edges);
    const ptp_clock_caps caps = channel_capabilities(*device_, where);
    check_sharing(dev, sharing);
    leave_enabled_ = !sharing.other_reader.empty();
    if (where.pin) {
        assign_pin(where, caps, sharing);
    }
    enable_channel(dev, sharing);
    try {
        choose_cross_timestamp(dev);
    } catch (...) {
        disable_channel();
        throw;
    }
    info_.details = source_details(where, caps, method_, sharing);
}

// Notes every pin's function (PinFunctions puts back whatever the kernel moves) and assigns the
// given pin to the channel.
void PtpSource::assign_pin(const PtpSpec& where, const ptp_clock_caps& caps,
                           const PhcSharing& sharing) {
    const std::string& dev = where.device;
    const unsigned pin = *where.pin;
    if (caps.n_pins <= 0) {
        throw core::InputError(
            fmt::format("{}: pin={}: the clock has no programmable pins (its channel's input "
                        "is fixed); drop pin=",
                        dev, pin));
    }
    if (pin >= static_cast<unsigned>(caps.n_pins)) {
        throw core::InputError(fmt::format("{}: pin={}: the clock has {} programmable pins (0–{})",
                                           dev, pin, caps.n_pins, caps.n_pins - 1));
    }
    pins_ = std::make_unique<PinFunctions>(*device_, static_cast<unsigned>(caps.n_pins), dev);
    ptp_pin_desc assign = pins_->before(pin);
    assign.func = PTP_PF_EXTTS;
    assign.chan = where.channel;
    if (const int err = device_->set_pin_function(assign); err != 0) {
        if (err == EBUSY) {
            throw core::InputError(busy_error(dev, where.channel, sharing));
        }
        throw core::InputError(
            err == EPERM || err == EACCES
                ? fmt::format("{}: pin={}: assigning a pin needs write access to the "
                              "device; run as root",
                              dev, pin)
                : fmt::format("{}: pin={} cannot be assigned to external timestamps on "
                              "channel {} (the driver refused: {}); 'ppsbench doctor' lists "
                              "the pins and their functions",
                              dev, pin, where.channel, core::errno_message(err)));
    }
}

// Turns on the channel's events for the captured edge; from here the destructor turns them off
// again (unless another reader uses the channel).
void PtpSource::enable_channel(const std::string& dev, const PhcSharing& sharing) {
    ptp_extts_request request{};
    request.index = channel_;
    request.flags = extts_flags(edge_);
    if (const int err = device_->request_extts(request); err != 0) {
        throw core::InputError(extts_error(err, dev, channel_, edge_, sharing));
    }
    enabled_ = true;
}

void PtpSource::choose_cross_timestamp(const std::string& dev) {
    // The probe's own sample is the first cross-timestamp, taken before any event, so the
    // first batch is interpolated too.
    ptp_sys_offset_precise precise{};
    if (device_->precise_offset(precise) == 0) {
        method_ = CrossTimestampMethod::precise;
        time_base_.add(from_precise(precise));
        return;
    }
    ptp_sys_offset_extended extended{};
    extended.n_samples = offset_samples;
    if (device_->extended_offset(extended) == 0) {
        method_ = CrossTimestampMethod::extended;
        time_base_.add(from_extended(extended));
        return;
    }
    ptp_sys_offset basic{};
    basic.n_samples = offset_samples;
    if (const int err = device_->basic_offset(basic); err != 0) {
        throw core::InputError(
            fmt::format("{}: cannot relate the clock to CLOCK_REALTIME (PTP_SYS_OFFSET2: {}); its "
                        "timestamps would have no time base",
                        dev, core::errno_message(err)));
    }
    method_ = CrossTimestampMethod::basic;
    time_base_.add(from_basic(basic));
}

PtpSource::~PtpSource() {
    disable_channel();
    // pins_ is reset after the channel is off, then device_ closes (member order).
}

void PtpSource::disable_channel() noexcept {
    if (!enabled_ || leave_enabled_) {
        return;
    }
    ptp_extts_request request{};
    request.index = channel_;
    request.flags = 0;
    device_->request_extts(request);
    enabled_ = false;
}

CrossTimestamp PtpSource::sample_offset() {
    switch (method_) {
        case CrossTimestampMethod::precise: {
            ptp_sys_offset_precise sample{};
            if (device_->precise_offset(sample) == 0) {
                return from_precise(sample);
            }
            break;
        }
        case CrossTimestampMethod::extended: {
            ptp_sys_offset_extended sample{};
            sample.n_samples = offset_samples;
            if (device_->extended_offset(sample) == 0) {
                return from_extended(sample);
            }
            break;
        }
        case CrossTimestampMethod::basic: {
            ptp_sys_offset sample{};
            sample.n_samples = offset_samples;
            if (device_->basic_offset(sample) == 0) {
                return from_basic(sample);
            }
            break;
        }
    }
    throw core::MeasurementError(fmt::format(
        "{}: the {} cross-timestamp failed mid-run (the clock went away?); the pulses captured "
        "so far are kept",
        info_.spec, to_string(method_)));
}

WaitResult PtpSource::wait(core::Duration timeout) {
    return device_->wait(timeout);
}

std::size_t PtpSource::read(std::span<core::Pulse> out) {
    last_count_ = 0;
    const std::size_t want = std::min(out.size(), raw_.size());
    const long n = device_->read_events(std::span(raw_).first(want));
    if (n < 0) {
        if (n == -EAGAIN) {
            return 0;
        }
        throw core::MeasurementError(
            fmt::format("{}: reading external timestamps failed mid-run ({}); the pulses "
                        "captured so far are kept",
                        info_.spec, core::errno_message(static_cast<int>(-n))));
    }
    // Sampled after the read, so the batch's events lie between this sample and the last.
    time_base_.add(sample_offset());
    std::size_t written = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        if (raw_[i].index != channel_) {
            continue;  // another channel's user (before 6.7 all share one queue)
        }
        const RealtimeEvent event = time_base_.convert(to_ns(raw_[i].t));
        out[written] = {++events_, event.realtime_ns, edge_};
        extras_[2 * written] = event.offset_ns;
        extras_[2 * written + 1] = event.uncertainty_ns;
        ++written;
    }
    last_count_ = written;
    return written;
}

std::span<const std::string_view> PtpSource::extra_columns() const {
    return ptp_columns;
}

std::span<const std::int64_t> PtpSource::last_extras() const {
    return std::span(extras_).first(2 * last_count_);
}

}  // namespace ppsbench::capture
