#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "phc_device.hpp"
#include "phc_time_base.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::capture {

// Where "ptp:/dev/ptpN[,extts=K][,pin=P]" points: the PHC, its external-timestamp channel
// (0 by default) and, when given, the programmable pin to assign to that channel.
struct PtpSpec {
    std::string device;
    unsigned channel = 0;
    std::optional<unsigned> pin;
};
PtpSpec parse_ptp_spec(std::string_view rest);

// Who else reads the PHC's external timestamps, and whether the kernel gives each reader its own
// event queue (Linux 6.7 and later) or one queue for all, where each event goes to whichever
// reader comes first (before 6.7).
struct PhcSharing {
    bool per_reader_queues = false;
    std::string other_reader;  // "ts2phc (pid 812)", empty when none runs
};
// This host's answer: the kernel release from uname(2), ts2phc from /proc/*/comm.
PhcSharing host_phc_sharing();

// Which pin functions the source changed, to put them back (RAII): assigning a pin to a
// channel makes the kernel take that channel's function from whatever pin had it, so every
// pin's function is noted before and each one that differs afterwards is restored.
class PinFunctions {
  public:
    PinFunctions(PhcDevice& device, unsigned pins, const std::string& what);
    ~PinFunctions();
    PinFunctions(const PinFunctions&) = delete;
    PinFunctions& operator=(const PinFunctions&) = delete;
    const ptp_pin_desc& before(unsigned pin) const { return before_.at(pin); }

  private:
    PhcDevice& device_;
    std::vector<ptp_pin_desc> before_;
};

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
