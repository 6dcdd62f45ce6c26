// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/session/status_line.hpp"

#include <fmt/format.h>
#include <ctime>

#include "ppsbench/render/units.hpp"

#include "ppsbench/core/clock.hpp"

namespace ppsbench::session {

namespace {

// Elapsed and planned time as a clock ("2m 13s", "1h 00m 00s"), whole seconds, from the first
// redraw on: format_duration's "29 ns" or "12.5 s" reads as a measurement, not as time gone.
std::string clock_text(core::Duration d) {
    const std::int64_t total_s = d.count() / 1'000'000'000;
    const std::int64_t h = total_s / 3600;
    if (h > 0) {
        return fmt::format("{}h {:02}m {:02}s", h, (total_s / 60) % 60, total_s % 60);
    }
    return fmt::format("{}m {:02}s", total_s / 60, total_s % 60);
}

}  // namespace

StatusLine::StatusLine(std::FILE* stream, const capture::SourceInfo& source,
                       const capture::CaptureLimits& limits,
                       const std::atomic<std::int64_t>* chrony_rms_ns, StatusRow row)
    : stream_(stream),
      row_(std::move(row)),
      figure_(source),
      simulated_(source.simulated),
      chrony_rms_ns_(chrony_rms_ns),
      planned_(limits.duration),
      planned_count_(limits.count) {}

void StatusLine::update(std::span<const core::Pulse> batch,
                        const capture::CaptureProgress& progress) {
    for (const auto& pulse : batch) {
        if (const auto value = figure_.next(pulse.timestamp_ns)) {
            running_.add(*value);
            last_offset_ns_ = value;
        }
    }
    if (stream_ == nullptr) {
        return;
    }
    const std::int64_t now = core::monotonic_now_ns();
    if (drawn_ && now - last_draw_ns_ < 1'000'000'000) {
        return;
    }
    last_draw_ns_ = now;
    drawn_ = true;
    draw(render(progress));
}

void StatusLine::draw(std::string_view text) {
    // \r and erase-to-end keep it on one line however long the previous one was; the second
    // row is reached with a newline and left with cursor-up, in the same write.
    if (row_.row == 0) {
        fmt::print(stream_, "\r{}\x1b[K", text);
    } else {
        fmt::print(stream_, "\r\n{}\x1b[K\x1b[A\r", text);
    }
    std::fflush(stream_);
}

std::string StatusLine::render(const capture::CaptureProgress& progress) const {
    // A planned duration follows the elapsed time, a planned count the pulses: each beside
    // what it is compared with.
    const std::string planned = planned_ ? " / " + clock_text(*planned_) : "";
    const std::string planned_pulses =
        !planned_ && planned_count_ ? fmt::format(" / {}", *planned_count_) : "";
    const auto summary = running_.summary();
    const char* what = figure_.has_phase() ? "offset" : "period jitter";
    std::string figures;
    if (last_offset_ns_) {
        figures = fmt::format("  last {} {}", what, render::format_ns(*last_offset_ns_, true));
    }
    if (summary.count >= 2) {
        figures += fmt::format("  σ {}  p-p {}", render::format_ns(summary.stddev),
                               render::format_ns(summary.peak_to_peak));
    }
    if (chrony_rms_ns_ != nullptr) {
        const std::int64_t rms = chrony_rms_ns_->load(std::memory_order_relaxed);
        figures += rms == INT64_MIN ? std::string("  chrony RMS —")
                                    : fmt::format("  chrony RMS {}",
                                                  render::format_ns(static_cast<double>(rms)));
    }
    const std::string name = row_.name.empty() ? "" : fmt::format("{}  ", row_.name);
    return fmt::format("{}{}{}{}  pulses {}{}  missed {}{}", name, simulated_ ? "SIMULATED  " : "",
                       clock_text(progress.elapsed), planned, progress.pulses, planned_pulses,
                       progress.missed_pulses, figures);
}

void StatusLine::finish() {
    if (stream_ != nullptr && drawn_) {
        draw("");
    }
}

}  // namespace ppsbench::session
