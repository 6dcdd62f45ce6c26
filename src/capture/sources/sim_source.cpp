// SPDX-License-Identifier: GPL-2.0-or-later
#include "sim_source.hpp"

#include <cerrno>
#include <cmath>
#include <ctime>

#include "ppsbench/core/clock.hpp"

namespace ppsbench::capture {

namespace {

constexpr std::int64_t fixed_epoch_ns = 1'767'225'600LL * core::ns_per_second;  // 2026-01-01

// Calibration (docs/sim-models.md). Hard-IRQ jitter on the write-up's Pi was bounded
// (p-p ≈ 5.2 σ over an hour, lighter-tailed than a Gaussian's ≈ 7.3 σ): modelled as the sum of
// two uniforms (GPS sawtooth and interrupt entry) plus a little Gaussian noise.
constexpr double hardirq_half_width_ns = 2588.0;
constexpr double hardirq_gauss_ns = 300.0;
// PREEMPT_RT with IRQF_NO_THREAD: same shape, σ 2568 / 2134 larger.
constexpr double nothread_scale = 2568.0 / 2134.0;
// Force-threaded handler: the timestamp waits for the IRQ thread to be scheduled. The wake-up
// delay is right-skewed with a long tail bounded by the scheduler: S·Beta(1, 3), σ = 0.1936·S.
constexpr double threaded_wakeup_scale_ns = 34'150.0;
// Pulse width for the clear edge when both edges are simulated.
constexpr double pulse_width_fraction = 0.1;

}  // namespace

SimSource::SimSource(std::string spec, SimModel model, const SourceOptions& options)
    : model_(std::move(model)), random_(options.seed), period_ns_(options.period.count()) {
    info_.spec = std::move(spec);
    info_.kind = "sim";
    info_.clock = core::ClockId::realtime;
    info_.edges = options.edges;
    info_.period = options.period;
    info_.simulated = true;
    // The simulated true edges: the other path of a two-source run is measured against them.
    info_.hardware_reference = model_.latency == SimLatencyModel::reference;
    info_.paced = options.pace_realtime;
    if (options.pace_realtime) {
        start_ns_ = (core::realtime_now_ns() / period_ns_ + 1) * period_ns_;
    } else {
        start_ns_ = fixed_epoch_ns - fixed_epoch_ns % period_ns_;
    }
    info_.details = {{"model", model_.name},
                     {"seed", options.seed},
                     {"missed_rate", model_.missed_rate},
                     {"outlier_rate", model_.outlier_rate},
                     {"outlier_ns", model_.outlier_ns},
                     {"frequency_ppm", model_.frequency_ppm},
                     {"paced", options.pace_realtime}};
    // Only when given, so the metadata of every earlier sim run stays as it was.
    if (model_.late_ns != 0) {
        info_.details["late_ns"] = model_.late_ns;
    }
    if (model_.step_at_s) {
        info_.details["step_at_s"] = *model_.step_at_s;
        info_.details["step_ns"] = model_.step_ns;
    }
}

double SimSource::latency_ns() {
    if (model_.latency == SimLatencyModel::reference) {
        return 0.0;  // no draw: a reference's edges do not depend on the seed
    }
    const double base = random_.uniform(-hardirq_half_width_ns, hardirq_half_width_ns) +
                        random_.uniform(-hardirq_half_width_ns, hardirq_half_width_ns) +
                        hardirq_gauss_ns * random_.normal();
    switch (model_.latency) {
        case SimLatencyModel::hardirq:
            return base;
        case SimLatencyModel::nothread:
            return nothread_scale * base;
        case SimLatencyModel::reference:
            return 0.0;
        case SimLatencyModel::threaded: {
            // Beta(1, 3) by inversion; subtract its mean (S/4) because chrony steers the clock to
            // the average timestamp, leaving the offsets centred.
            const double wakeup = 1.0 - std::cbrt(1.0 - random_.uniform());
            return base + threaded_wakeup_scale_ns * (wakeup - 0.25);
        }
    }
    return base;
}

core::Pulse SimSource::next_pulse() {
    for (;;) {
        const bool both = info_.edges == core::EdgeSelection::both;
        // Edges alternate assert, clear, assert, ... ; a single-edge run sees only its own.
        core::Edge edge = core::Edge::assert_edge;
        std::uint64_t second = edge_index_;
        if (both) {
            edge = (edge_index_ % 2 == 0) ? core::Edge::assert_edge : core::Edge::clear_edge;
            second = edge_index_ / 2;
        } else if (info_.edges == core::EdgeSelection::clear_only) {
            edge = core::Edge::clear_edge;
        }
        ++edge_index_;
        auto& sequence = edge == core::Edge::assert_edge ? assert_sequence_ : clear_sequence_;
        ++sequence;  // the kernel counts every edge, read or not

        const double nominal_offset_ns =
            static_cast<double>(second) * static_cast<double>(period_ns_) +
            (edge == core::Edge::clear_edge ? pulse_width_fraction * period_ns_ : 0.0);
        double offset = latency_ns() + static_cast<double>(model_.late_ns);
        if (random_.chance(model_.outlier_rate)) {
            offset += random_.chance(0.5) ? model_.outlier_ns : -model_.outlier_ns;
        }
        const double elapsed_s = nominal_offset_ns / 1e9;
        offset += model_.frequency_ppm * 1e-6 * nominal_offset_ns;
        if (model_.step_at_s && elapsed_s >= *model_.step_at_s) {
            offset += static_cast<double>(model_.step_ns);
        }
        if (random_.chance(model_.missed_rate)) {
            continue;  // the reader slept through this edge: a gap in sequence and time
        }
        return core::Pulse{sequence,
                           start_ns_ + static_cast<std::int64_t>(std::llround(nominal_offset_ns)) +
                               static_cast<std::int64_t>(std::llround(offset)),
                           edge};
    }
}

WaitResult SimSource::wait(core::Duration timeout) {
    if (!info_.paced) {
        return WaitResult::ready;
    }
    if (!have_pending_) {
        pending_ = next_pulse();
        have_pending_ = true;
    }
    const std::int64_t now = core::realtime_now_ns();
    const std::int64_t due = pending_.timestamp_ns;
    const bool in_time = due - now <= timeout.count();
    const std::int64_t wake = in_time ? due : now + timeout.count();
    timespec ts{static_cast<time_t>(wake / core::ns_per_second),
                static_cast<long>(wake % core::ns_per_second)};
    // Absolute sleep on the realtime clock: blocks in the kernel, and EINTR lets Ctrl-C through.
    const int rc = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, nullptr);
    if (rc == EINTR) {
        return WaitResult::interrupted;
    }
    return in_time ? WaitResult::ready : WaitResult::timeout;
}

std::size_t SimSource::read(std::span<core::Pulse> out) {
    if (out.empty()) {
        return 0;
    }
    if (info_.paced) {
        if (!have_pending_ || pending_.timestamp_ns > core::realtime_now_ns()) {
            return 0;  // not due yet: wait() timed out before it
        }
        out[0] = pending_;
        have_pending_ = false;
        return 1;
    }
    for (auto& pulse : out) {
        pulse = next_pulse();
    }
    return out.size();
}

}  // namespace ppsbench::capture
