// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/analysis/reference_pairing.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "ppsbench/analysis/json_number.hpp"
#include "ppsbench/analysis/latency_runs.hpp"
#include "ppsbench/analysis/reference_file.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/latency/paired.hpp"
#include "ppsbench/stats/distributions.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/summary.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/json_integer.hpp"

namespace ppsbench::analysis {

namespace {

// The reference's own per-pulse uncertainty column (written by the PTP source; the poll
// source writes its half-bracket, which also marks it as a polled reference).
constexpr std::string_view uncertainty_column = "phc_offset_uncertainty_ns";
constexpr std::string_view poll_uncertainty_column = "poll_uncertainty_ns";
constexpr std::string_view poll_read_interval_column = "poll_read_interval_ns";

nlohmann::json interval_json(const stats::Interval& interval) {
    return nlohmann::json::array({json_number(interval.lo), json_number(interval.hi)});
}

double number(const nlohmann::json& json, const char* key) {
    const auto it = json.find(key);
    return it != json.end() && it->is_number() ? it->get<double>() : std::nan("");
}

stats::Interval interval(const nlohmann::json& json, const char* key) {
    const auto it = json.find(key);
    if (it == json.end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_number() ||
        !(*it)[1].is_number()) {
        return {};
    }
    return {(*it)[0].get<double>(), (*it)[1].get<double>()};
}

// Against a polled reference: the polled periods' pairs are the disturbance; each of the path's
// other pulses is measured against the edge interpolated (linearly, by period count) between
// the polled edges around it.
void split_polled(const std::vector<latency::TimedPulse>& theirs,
                  const std::vector<latency::TimedPulse>& mine, const latency::Pairing& pairing,
                  std::int64_t period_ns, Lateness& lateness) {
    std::vector<bool> paired(mine.size(), false);
    for (const auto& pair : pairing.pairs) {
        paired[pair.b] = true;
        lateness.polled_late_ns.push_back(static_cast<double>(pair.difference_ns));
    }
    lateness.interpolated = true;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const std::int64_t t = mine[i].time_ns;
        const auto next = std::upper_bound(
            theirs.begin(), theirs.end(), t,
            [](std::int64_t x, const latency::TimedPulse& p) { return x < p.time_ns; });
        if (paired[i] || next == theirs.begin() || next == theirs.end()) {
            continue;
        }
        const auto edge =
            latency::interpolated_edge((next - 1)->time_ns, next->time_ns, t, period_ns);
        if (!edge) {
            continue;
        }
        lateness.edge_ns.push_back(*edge);
        lateness.late_ns.push_back(static_cast<double>(t - *edge));
    }
}

// The median of a poll column over the reference's pulses; NaN without the column.
double column_median(const store::CaptureFile& reference, std::optional<std::size_t> column) {
    if (!column || reference.pulses.empty()) {
        return std::nan("");
    }
    std::vector<double> values;
    values.reserve(reference.pulses.size());
    for (std::size_t i = 0; i < reference.pulses.size(); ++i) {
        values.push_back(static_cast<double>(reference.extra(i, *column)));
    }
    std::sort(values.begin(), values.end());
    return stats::quantile_sorted(values, 0.5);
}

// Written only against a polled reference, so every other run's document stays as it was.
void add_polled(nlohmann::json& json, const Bias& bias) {
    if (bias.polled_pairs > 0) {
        json["polled"] = {{"pairs", bias.polled_pairs},
                          {"mean_ns", json_number(bias.polled_mean_ns)},
                          {"median_ns", json_number(bias.polled_median_ns)},
                          {"periods", bias.poll_periods},
                          {"read_interval_ns", json_number(bias.poll_read_interval_ns)},
                          {"uncertainty_median_ns", json_number(bias.poll_uncertainty_median_ns)}};
    }
}

// A reference that shares no time with the path is another session's (a file of the same name
// from another run): pairing would find nothing and blame the edge or the count.
void refuse_disjoint_spans(const store::CaptureFile& file,
                           const std::vector<latency::TimedPulse>& mine,
                           const store::CaptureFile& reference,
                           const std::vector<latency::TimedPulse>& theirs) {
    // A rotated run's last part may hold a pulse or two past a seam the other path's run ended
    // before: its partner is still the right file, with nothing to pair.
    if (mine.empty() || theirs.empty() || file.run_meta.rotation) {
        return;
    }
    const auto [my_first, my_last] =
        std::minmax_element(mine.begin(), mine.end(),
                            [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
    const auto [their_first, their_last] =
        std::minmax_element(theirs.begin(), theirs.end(),
                            [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
    if (my_first->time_ns <= their_last->time_ns && their_first->time_ns <= my_last->time_ns) {
        return;
    }
    const auto utc = [](std::int64_t ns) {
        return core::format_utc(ns, core::UtcPrecision::seconds);
    };
    throw core::InputError(fmt::format(
        "{}: its pulses ({} … {}) share no time with its reference {} ({} … {}): that file is "
        "of another session; give the path's file beside its own run's reference",
        file.path, utc(my_first->time_ns), utc(my_last->time_ns), reference.path,
        utc(their_first->time_ns), utc(their_last->time_ns)));
}

}  // namespace

nlohmann::json to_json(const Bias& bias) {
    nlohmann::json json = {{"reference", bias.reference},
                           {"pairs", bias.pairs},
                           {"unpaired", bias.unpaired},
                           {"mean_ns", json_number(bias.mean_ns)},
                           {"mean_ci95_ns", interval_json(bias.mean_interval)},
                           {"median_ns", json_number(bias.median_ns)},
                           {"median_ci95_ns", interval_json(bias.median_interval)},
                           {"stddev_ns", json_number(bias.stddev_ns)},
                           {"p99_ns", json_number(bias.p99_ns)},
                           {"min_ns", json_number(bias.min_ns)},
                           {"max_ns", json_number(bias.max_ns)},
                           {"reference_uncertainty_ns", bias.reference_uncertainty_ns}};
    add_polled(json, bias);
    return json;
}

Bias bias_from_json(const nlohmann::json& json) {
    Bias bias;
    // A saved summary is input: a field of the wrong type or a count that does not fit is
    // reported, never cast (issue 12's fuzzing found that class of bug in the other readers).
    const auto count = [&](const char* key) {
        const auto it = json.find(key);
        if (it == json.end()) {
            return std::size_t{0};
        }
        if (const auto value = store::json_integer<std::size_t>(*it)) {
            return *value;
        }
        throw core::InputError(fmt::format("\"bias\".\"{}\" is not a count", key));
    };
    if (const auto it = json.find("reference"); it != json.end()) {
        if (!it->is_string()) {
            throw core::InputError("\"bias\".\"reference\" is not a string");
        }
        bias.reference = it->get<std::string>();
    }
    bias.pairs = count("pairs");
    bias.unpaired = count("unpaired");
    bias.mean_ns = number(json, "mean_ns");
    bias.mean_interval = interval(json, "mean_ci95_ns");
    bias.median_ns = number(json, "median_ns");
    bias.median_interval = interval(json, "median_ci95_ns");
    bias.stddev_ns = number(json, "stddev_ns");
    bias.p99_ns = number(json, "p99_ns");
    bias.min_ns = number(json, "min_ns");
    bias.max_ns = number(json, "max_ns");
    bias.reference_uncertainty_ns = -1;
    if (const auto it = json.find("reference_uncertainty_ns"); it != json.end()) {
        const auto value = store::json_integer<std::int64_t>(*it);
        if (!value) {
            throw core::InputError("\"bias\".\"reference_uncertainty_ns\" is not a whole number");
        }
        bias.reference_uncertainty_ns = *value;
    }
    if (const auto it = json.find("polled"); it != json.end()) {
        if (!it->is_object()) {
            throw core::InputError("\"bias\".\"polled\" is not an object");
        }
        const auto pairs = it->find("pairs");
        const auto value = pairs != it->end() ? store::json_integer<std::size_t>(*pairs)
                                              : std::optional<std::size_t>{};
        if (!value) {
            throw core::InputError("\"bias\".\"polled\".\"pairs\" is not a count");
        }
        bias.polled_pairs = *value;
        bias.polled_mean_ns = number(*it, "mean_ns");
        bias.polled_median_ns = number(*it, "median_ns");
        if (const auto periods = it->find("periods"); periods != it->end()) {
            const auto count = store::json_integer<std::size_t>(*periods);
            if (!count) {
                throw core::InputError("\"bias\".\"polled\".\"periods\" is not a count");
            }
            bias.poll_periods = *count;
        }
        bias.poll_read_interval_ns = number(*it, "read_interval_ns");
        bias.poll_uncertainty_median_ns = number(*it, "uncertainty_median_ns");
    }
    return bias;
}

Bias describe_bias(std::vector<double> late_ns, double confidence) {
    Bias bias;
    const std::size_t n = late_ns.size();
    bias.pairs = n;
    if (n == 0) {
        const double nan = std::nan("");
        bias.mean_ns = bias.median_ns = bias.stddev_ns = bias.p99_ns = bias.max_ns = bias.min_ns =
            nan;
        return bias;
    }
    const stats::Summary s = stats::summarize(late_ns);
    bias.mean_ns = s.mean;
    bias.stddev_ns = s.stddev;
    std::sort(late_ns.begin(), late_ns.end());
    bias.median_ns = stats::quantile_sorted(late_ns, 0.5);
    bias.p99_ns = stats::quantile_sorted(late_ns, 0.99);
    bias.min_ns = late_ns.front();
    bias.max_ns = late_ns.back();
    if (n >= 2) {
        // t_{(1+c)/2}(n−1)² is F_c(1, n−1).
        const double t = std::sqrt(stats::f_quantile(confidence, 1.0, static_cast<double>(n - 1)));
        const double half = t * s.stddev / std::sqrt(static_cast<double>(n));
        bias.mean_interval = {s.mean - half, s.mean + half};
    }
    // Ranks n/2 ∓ z·√n/2 (normal approximation to the binomial), 1-based, clamped; with too
    // few pairs for the confidence asked, the interval is the whole range, which says so.
    const double z = stats::normal_quantile(0.5 + confidence / 2);
    const double spread = z * std::sqrt(static_cast<double>(n)) / 2;
    const auto lo_rank = static_cast<std::ptrdiff_t>(std::floor(n / 2.0 - spread));
    const auto hi_rank = static_cast<std::ptrdiff_t>(std::ceil(n / 2.0 + spread)) + 1;
    const auto last = static_cast<std::ptrdiff_t>(n);
    bias.median_interval = {
        late_ns[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(lo_rank, 1, last) - 1)],
        late_ns[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(hi_rank, 1, last) - 1)]};
    return bias;
}

Lateness lateness_against(const store::CaptureFile& file, const store::CaptureFile& reference,
                          const std::string& reference_source, std::optional<core::Edge> edge) {
    const core::ClockId clock =
        latency::common_clock(file.run_meta.clock, reference.run_meta.clock);
    auto mine = on_time_base(file, clock);
    if (edge) {
        std::erase_if(mine, [&](const latency::TimedPulse& p) { return p.edge != *edge; });
    }
    const auto theirs = on_time_base(reference, clock);
    refuse_disjoint_spans(file, mine, reference, theirs);
    const latency::Pairing pairing =
        latency::pair_edges(theirs, mine, file.run_meta.period.count() / 2);
    Lateness lateness;
    lateness.reference = reference_source;
    lateness.unpaired = pairing.unpaired_a + pairing.unpaired_b;
    auto column = reference.extra_column(uncertainty_column);
    if (const auto polled = reference.extra_column(poll_uncertainty_column)) {
        split_polled(theirs, mine, pairing, file.run_meta.period.count(), lateness);
        // What no interpolation reached (the ends, a run of missed windows) stays unpaired.
        lateness.unpaired = mine.size() - lateness.late_ns.size() - lateness.polled_late_ns.size();
        lateness.poll_periods = reference.pulses.size();
        lateness.poll_read_interval_ns =
            column_median(reference, reference.extra_column(poll_read_interval_column));
        lateness.poll_uncertainty_median_ns = column_median(reference, polled);
        column = polled;
    } else {
        for (const auto& pair : pairing.pairs) {
            lateness.edge_ns.push_back(theirs[pair.a].time_ns);
            lateness.late_ns.push_back(static_cast<double>(pair.difference_ns));
        }
    }
    if (column) {
        for (std::size_t i = 0; i < reference.pulses.size(); ++i) {
            lateness.reference_uncertainty_ns =
                std::max(lateness.reference_uncertainty_ns, reference.extra(i, *column));
        }
    }
    return lateness;
}

std::optional<Lateness> reference_lateness(const store::CaptureFile& file,
                                           std::optional<core::Edge> edge) {
    if (!file.run_meta.dual || !file.run_meta.dual->peer_is_reference) {
        return std::nullopt;
    }
    if (file.joined_parts > 1) {
        // Each part pairs with the reference's part open beside it; the joined pulses have no
        // one reference file, and pairing them with the first part's would be that part's bias.
        throw core::InputError(fmt::format(
            "{}: the bias of joined parts is not computed yet (each part has its own reference "
            "part); report or calibrate the parts one by one for it",
            file.path));
    }
    const std::string path = *reference_file(file.run_meta, file.path);
    store::CaptureFile reference;
    try {
        reference = store::read_capture_file(path);
    } catch (const core::Error& e) {
        throw core::InputError(fmt::format(
            "{}: its hardware reference {} cannot be read ({}); keep the two files of a "
            "two-source run together",
            file.path, path, e.what()));
    }
    check_reference_is_its_own(file, reference);
    return lateness_against(file, reference, file.run_meta.dual->peer_source, edge);
}

Bias bias_of(Lateness lateness, double confidence) {
    Bias bias = describe_bias(std::move(lateness.late_ns), confidence);
    if (lateness.interpolated) {
        const Bias polled = describe_bias(std::move(lateness.polled_late_ns), confidence);
        bias.polled_pairs = polled.pairs;
        bias.polled_mean_ns = polled.mean_ns;
        bias.polled_median_ns = polled.median_ns;
        bias.poll_periods = lateness.poll_periods;
        bias.poll_read_interval_ns = lateness.poll_read_interval_ns;
        bias.poll_uncertainty_median_ns = lateness.poll_uncertainty_median_ns;
    }
    bias.reference = lateness.reference;
    bias.unpaired = lateness.unpaired;
    bias.reference_uncertainty_ns = lateness.reference_uncertainty_ns;
    return bias;
}

std::optional<Bias> reference_bias(const store::CaptureFile& file, std::optional<core::Edge> edge,
                                   double confidence) {
    auto lateness = reference_lateness(file, edge);
    if (!lateness) {
        return std::nullopt;
    }
    return bias_of(std::move(*lateness), confidence);
}

}  // namespace ppsbench::analysis
