// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/latency_session.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <array>
#include <memory>

#include "ppsbench/capture/signals.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/latency/cpu_idle.hpp"
#include "ppsbench/session/default_name.hpp"
#include "ppsbench/session/run_session.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::session {

namespace {

// Each record becomes one pulse line with its drive and wake times; one write(2) per edge, like
// the capture loop, and no allocation.
class RecordWriter final : public latency::LatencySink {
  public:
    explicit RecordWriter(store::CaptureWriter& writer) : writer_(writer) {}
    void write(const latency::LatencyRecord& record) override {
        const std::array<std::int64_t, 2> extras{record.drive_ns, record.wake_ns};
        writer_.write_rows({&record.sensed, 1}, extras);
    }

  private:
    store::CaptureWriter& writer_;
};

// The run's metadata: as a run of the sense path, plus the drive line and its interval.
store::RunMeta latency_metadata(const LatencyOptions& options, const capture::SourceInfo& sense,
                                const latency::DriveSpec& drive_spec,
                                const nlohmann::json& drive_details) {
    RunOptions as_run;
    as_run.source_spec = options.sense_spec;
    as_run.realtime = options.realtime;
    as_run.label = options.label;
    as_run.command_line = options.command_line;
    as_run.limits.count = options.limits.count;
    as_run.limits.duration = options.limits.duration;
    store::RunMeta meta = make_run_metadata(as_run, sense);
    meta.latency =
        store::LatencyDrive{.drive = fmt::format("{}:{}", drive_spec.chip, drive_spec.line),
                            .drive_details = drive_details,
                            .interval = options.limits.interval};
    // The driven signal is a square wave: each edge recurs every two intervals.
    meta.period = 2 * options.limits.interval;
    return meta;
}

// The record file: -o, or a default name claimed for this run alone (outcome.output_path).
std::unique_ptr<store::CaptureWriter> create_latency_file(const LatencyOptions& options,
                                                          const store::RunMeta& meta,
                                                          LatencyOutcome& outcome) {
    const bool default_name = options.output_path.empty();
    outcome.output_path =
        default_name ? claim_default_output("ppsbench-latency-") : options.output_path;
    const std::vector<std::string> columns(latency::record_columns.begin(),
                                           latency::record_columns.end());
    try {
        // A claimed default name is an empty file of this run's: the writer takes it over.
        return std::make_unique<store::CaptureWriter>(outcome.output_path, meta,
                                                      options.overwrite || default_name, columns);
    } catch (...) {
        if (default_name) {
            ::unlink(outcome.output_path.c_str());
        }
        throw;
    }
}

}  // namespace

LatencyOutcome execute_latency(const LatencyOptions& options) {
    // Syntax first, so a typo never touches the hardware.
    if (!options.sense_spec.starts_with("gpio:") && !options.sense_spec.starts_with("pps:")) {
        throw core::UsageError(
            fmt::format("--sense '{}': the loopback input must be gpio:CHIP:LINE or pps:/dev/ppsN",
                        options.sense_spec));
    }
    const auto drive_spec = latency::parse_drive_spec(options.drive_spec);
    // The drive line first: its errors (no such chip or line, busy) are the likelier ones, and
    // requesting it drives it low, the idle level the sense side then starts from.
    auto drive = latency::open_gpio_output(drive_spec);
    auto sense = capture::open_source(options.sense_spec, options.sense);
    const auto cpu_start = latency::read_cpu_times(options.proc_stat);
    const capture::RealtimeGuard realtime(options.realtime);

    const store::RunMeta meta =
        latency_metadata(options, sense->info(), drive_spec, drive->details());

    LatencyOutcome outcome;
    const auto file = create_latency_file(options, meta, outcome);
    store::CaptureWriter& writer = *file;
    RecordWriter records(writer);
    const capture::StopOnSignals signals;
    latency::SystemClock clock;
    try {
        outcome.progress =
            latency::run_latency(*drive, *sense, records, options.limits, signals.flag(), clock);
    } catch (const core::MeasurementError& e) {
        outcome.failure = e.what();
        outcome.progress.stop_reason = capture::StopReason::end_of_stream;
        outcome.progress.records = writer.pulses_written();
    } catch (const core::InputError&) {
        writer.close();
        if (writer.pulses_written() == 0) {
            ::unlink(outcome.output_path.c_str());  // nothing measured: leave nothing behind
        }
        throw;
    }
    outcome.progress.stop_reason = signals.stop_reason(outcome.progress.stop_reason);
    const auto cpu_end = latency::read_cpu_times(options.proc_stat);
    store::EndRecord end;
    end.stop_reason = outcome.progress.stop_reason;
    end.pulses = writer.pulses_written();
    end.latency =
        store::LatencyCounts{.edges_driven = outcome.progress.edges_driven,
                             .unseen_edges = outcome.progress.unseen_edges,
                             .stray_events = outcome.progress.stray_events,
                             .cpu_ticks = cpu_end.total - cpu_start.total,
                             .cpu_idle_ticks = cpu_end.idle - cpu_start.idle,
                             .cpu_idle_fraction = latency::idle_fraction(cpu_start, cpu_end)};
    end.elapsed = outcome.progress.elapsed;
    if (signals.signal_number() != 0) {
        end.signal = signals.signal_number();
    }
    if (!outcome.failure.empty()) {
        end.failure = outcome.failure;
    }
    writer.write_end(end);
    writer.close();
    return outcome;
}

}  // namespace ppsbench::session
