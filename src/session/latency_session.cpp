// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/latency_session.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <array>
#include <memory>
#include <optional>

#include "ppsbench/capture/signals.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/latency/cpu_idle.hpp"
#include "ppsbench/session/default_name.hpp"
#include "ppsbench/session/lifecycle.hpp"
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

// `ppsbench latency`: one thread drives the line and senses the edge (latency::run_latency);
// what a run's lifecycle has and this one has not is listed, with why, in lifecycle.hpp.
class LatencySession final : public Session {
  public:
    LatencySession(const LatencyOptions& options, LatencyOutcome& outcome)
        : options_(options), outcome_(outcome) {}

    void open() override {
        // Syntax first, so a typo never touches the hardware.
        if (!options_.sense_spec.starts_with("gpio:") && !options_.sense_spec.starts_with("pps:")) {
            throw core::UsageError(fmt::format(
                "--sense '{}': the loopback input must be gpio:CHIP:LINE or pps:/dev/ppsN",
                options_.sense_spec));
        }
        drive_spec_ = latency::parse_drive_spec(options_.drive_spec);
        // The drive line first: its errors (no such chip or line, busy) are the likelier ones,
        // and requesting it drives it low, the idle level the sense side then starts from.
        drive_ = latency::open_gpio_output(drive_spec_);
        sense_ = capture::open_source(options_.sense_spec, options_.sense);
        cpu_start_ = latency::read_cpu_times(options_.proc_stat);
    }
    capture::RealtimeOptions settings() const override { return options_.realtime; }

    void enable() override {
        const store::RunMeta meta =
            latency_metadata(options_, sense_->info(), drive_spec_, drive_->details());
        file_ = create_latency_file(options_, meta, outcome_);
        records_.emplace(*file_);
    }

    void main_loop(capture::StopFlag stop) override {
        latency::SystemClock clock;
        try {
            outcome_.progress =
                latency::run_latency(*drive_, *sense_, *records_, options_.limits, stop, clock);
        } catch (const core::MeasurementError& e) {
            outcome_.failure = e.what();
            outcome_.progress.stop_reason = capture::StopReason::failed;
            outcome_.progress.records = file_->pulses_written();
        }
    }

    void finish(const capture::StopOnSignals& signals) override {
        outcome_.progress.stop_reason = signals.stop_reason(outcome_.progress.stop_reason);
        const auto cpu_end = latency::read_cpu_times(options_.proc_stat);
        store::EndRecord end;
        end.stop_reason = outcome_.progress.stop_reason;
        end.pulses = file_->pulses_written();
        end.latency =
            store::LatencyCounts{.edges_driven = outcome_.progress.edges_driven,
                                 .unseen_edges = outcome_.progress.unseen_edges,
                                 .stray_events = outcome_.progress.stray_events,
                                 .cpu_ticks = cpu_end.total - cpu_start_.total,
                                 .cpu_idle_ticks = cpu_end.idle - cpu_start_.idle,
                                 .cpu_idle_fraction = latency::idle_fraction(cpu_start_, cpu_end)};
        end.elapsed = outcome_.progress.elapsed;
        if (signals.signal_number() != 0) {
            end.signal = signals.signal_number();
        }
        if (!outcome_.failure.empty()) {
            end.failure = outcome_.failure;
        }
        file_->write_end(end);
        file_->close();
    }

    void abandon() noexcept override {
        if (!file_) {
            return;
        }
        try {
            file_->close();
        } catch (...) {
            // Being removed when empty; the error on its way out is the one to report.
        }
        if (file_->pulses_written() == 0) {
            ::unlink(outcome_.output_path.c_str());  // nothing measured: leave nothing behind
        }
    }

  private:
    const LatencyOptions& options_;
    LatencyOutcome& outcome_;
    latency::DriveSpec drive_spec_;
    std::unique_ptr<latency::OutputLine> drive_;
    std::unique_ptr<capture::PulseSource> sense_;
    latency::CpuTimes cpu_start_;
    std::unique_ptr<store::CaptureWriter> file_;
    std::optional<RecordWriter> records_;
};

}  // namespace

LatencyOutcome execute_latency(const LatencyOptions& options) {
    LatencyOutcome outcome;
    LatencySession session(options, outcome);
    run_lifecycle(session);
    return outcome;
}

}  // namespace ppsbench::session
