// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::capture {

// What a source is, for the capture file's metadata and for every decision made about it. Each
// source sets these in its own file; nothing else looks at `kind`, which is only recorded.
struct SourceInfo {
    std::string spec;  // as given: "pps:/dev/pps0", "sim:threaded"
    std::string kind;  // "pps", "gpio", "replay", "sim": for the metadata, not for branching
    core::ClockId clock = core::ClockId::realtime;
    core::EdgeSelection edges = core::EdgeSelection::assert_only;
    core::Duration period = std::chrono::seconds{1};
    // How pulses are recorded and what their sequence numbers are (core::Cadence): a device,
    // a line and the simulator give every edge with the kernel's (or an equal) counter; a
    // replay gives what its file recorded.
    core::Cadence cadence = core::Cadence::every_edge;
    std::optional<core::Duration> poll;
    core::SequenceEvidence sequences = core::SequenceEvidence::kernel;
    // Simulated pulses must be labelled as such in every file and report.
    bool simulated = false;
    // True when pulses arrive in real time (a device, or --pace realtime); false when the source
    // produces them as fast as they are read, in which case durations are measured on the
    // pulses' own time line rather than the wall clock.
    bool paced = true;
    // False for a source that ends by itself (a replayed file). An endless source that is not
    // paced produces pulses as fast as they are read, forever, so a run needs a limit for it.
    bool endless = true;
    // Pulses come from this host's hardware, so its kernel configuration and chronyd bear on
    // them: a run records the system fingerprint and samples chronyd unless told otherwise.
    bool host_hardware = false;
    // Timestamps latched by hardware at the edge itself (a PHC's event pin): in a two-source
    // run the other path's lateness (bias) is measured against this one.
    bool hardware_reference = false;
    // The PPS device node read ("/dev/pps0"), empty for other sources: the fingerprint,
    // chrony's refclock lookup and the no-pulse hint name it.
    std::string pps_device;
    // Source-specific facts for the metadata (device name, sim model and knobs, replayed file).
    nlohmann::json details = nlohmann::json::object();
};

enum class WaitResult {
    ready,          // read() will return at least one pulse
    timeout,        // nothing arrived within the timeout
    interrupted,    // a signal arrived (Ctrl-C): the loop checks whether to stop
    end_of_stream,  // a finite source (replay, sim --count) has nothing more
};

// A source of pulses (DESIGN.md, like chrony's refclock drivers: it only hands pulses over and
// knows nothing of statistics or files). The constructor opens and validates, throwing
// core::InputError with the fix; the destructor closes. wait() blocks in the kernel, never
// polls; read() copies ready pulses into the caller's buffer and never allocates.
class PulseSource {
  public:
    virtual ~PulseSource() = default;
    PulseSource() = default;
    PulseSource(const PulseSource&) = delete;
    PulseSource& operator=(const PulseSource&) = delete;

    virtual WaitResult wait(core::Duration timeout) = 0;
    // Returns how many pulses were written into `out` (0 when none are ready).
    virtual std::size_t read(std::span<core::Pulse> out) = 0;
    virtual const SourceInfo& info() const = 0;

    // Integers a source records beside each timestamp, as capture-file columns (the PTP source:
    // the realtime − PHC offset it applied and that offset's uncertainty). Most have none.
    virtual std::span<const std::string_view> extra_columns() const { return {}; }
    // Their values for the pulses the last read() returned, row-major, extra_columns().size()
    // per pulse.
    virtual std::span<const std::int64_t> last_extras() const { return {}; }
};

}  // namespace ppsbench::capture
