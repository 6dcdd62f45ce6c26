// SPDX-License-Identifier: GPL-2.0-or-later
#include "gate_evidence.hpp"

#include <fmt/format.h>

#include <optional>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::analysis::detail {
namespace {

// chrony's state over a run, from its samples or from a saved summary's "chrony" object.
struct ChronyState {
    std::string final_status;  // "ok", "chronyd-not-running", …
    std::size_t samples = 0;
    std::size_t synchronised = 0;
    std::optional<std::int64_t> since_ns;  // when the final status began
};

std::optional<ChronyState> chrony_state(const RunAnalysis& run) {
    if (run.chrony) {
        ChronyState s{std::string(chrony::to_string(run.chrony->final_status)), run.chrony->samples,
                      run.chrony->synchronised_samples, std::nullopt};
        if (!run.chrony->changes.empty()) {
            s.since_ns = run.chrony->changes.back().wall_time_ns;
        }
        return s;
    }
    if (!run.saved || !run.saved->chrony.is_object()) {
        return std::nullopt;
    }
    const auto& j = run.saved->chrony;
    const auto status = j.find("status");
    const auto samples = j.find("samples");
    const auto synchronised = j.find("synchronised_samples");
    ChronyState s;
    // A summary whose chrony object lacks them cannot say chrony was synchronised at the end.
    s.final_status = status != j.end() && status->is_string() ? status->get<std::string>() : "";
    s.samples =
        samples != j.end() && samples->is_number_unsigned() ? samples->get<std::size_t>() : 0;
    s.synchronised = synchronised != j.end() && synchronised->is_number_unsigned()
                         ? synchronised->get<std::size_t>()
                         : 0;
    const auto changes = j.find("changes");
    if (changes != j.end() && changes->is_array() && !changes->empty() &&
        changes->back().is_object() && changes->back().contains("time_ns") &&
        changes->back()["time_ns"].is_number_integer()) {
        s.since_ns = changes->back()["time_ns"].get<std::int64_t>();
    }
    return s;
}

bool is_chrony_figure(const Metric& metric) {
    return metric.key == "rms_offset" || metric.key == "rms_offset_mean" ||
           metric.key == "pps_stddev";
}

}  // namespace

bool is_bias_figure(const Metric& metric) {
    return metric.key.starts_with("bias_");
}

std::string chrony_basis(const RunAnalysis& run, const MetricLimit& limit) {
    if (!is_chrony_figure(limit.metric)) {
        return {};
    }
    const auto state = chrony_state(run);
    if (!state) {
        return {};
    }
    if (state->final_status.empty()) {
        throw core::InputError(fmt::format(
            "{}: its chrony object does not say whether chrony was synchronised at the end of "
            "the run (no \"status\"), so a limit on the {} cannot judge it; save the summary "
            "again from its capture with this ppsbench",
            run.input(), limit.what));
    }
    if (state->final_status != "ok") {
        throw core::InputError(fmt::format(
            "{}: chrony was {} at the end of the run{}, so chrony's figures stop at its last "
            "synchronised sample, not at the end: a limit on the {} cannot judge it; capture "
            "while chronyd stays synchronised to the PPS refclock (chronyc tracking), or drop "
            "the limit",
            run.input(), state->final_status,
            state->since_ns
                ? fmt::format(" (from {})",
                              core::format_utc(*state->since_ns, core::UtcPrecision::seconds))
                : std::string(),
            limit.what));
    }
    if (2 * state->synchronised <= state->samples) {
        throw core::InputError(fmt::format(
            "{}: chrony was synchronised in only {} of its {} samples, so chrony's figures "
            "describe a minority of the run: a limit on the {} cannot judge it; capture while "
            "chronyd stays synchronised to the PPS refclock, or drop the limit",
            run.input(), state->synchronised, state->samples, limit.what));
    }
    return fmt::format("chrony synchronised at the end and in {} of {} samples",
                       state->synchronised, state->samples);
}

void require_evidence(const RunAnalysis& run, const MetricLimit& limit) {
    const auto& key = limit.metric.key;
    const auto& stats = run.stats;
    if (key == "missed" && stats.cadence == core::Cadence::sampled) {
        throw core::InputError(fmt::format(
            "{} is a sampled log (one filtered sample per poll): the seconds between its samples "
            "are polls, not missed pulses, so a limit on {} cannot judge it; gate a capture of "
            "every edge (ppsbench run, import chrony-refclocks), or drop the limit",
            run.input(), limit.what));
    }
    if ((key == "unseen" || key == "clock_steps") &&
        (stats.sequences == core::SequenceEvidence::synthetic ||
         stats.cadence == core::Cadence::sampled)) {
        throw core::InputError(fmt::format(
            "{} has sequence numbers made up from its timestamps (an import or a poll: path), "
            "not the kernel's: they prove no {}, so a limit on them cannot judge it; gate a "
            "capture of a pps: or ptp: source, or drop the limit",
            run.input(), limit.what));
    }
    if ((key == "mean" || key == "median" || key == "rms") && !stats.offset_ns) {
        throw core::InputError(fmt::format(
            "{} has no offsets from the top of the period ({}), so its headline is the detrended "
            "residuals, whose mean is 0 by construction (their median is near 0 and their RMS "
            "is σ): a limit on the {} cannot judge it; gate sigma, p2p or max_abs instead",
            run.input(),
            stats.free_running ? "its clock runs free" : "a monotonic clock or none recorded",
            limit.what));
    }
}

void require_bias_pairs(const RunAnalysis& run, std::uint64_t min_pairs,
                        const std::string& option) {
    if (!run.bias || run.bias->pairs >= min_pairs) {
        return;  // no bias at all: the figure's own refusal names the fix
    }
    throw core::InputError(fmt::format(
        "{}: {} has {} pair{} of edges with its reference, fewer than the {} a gate needs to "
        "judge a bias figure (--min-pulses, which bounds pairs as it bounds pulses); capture "
        "longer with the reference running, or set --min-pulses (docs/compare-and-gate.md)",
        option, run.input(), run.bias->pairs, run.bias->pairs == 1 ? "" : "s", min_pairs));
}

void require_same_cadence(const RunAnalysis& baseline, const RunAnalysis& current,
                          const std::string& option) {
    if (baseline.stats.cadence == current.stats.cadence) {
        return;
    }
    throw core::InputError(fmt::format(
        "{}: the baseline {} is {}, the current run {} is {}: one filtered sample per poll and "
        "every edge are not the same figure (docs/import.md), so no ratio or growth between "
        "them can be judged; gate two runs of one cadence",
        option, baseline.input(), core::to_string(baseline.stats.cadence), current.input(),
        core::to_string(current.stats.cadence)));
}

}  // namespace ppsbench::analysis::detail
