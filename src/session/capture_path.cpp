// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/capture_path.hpp"

#include <unistd.h>
#include <algorithm>
#include <array>

#include "ppsbench/core/error.hpp"
#include "ppsbench/latency/clocks.hpp"
#include "ppsbench/latency/paired.hpp"

namespace ppsbench::session {

namespace {

// A monotonic-clock path's pulses with the REALTIME − MONOTONIC offset sampled right after the
// batch was read (microseconds after the events), one sample per batch. No allocation.
class TimeBaseSink final : public core::PulseSink {
  public:
    explicit TimeBaseSink(CaptureFiles& files) : files_(files) {}
    void write(std::span<const core::Pulse> pulses) override {
        const auto offset = latency::sample_clock_offset();
        // The capture loop hands at most max_pulses_per_write; a larger batch from another
        // caller goes in slices rather than past the end of extras_.
        while (!pulses.empty()) {
            const std::size_t n = std::min(pulses.size(), core::max_pulses_per_write);
            for (std::size_t i = 0; i < n; ++i) {
                extras_[columns * i] = offset.realtime_minus_monotonic_ns;
                extras_[columns * i + 1] = offset.bracket_ns;
            }
            files_.write_rows(pulses.first(n), std::span(extras_).first(columns * n));
            pulses = pulses.subspan(n);
        }
    }

  private:
    static constexpr std::size_t columns = 2;  // offset_column, bracket_column
    CaptureFiles& files_;
    std::array<std::int64_t, columns * core::max_pulses_per_write> extras_{};
};

// A path whose source records its own per-pulse columns (the PTP source's realtime − PHC
// offset and uncertainty): the values of the batch just read go beside its pulses.
class SourceColumnsSink final : public core::PulseSink {
  public:
    SourceColumnsSink(CaptureFiles& files, const capture::PulseSource& source)
        : files_(files), source_(source) {}
    void write(std::span<const core::Pulse> pulses) override {
        // The loop may keep only the first pulses of a batch (--count): the first rows go.
        const std::size_t columns = source_.extra_columns().size();
        files_.write_rows(pulses, source_.last_extras().first(columns * pulses.size()));
    }

  private:
    CaptureFiles& files_;
    const capture::PulseSource& source_;
};

}  // namespace

CapturePath::CapturePath(std::string name, const std::string& spec,
                         const capture::SourceOptions& options)
    : name_(std::move(name)), source_(capture::open_source(spec, options)) {}

void CapturePath::create_files(const std::string& output, const store::RunMeta& meta,
                               bool overwrite, std::optional<core::Duration> rotate,
                               bool per_pulse_columns) {
    if (!per_pulse_columns) {
        files_ = std::make_unique<CaptureFiles>(output, meta, overwrite, rotate);
    } else if (info().clock == core::ClockId::monotonic) {
        files_ = std::make_unique<CaptureFiles>(
            output, meta, overwrite, rotate,
            std::vector<std::string>{std::string(latency::offset_column),
                                     std::string(latency::bracket_column)});
        columns_ = std::make_unique<TimeBaseSink>(*files_);
    } else if (const auto own = source_->extra_columns(); !own.empty()) {
        files_ = std::make_unique<CaptureFiles>(output, meta, overwrite, rotate,
                                                std::vector<std::string>(own.begin(), own.end()));
        columns_ = std::make_unique<SourceColumnsSink>(*files_, *source_);
    } else {
        files_ = std::make_unique<CaptureFiles>(output, meta, overwrite, rotate);
    }
}

core::PulseSink& CapturePath::sink() {
    if (columns_) {
        return *columns_;
    }
    return *files_;
}

void CapturePath::start_status_line(std::FILE* stream, const capture::CaptureLimits& limits,
                                    const std::atomic<std::int64_t>* chrony_rms_ns, int row) {
    status_.emplace(stream, info(), limits, chrony_rms_ns, StatusRow{.name = name_, .row = row});
}

void CapturePath::finish_status_line() {
    if (status_) {
        status_->finish();
    }
}

void CapturePath::observe(std::span<const core::Pulse> batch,
                          const capture::CaptureProgress& progress, LiveMetrics* live,
                          std::size_t index) {
    last_seen_ = progress;
    if (status_) {
        status_->update(batch, progress);
    }
    if (live != nullptr) {
        live->update(index, batch, progress);
    }
}

void CapturePath::fail(const std::string& message) {
    failure_ = message;
    progress_ = last_seen_;
    progress_.stop_reason = capture::StopReason::failed;
}

void CapturePath::remove_files(bool always) noexcept {
    if (!files_) {
        return;
    }
    try {
        files_->close();
        if (always || files_->pulses_written() == 0) {
            ::unlink(files_->current_path().c_str());
        }
    } catch (...) {
        // Being removed, or a disk that fails: the error being thrown is the one to report.
    }
}

}  // namespace ppsbench::session
