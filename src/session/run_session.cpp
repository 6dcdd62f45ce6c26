#include "ppsbench/session/run_session.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <ctime>
#include <optional>

#include "ppsbench/capture/signals.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/chrony_monitor.hpp"
#include "ppsbench/session/status_line.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"
#include "ppsbench/version.hpp"

#include "ppsbench/core/clock.hpp"

namespace ppsbench::session {

namespace {

std::string utc_iso8601(std::int64_t ns) {
    const std::time_t seconds = static_cast<std::time_t>(ns / core::ns_per_second);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:09d}Z", tm, ns % core::ns_per_second);
}

std::string default_output_path() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    return fmt::format("ppsbench-{:%Y%m%dT%H%M%SZ}.csv", tm);
}

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return "unknown";
    }
    return name;
}

nlohmann::json kernel_identity() {
    utsname uts{};
    if (uname(&uts) != 0) {
        return nlohmann::json::object();
    }
    return {{"sysname", uts.sysname},
            {"release", uts.release},
            {"version", uts.version},
            {"machine", uts.machine}};
}

bool is_device(const capture::SourceInfo& source) {
    return source.kind == "pps" || source.kind == "gpio";
}

// The kernel, PREEMPT_RT and IRQ-threading fingerprint (ppsbench doctor's), recorded with every
// capture from a device so reports can say what configuration a row measured.
nlohmann::json system_fingerprint(const capture::SourceInfo& source) {
    sysinfo::FingerprintOptions options;
    options.pulse_wait = std::chrono::milliseconds{0};  // the capture itself shows pulses
    if (source.kind == "pps") {
        options.device = source.details.value("device", std::string());
    }
    try {
        return sysinfo::to_json(sysinfo::read_fingerprint(options));
    } catch (const core::Error&) {
        return nullptr;  // e.g. a device path that is not /dev/ppsN: the capture still works
    }
}

}  // namespace

nlohmann::json make_run_metadata(const RunOptions& options, const capture::SourceInfo& source) {
    const std::int64_t now = core::realtime_now_ns();
    nlohmann::json meta = {
        {"tool", "ppsbench"},
        {"tool_version", version_string},
        {"label", options.label},
        {"source", source.spec},
        {"source_kind", source.kind},
        {"simulated", source.simulated},
        {"edge", core::to_string(source.edges)},
        {"period_ns", source.period.count()},
        {"clock", core::to_string(source.clock)},
        {"start_time", utc_iso8601(now)},
        {"start_realtime_ns", now},
        {"host", host_name()},
        {"kernel", kernel_identity()},
        {"source_details", source.details},
        {"command_line", options.command_line},
    };
    nlohmann::json realtime = nlohmann::json::object();
    if (options.realtime.rt_priority) {
        realtime["sched_fifo_priority"] = *options.realtime.rt_priority;
    }
    if (options.realtime.cpu) {
        realtime["cpu"] = *options.realtime.cpu;
    }
    realtime["mlock"] = options.realtime.lock_memory;
    meta["capture_process"] = realtime;
    if (options.limits.count) {
        meta["planned_count"] = *options.limits.count;
    }
    if (options.limits.duration) {
        meta["planned_duration_ns"] = options.limits.duration->count();
    }
    return meta;
}

RunOutcome execute_run(const RunOptions& options) {
    // Open the source first: a device that cannot be used must not leave an empty file behind.
    auto source = capture::open_source(options.source_spec, options.source);
    const capture::SourceInfo& info = source->info();

    // Then the real-time settings, which can also be refused (no CAP_SYS_NICE, no such CPU).
    const capture::RealtimeGuard realtime(options.realtime);

    RunOutcome outcome;
    outcome.output_path = options.output_path.empty() ? default_output_path() : options.output_path;
    outcome.simulated = info.simulated;
    nlohmann::json meta = make_run_metadata(options, info);
    if (is_device(info)) {
        meta["system"] = system_fingerprint(info);
    }
    CaptureFiles sink(outcome.output_path, meta, options.overwrite, options.rotate);
    std::optional<LiveMetrics> live;
    if (options.live) {
        live.emplace(*options.live, info);
    }

    std::optional<ChronyMonitor> chrony;
    const bool sample_chrony = options.chrony == RunOptions::Chrony::on ||
                               (options.chrony == RunOptions::Chrony::automatic && is_device(info));
    if (sample_chrony) {
        auto sampler_options = options.chrony_sampler;
        if (sampler_options.device.empty() && info.kind == "pps") {
            sampler_options.device = info.details.value("device", std::string());
        }
        chrony.emplace(sampler_options, [&sink, &live](const nlohmann::json& sample) {
            sink.write_note("chrony", sample);
            if (live) {
                live->chrony_sample(sample);
            }
        });
    }

    StatusLine status(options.status_stream, info, options.limits,
                      chrony ? &chrony->latest_rms_offset_ns() : nullptr);
    const capture::StopOnSignals signals;
    std::optional<capture::CaptureProgress> progress;
    capture::CaptureProgress last_seen;
    try {
        progress = capture::run_capture(
            *source, sink, options.limits, signals.flag(),
            [&](std::span<const core::Pulse> batch, const capture::CaptureProgress& p) {
                last_seen = p;
                status.update(batch, p);
                if (live) {
                    live->update(batch, p);
                }
            });
    } catch (const core::MeasurementError& e) {
        // The source died mid-run (device unplugged, driver unloaded) or the disk filled: what
        // we have is kept.
        outcome.failure = e.what();
        progress = last_seen;
        progress->stop_reason = capture::StopReason::end_of_stream;
    } catch (const core::InputError&) {
        // No pulse at all: remove the file we just created, which holds a header and nothing
        // else, so a retry with the same -o works.
        status.finish();
        chrony.reset();
        live.reset();
        sink.close();
        if (sink.pulses_written() == 0) {
            ::unlink(sink.current_path().c_str());
        }
        throw;
    }
    status.finish();
    if (chrony) {
        chrony->stop();
        outcome.chrony_notices = chrony->notices();
        chrony.reset();
    }
    if (live) {
        live->stop();  // after chrony's final sample, so the last figures include it
    }
    outcome.progress = *progress;
    nlohmann::json end = {{"stop_reason", capture::to_string(progress->stop_reason)},
                          {"pulses", progress->pulses},
                          {"missed_pulses", progress->missed_pulses},
                          {"timeouts", progress->timeouts},
                          {"elapsed_ns", progress->elapsed.count()},
                          {"end_time", utc_iso8601(core::realtime_now_ns())}};
    if (signals.signal_number() != 0) {
        end["signal"] = signals.signal_number();
    }
    if (!outcome.failure.empty()) {
        end["failure"] = outcome.failure;
    }
    try {
        sink.finish(end);
        outcome.output_path = sink.current_path();
        outcome.files = sink.paths();
    } catch (const core::MeasurementError&) {
        if (outcome.failure.empty()) {
            throw;
        }
        // The disk filled mid-run: the first message says what happened and what is kept.
        throw core::MeasurementError(outcome.failure);
    }
    return outcome;
}

}  // namespace ppsbench::session
