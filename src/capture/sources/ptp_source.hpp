// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <memory>
#include <string>

#include "phc_device.hpp"
#include "phc_sharing.hpp"
#include "phc_time_base.hpp"
#include "pin_functions.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ptp_spec.hpp"

namespace ppsbench::capture {

// The external-timestamp events of a PTP hardware clock (linux/ptp_clock.h: PTP_EXTTS_REQUEST2,
// read(2) of struct ptp_extts_event), the PHC's counterpart of an RFC 2783 PPS device. The
// hardware latches the PHC at the edge; the source moves each timestamp onto CLOCK_REALTIME with
// the kernel's PHC–system cross-timestamps (precise, else extended, else basic: recorded in the
// metadata) sampled after each batch, and hands over the offset it applied and its uncertainty
// per pulse (extra_columns).
class PtpSource final : public PulseSource {
  public:
    // Opens the device; every failure is a core::InputError naming it and the fix.
    PtpSource(std::string spec, const PtpSpec& where, const SourceOptions& options);
    // The same on a given device (tests: recorded event streams).
    PtpSource(std::string spec, const PtpSpec& where, const SourceOptions& options,
              std::unique_ptr<PhcDevice> device, const PhcSharing& sharing);
    ~PtpSource() override;

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }
    std::span<const std::string_view> extra_columns() const override;
    std::span<const std::int64_t> last_extras() const override;

    CrossTimestampMethod method() const { return method_; }

  private:
    void assign_pin(const PtpSpec& where, const ptp_clock_caps& caps, const PhcSharing& sharing);
    void enable_channel(const std::string& dev, const PhcSharing& sharing);
    void choose_cross_timestamp(const std::string& dev);
    CrossTimestamp sample_offset();
    void disable_channel() noexcept;

    SourceInfo info_;
    std::unique_ptr<PhcDevice> device_;
    std::unique_ptr<PinFunctions> pins_;
    unsigned channel_ = 0;
    core::Edge edge_ = core::Edge::assert_edge;
    bool leave_enabled_ = false;  // another reader uses the channel: it stays on
    bool enabled_ = false;
    CrossTimestampMethod method_ = CrossTimestampMethod::basic;
    PhcTimeBase time_base_;
    std::uint64_t events_ = 0;
    std::size_t last_count_ = 0;
    static constexpr std::size_t batch = 64;
    std::array<ptp_extts_event, batch> raw_{};
    std::array<std::int64_t, 2 * batch> extras_{};
};

}  // namespace ppsbench::capture
