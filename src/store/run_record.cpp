// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/run_record.hpp"

#include <array>
#include <utility>

#include "ppsbench/store/json_integer.hpp"

namespace ppsbench::store {

namespace {

// The lenient readers: a key that is missing or of another type leaves `out` as it was.
template <typename T>
void read(const nlohmann::json& json, std::string_view key, T& out) {
    const auto it = json.find(key);
    if (it == json.end()) {
        return;
    }
    if constexpr (std::is_same_v<T, bool>) {
        if (it->is_boolean()) {
            out = it->get<bool>();
        }
    } else if constexpr (std::is_integral_v<T>) {
        // A number T cannot hold is mistyped too (never cast: found by the capture_reader fuzz
        // harness, a start_realtime_ns of 1.8e35 was undefined behaviour).
        if (const auto value = json_integer<T>(*it)) {
            out = *value;
        }
    } else if constexpr (std::is_arithmetic_v<T>) {
        if (it->is_number()) {
            out = it->get<T>();
        }
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (it->is_string()) {
            out = it->get<std::string>();
        }
    } else {
        out = *it;  // JSON kept as it is
    }
}

// Whether `json` holds a value read() would take into a T.
template <typename T>
bool holds(const nlohmann::json& json) {
    if constexpr (std::is_same_v<T, bool>) {
        return json.is_boolean();
    } else if constexpr (std::is_integral_v<T>) {
        return json_integer<T>(json).has_value();
    } else if constexpr (std::is_arithmetic_v<T>) {
        return json.is_number();
    } else if constexpr (std::is_same_v<T, std::string>) {
        return json.is_string();
    } else {
        return true;
    }
}

// An optional stays empty for a missing or mistyped key ("cpu_idle_fraction": null is no
// fraction, not 0).
template <typename T>
void read(const nlohmann::json& json, std::string_view key, std::optional<T>& out) {
    const auto it = json.find(key);
    if (it == json.end() || !holds<T>(*it)) {
        return;
    }
    T value{};
    read(json, key, value);
    out = std::move(value);
}

void read_duration(const nlohmann::json& json, std::string_view key, core::Duration& out) {
    std::int64_t ns = out.count();
    read(json, key, ns);
    out = core::Duration{ns};
}

void read_duration(const nlohmann::json& json, std::string_view key,
                   std::optional<core::Duration>& out) {
    if (json.contains(key)) {
        out.emplace(0);
        read_duration(json, key, *out);
    }
}

// The cadence and the kind of sequence numbers. Files written before they were recorded hold
// neither: an import of ntpd's peerstats was sampled at its poll with numbers made up from the
// seconds, an import of chrony's refclocks log numbered its samples the same way; everything
// else recorded every edge with the kernel's numbers.
void read_cadence(const nlohmann::json& json, RunMeta& meta) {
    std::string format;
    if (const auto it = json.find("import"); it != json.end() && it->is_object()) {
        read(*it, "format", format);
        if (format == "ntp-peerstats") {
            meta.cadence = core::Cadence::sampled;
            std::int64_t poll_s = 0;
            read(*it, "poll_interval_s", poll_s);
            if (poll_s > 0 && poll_s < 1'000'000) {
                meta.poll = std::chrono::seconds{poll_s};
            }
        }
    }
    std::string text;
    read(json, "cadence", text);
    meta.cadence = core::parse_cadence(text).value_or(meta.cadence);
    text.clear();
    read(json, "sequence_numbers", text);
    meta.sequences = core::parse_sequence_evidence(text).value_or(meta.sequences);
    // These importers never had a kernel's numbers: they made them up from the seconds, and
    // imports written before that was recorded truthfully say "kernel" (ts2phc, ntpshmmon).
    if (format == "ntp-peerstats" || format == "chrony-refclocks" || format == "ts2phc" ||
        format == "ntpshmmon") {
        meta.sequences = core::SequenceEvidence::synthetic;
    }
    read_duration(json, "poll_ns", meta.poll);
}

nlohmann::json capture_process_json(const CaptureProcess& process) {
    nlohmann::json j = nlohmann::json::object();
    if (process.sched_fifo_priority) {
        j["sched_fifo_priority"] = *process.sched_fifo_priority;
    }
    if (process.cpu) {
        j["cpu"] = *process.cpu;
    }
    j["mlock"] = process.mlock;
    if (process.cpu_dma_latency_us) {
        j["cpu_dma_latency_us"] = *process.cpu_dma_latency_us;
    }
    return j;
}

}  // namespace

nlohmann::json to_json(const RunMeta& meta) {
    nlohmann::json j = {
        {"tool", "ppsbench"},
        {"tool_version", meta.tool_version},
        {"label", meta.label},
        {"source", meta.source},
        {"source_kind", meta.source_kind},
        {"simulated", meta.simulated},
        {"edge", core::to_string(meta.edges)},
        {"period_ns", meta.period.count()},
        {"clock", core::to_string(meta.clock)},
        {"cadence", core::to_string(meta.cadence)},
        {"sequence_numbers", core::to_string(meta.sequences)},
        {"start_time", core::format_utc(meta.start_realtime_ns, meta.start_time_precision)},
        {"start_realtime_ns", meta.start_realtime_ns},
    };
    if (meta.poll) {
        j["poll_ns"] = meta.poll->count();
    }
    if (meta.host) {
        j["host"] = *meta.host;
    }
    if (meta.kernel) {
        j["kernel"] = *meta.kernel;
    }
    if (meta.source_details) {
        j["source_details"] = *meta.source_details;
    }
    if (meta.command_line) {
        j["command_line"] = *meta.command_line;
    }
    if (meta.capture_process) {
        j["capture_process"] = capture_process_json(*meta.capture_process);
    }
    if (meta.planned_count) {
        j["planned_count"] = *meta.planned_count;
    }
    if (meta.planned_duration) {
        j["planned_duration_ns"] = meta.planned_duration->count();
    }
    if (meta.system) {
        j["system"] = *meta.system;
    }
    if (meta.dual) {
        j["dual"] = {{"path", meta.dual->path},
                     {"peer_source", meta.dual->peer_source},
                     {"peer_file", meta.dual->peer_file}};
        if (!meta.dual->run_id.empty()) {
            j["dual"]["run_id"] = meta.dual->run_id;
        }
        if (meta.dual->peer_is_reference) {
            j["dual"]["peer_is_reference"] = true;
        }
    }
    if (meta.latency) {
        j["kind"] = "latency";
        j["drive"] = meta.latency->drive;
        j["drive_details"] = meta.latency->drive_details;
        j["interval_ns"] = meta.latency->interval.count();
    }
    if (meta.import) {
        j["import"] = *meta.import;
    }
    if (meta.rotation) {
        j["rotation"] = {{"index", meta.rotation->index},
                         {"interval_ns", meta.rotation->interval.count()}};
        if (!meta.rotation->run_id.empty()) {
            j["rotation"]["run_id"] = meta.rotation->run_id;
        }
        if (meta.rotation->previous_file) {
            j["rotation"]["previous_file"] = *meta.rotation->previous_file;
        }
    }
    return j;
}

RunMeta run_meta_from_json(const nlohmann::json& json) {
    RunMeta meta;
    meta.tool_version.clear();
    if (!json.is_object()) {
        return meta;
    }
    read(json, "tool_version", meta.tool_version);
    read(json, "label", meta.label);
    read(json, "source", meta.source);
    read(json, "source_kind", meta.source_kind);
    read(json, "simulated", meta.simulated);
    std::string text;
    read(json, "edge", text);
    meta.edges = core::parse_edge_selection(text).value_or(meta.edges);
    read_duration(json, "period_ns", meta.period);
    text.clear();
    read(json, "clock", text);
    meta.clock = core::parse_clock_id(text).value_or(meta.clock);
    read_cadence(json, meta);
    read(json, "start_realtime_ns", meta.start_realtime_ns);
    text.clear();
    read(json, "start_time", text);
    meta.start_time_precision = text.find('.') == std::string::npos
                                    ? core::UtcPrecision::seconds
                                    : core::UtcPrecision::nanoseconds;
    read(json, "host", meta.host);
    read(json, "kernel", meta.kernel);
    read(json, "source_details", meta.source_details);
    if (const auto it = json.find("command_line"); it != json.end() && it->is_array()) {
        meta.command_line.emplace();
        for (const auto& word : *it) {
            meta.command_line->push_back(word.is_string() ? word.get<std::string>() : word.dump());
        }
    }
    if (const auto it = json.find("capture_process"); it != json.end() && it->is_object()) {
        CaptureProcess process;
        read(*it, "sched_fifo_priority", process.sched_fifo_priority);
        read(*it, "cpu", process.cpu);
        read(*it, "mlock", process.mlock);
        read(*it, "cpu_dma_latency_us", process.cpu_dma_latency_us);
        meta.capture_process = process;
    }
    read(json, "planned_count", meta.planned_count);
    read_duration(json, "planned_duration_ns", meta.planned_duration);
    read(json, "system", meta.system);
    if (const auto it = json.find("dual"); it != json.end() && it->is_object()) {
        DualLink dual;
        read(*it, "path", dual.path);
        read(*it, "peer_source", dual.peer_source);
        read(*it, "peer_file", dual.peer_file);
        read(*it, "peer_is_reference", dual.peer_is_reference);
        read(*it, "run_id", dual.run_id);
        meta.dual = std::move(dual);
    }
    if (json.value("kind", std::string()) == "latency") {
        LatencyDrive latency;
        read(json, "drive", latency.drive);
        read(json, "drive_details", latency.drive_details);
        read_duration(json, "interval_ns", latency.interval);
        meta.latency = std::move(latency);
    }
    read(json, "import", meta.import);
    if (const auto it = json.find("rotation"); it != json.end() && it->is_object()) {
        Rotation rotation;
        read(*it, "run_id", rotation.run_id);
        read(*it, "index", rotation.index);
        read_duration(*it, "interval_ns", rotation.interval);
        read(*it, "previous_file", rotation.previous_file);
        meta.rotation = std::move(rotation);
    }
    return meta;
}

nlohmann::json to_json(const EndRecord& end) {
    nlohmann::json j = {{"stop_reason", to_string(end.stop_reason)}, {"pulses", end.pulses}};
    if (end.missed_pulses) {
        j["missed_pulses"] = *end.missed_pulses;
    }
    if (end.timeouts) {
        j["timeouts"] = *end.timeouts;
    }
    if (end.latency) {
        j["edges_driven"] = end.latency->edges_driven;
        j["unseen_edges"] = end.latency->unseen_edges;
        j["stray_events"] = end.latency->stray_events;
        j["cpu_ticks"] = end.latency->cpu_ticks;
        j["cpu_idle_ticks"] = end.latency->cpu_idle_ticks;
        if (end.latency->cpu_idle_fraction) {
            j["cpu_idle_fraction"] = *end.latency->cpu_idle_fraction;
        }
    }
    if (end.elapsed) {
        j["elapsed_ns"] = end.elapsed->count();
    }
    if (end.end_realtime_ns) {
        j["end_time"] = core::format_utc(*end.end_realtime_ns, end.end_time_precision);
    }
    if (end.stopped_by) {
        j["stopped_by"] = *end.stopped_by;
    }
    if (end.signal) {
        j["signal"] = *end.signal;
    }
    if (end.failure) {
        j["failure"] = *end.failure;
    }
    if (end.skipped_lines) {
        j["skipped_lines"] = *end.skipped_lines;
    }
    if (end.duplicates) {
        j["duplicates"] = *end.duplicates;
    }
    if (end.unseen_events) {
        j["unseen_events"] = *end.unseen_events;
    }
    if (end.rotation) {
        j["pulses_in_file"] = end.rotation->pulses_in_file;
        if (end.rotation->next_file) {
            j["next_file"] = *end.rotation->next_file;
        }
        if (end.rotation->files) {
            j["files"] = *end.rotation->files;
        }
    }
    return j;
}

EndRecord end_record_from_json(const nlohmann::json& json) {
    EndRecord end;
    if (!json.is_object()) {
        return end;
    }
    std::string reason;
    read(json, "stop_reason", reason);
    end.stop_reason = parse_stop_reason(reason).value_or(end.stop_reason);
    read(json, "pulses", end.pulses);
    read(json, "missed_pulses", end.missed_pulses);
    read(json, "timeouts", end.timeouts);
    if (json.contains("edges_driven")) {
        LatencyCounts latency;
        read(json, "edges_driven", latency.edges_driven);
        read(json, "unseen_edges", latency.unseen_edges);
        read(json, "stray_events", latency.stray_events);
        read(json, "cpu_ticks", latency.cpu_ticks);
        read(json, "cpu_idle_ticks", latency.cpu_idle_ticks);
        read(json, "cpu_idle_fraction", latency.cpu_idle_fraction);
        end.latency = latency;
    }
    read_duration(json, "elapsed_ns", end.elapsed);
    if (const auto it = json.find("end_time"); it != json.end() && it->is_string()) {
        const std::string text = it->get<std::string>();
        end.end_realtime_ns = core::parse_utc(text);
        end.end_time_precision = text.find('.') == std::string::npos
                                     ? core::UtcPrecision::seconds
                                     : core::UtcPrecision::nanoseconds;
    }
    read(json, "stopped_by", end.stopped_by);
    read(json, "signal", end.signal);
    read(json, "failure", end.failure);
    read(json, "skipped_lines", end.skipped_lines);
    read(json, "duplicates", end.duplicates);
    read(json, "unseen_events", end.unseen_events);
    if (json.contains("pulses_in_file")) {
        RotatedFileEnd rotation;
        read(json, "pulses_in_file", rotation.pulses_in_file);
        read(json, "next_file", rotation.next_file);
        read(json, "files", rotation.files);
        end.rotation = std::move(rotation);
    }
    return end;
}

}  // namespace ppsbench::store
