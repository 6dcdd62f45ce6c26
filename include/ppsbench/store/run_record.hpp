// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/stop_reason.hpp"
#include "ppsbench/version.hpp"

namespace ppsbench::store {

// The real-time settings the capture thread ran under.
struct CaptureProcess {
    std::optional<int> sched_fifo_priority;
    std::optional<int> cpu;
    bool mlock = false;
    // The CPU wake-up latency held in /dev/cpu_dma_latency during the capture (µs).
    std::optional<std::uint32_t> cpu_dma_latency_us;
};

// One path of a two-source run, and where its partner's file is.
struct DualLink {
    std::string path;  // "A" or "B"
    std::string peer_source;
    std::string peer_file;
    // The peer is a hardware reference (a PHC's external timestamps): this path's bias is
    // measured against it (analysis/bias.hpp).
    bool peer_is_reference = false;
    // The same in both paths' files of one run (32 hex digits, random; the rotation's run id
    // when rotating), so a reference found beside a path can be proven to be its own; empty in
    // files from before it existed.
    std::string run_id;
};

// A `ppsbench latency` loopback run (meta "kind": "latency"): the line driven and how often.
struct LatencyDrive {
    std::string drive;  // "CHIP:LINE"
    nlohmann::json drive_details = nlohmann::json::object();
    core::Duration interval{0};
};

// One file of a `run --rotate`: its place in the run's chain of files.
struct Rotation {
    // The same in every file of one run (32 hex digits, random), so the parts of a run can be
    // found and joined even when renamed; empty in files from before it existed.
    std::string run_id;
    std::uint64_t index = 0;  // the part number: 0 for the run's first file
    core::Duration interval{0};
    std::optional<std::string> previous_file;  // absent in the first file
};

// The `# meta` line of a capture file: what was captured, how, where and when. Every writer
// (run, dual run, latency, chrony import, demo) fills one of these and every reader gets one back;
// store::to_json/from_json below are the only places that know the JSON keys. What the code
// decides on is typed; what is only recorded for people (the kernel's uname, a source's details,
// the system fingerprint, an import's provenance) stays JSON.
struct RunMeta {
    std::string tool_version = version_string;  // of the ppsbench that wrote the file
    std::string label;
    std::string source;       // the spec as given: "pps:/dev/pps0", "sim:threaded"
    std::string source_kind;  // "pps", "gpio", "sim", "replay", "chrony-refclocks": for people
    bool simulated = false;
    core::EdgeSelection edges = core::EdgeSelection::assert_only;
    core::Duration period = std::chrono::seconds{1};
    core::ClockId clock = core::ClockId::realtime;
    // How the pulses were recorded, apart from the period (core::Cadence); a sampled log's
    // poll interval when it has one (ntpd's, which may change within the file).
    core::Cadence cadence = core::Cadence::every_edge;
    std::optional<core::Duration> poll;
    // Whether the sequence numbers are the kernel's (evidence of steps and missed pulses) or an
    // importer's own numbering.
    core::SequenceEvidence sequences = core::SequenceEvidence::kernel;
    std::int64_t start_realtime_ns = 0;
    // A live run's start is shown to the nanosecond, an import's (its first pulse) to the second.
    core::UtcPrecision start_time_precision = core::UtcPrecision::nanoseconds;

    // Facts of the capturing host and process: absent for an import.
    std::optional<std::string> host;
    std::optional<nlohmann::json> kernel;
    std::optional<nlohmann::json> source_details;
    std::optional<std::vector<std::string>> command_line;
    std::optional<CaptureProcess> capture_process;
    std::optional<std::uint64_t> planned_count;
    std::optional<core::Duration> planned_duration;
    // The kernel/PREEMPT_RT fingerprint of a device run (null when it could not be read).
    std::optional<nlohmann::json> system;

    std::optional<DualLink> dual;
    std::optional<LatencyDrive> latency;
    // Where an imported file came from (format, file, counts).
    std::optional<nlohmann::json> import;
    std::optional<Rotation> rotation;
};

nlohmann::json to_json(const RunMeta& meta);
// Lenient, like every reader before it: a missing or mistyped key keeps its default, so files
// from older versions and hand-made fixtures still load.
RunMeta run_meta_from_json(const nlohmann::json& json);

// The figures a latency run ends with.
struct LatencyCounts {
    std::uint64_t edges_driven = 0;
    std::uint64_t unseen_edges = 0;
    std::uint64_t stray_events = 0;
    std::uint64_t cpu_ticks = 0;
    std::uint64_t cpu_idle_ticks = 0;
    std::optional<double> cpu_idle_fraction;
};

// How a file of a `run --rotate` ends: the counts of an EndRecord are the run's up to that point;
// this is the file's own share and where the run goes on.
struct RotatedFileEnd {
    std::uint64_t pulses_in_file = 0;
    std::optional<std::string> next_file;  // a file closed at a seam
    std::optional<std::uint64_t> files;    // the run's last file: how many the run wrote
};

// The `# end` note: how the run finished. Its absence means it did not (crash, power cut).
struct EndRecord {
    StopReason stop_reason = StopReason::end_of_stream;
    std::uint64_t pulses = 0;
    std::optional<std::uint64_t> missed_pulses;
    std::optional<std::uint64_t> timeouts;
    std::optional<LatencyCounts> latency;
    std::optional<core::Duration> elapsed;
    std::optional<std::int64_t> end_realtime_ns;
    core::UtcPrecision end_time_precision = core::UtcPrecision::nanoseconds;
    std::optional<std::string> stopped_by;
    std::optional<int> signal;
    std::optional<std::string> failure;
    std::optional<std::uint64_t> skipped_lines;  // an import's malformed lines
    std::optional<std::uint64_t> duplicates;     // an import's repeated lines (ppstest)
    // An import's sequence skips without a time gap: events counted but never logged.
    std::optional<std::uint64_t> unseen_events;
    std::optional<RotatedFileEnd> rotation;
};

nlohmann::json to_json(const EndRecord& end);
EndRecord end_record_from_json(const nlohmann::json& json);

}  // namespace ppsbench::store
