// SPDX-License-Identifier: GPL-2.0-or-later
// Reading the statistics of one run back from a saved summary (`report --format json`). Every
// figure the document holds comes back; one it does not hold stays absent (NaN, never 0: a
// gate on "σ without outliers 0 ns" passed on a summary that never held that figure). A value
// of the wrong type is an error naming its key: the caller names the file.
#include <fmt/format.h>

#include "metrics_detail.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/statistics_json.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/json_integer.hpp"

namespace ppsbench::analysis {

namespace {

// A figure: a number, or null (written for NaN) or missing: absent.
double figure(const nlohmann::json& object, std::string_view key, std::string_view where) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return nan;
    }
    if (!it->is_number()) {
        throw core::InputError(
            fmt::format("{}\"{}\" is {}, not a number", where, key, it->type_name()));
    }
    return it->get<double>();
}

stats::Summary absent_summary() {
    stats::Summary s;
    s.mean = s.stddev = s.min = s.max = s.peak_to_peak = s.rms = nan;
    return s;
}

// A series object; `without` gets σ without outliers (its other figures stay absent).
stats::Summary summary_from_json(const nlohmann::json& j, std::string_view name, std::size_t count,
                                 stats::Summary& without) {
    stats::Summary s = absent_summary();
    without = absent_summary();
    if (j.is_null()) {
        return s;
    }
    const std::string where = fmt::format("\"{}\".", name);
    if (!j.is_object()) {
        throw core::InputError(fmt::format("\"{}\" is {}, not an object", name, j.type_name()));
    }
    s.count = count;
    const nlohmann::json empty = nlohmann::json::object();
    const auto percentiles = j.find("abs_percentiles");
    const bool has_percentiles = percentiles != j.end() && !percentiles->is_null();
    if (has_percentiles && !percentiles->is_object()) {
        throw core::InputError(fmt::format("{}\"abs_percentiles\" is {}, not an object", where,
                                           percentiles->type_name()));
    }
    for (const auto& f : summary_figures()) {
        if (f.abs_percentile) {
            f.set(s, has_percentiles
                         ? figure(*percentiles, f.document_key, where + "\"abs_percentiles\".")
                         : nan);
        } else {
            f.set(s, figure(j, f.document_key, where));
        }
    }
    if (const auto ci = j.find("stddev_ci95"); ci != j.end() && ci->is_array() && ci->size() == 2) {
        const auto bound = [&](std::size_t i) {
            return (*ci)[i].is_number() ? (*ci)[i].get<double>() : nan;
        };
        s.stddev_ci95 = {bound(0), bound(1)};
    }
    without.stddev = figure(j, "stddev_without_outliers", where);
    without.count = count;
    return s;
}

std::vector<double> figure_array(const nlohmann::json& object, std::string_view key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return {};
    }
    if (!it->is_array()) {
        throw core::InputError(
            fmt::format("\"stability\".\"{}\" is {}, not an array", key, it->type_name()));
    }
    std::vector<double> values;
    for (const auto& value : *it) {
        if (!value.is_null() && !value.is_number()) {
            throw core::InputError(
                fmt::format("\"stability\".\"{}\" holds {}, not a number", key, value.type_name()));
        }
        values.push_back(value.is_number() ? value.get<double>() : nan);
    }
    return values;
}

// The octave taus and each estimator at them; an estimator with more values than taus does not
// say which τ each belongs to.
std::optional<stats::Stability> stability_from_json(const nlohmann::json& j) {
    if (j.is_null()) {
        return std::nullopt;
    }
    if (!j.is_object()) {
        throw core::InputError(fmt::format("\"stability\" is {}, not an object", j.type_name()));
    }
    stats::Stability s;
    s.tau_s = figure_array(j, "tau_s");
    s.tau0_s = s.tau_s.empty() ? nan : s.tau_s.front();
    for (const auto& f : stability_figures()) {
        s.*f.values = figure_array(j, f.document_key);
        if ((s.*f.values).size() > s.tau_s.size()) {
            throw core::InputError(fmt::format("\"stability\".\"{}\" has {} values for {} taus",
                                               f.document_key, (s.*f.values).size(),
                                               s.tau_s.size()));
        }
    }
    return s;
}

// A count is a whole number that a double holds exactly; anything else (-5, 1e35) is a damaged
// document, not a count to cast (found with fuzz/report_document_fuzz).
double count_of(const nlohmann::json& value, std::string_view key) {
    const auto count = store::json_integer<std::uint64_t>(value);
    if (!count || *count > (std::uint64_t{1} << 53U)) {
        throw core::InputError(fmt::format("\"{}\" is {}, not a count", key, value.dump()));
    }
    return static_cast<double>(*count);
}

void read_counts(const nlohmann::json& j, SavedStatistics& saved) {
    for (const auto& count : run_counts()) {
        const std::string key(count.document_key);
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            saved.figures[key] = nan;
            continue;
        }
        saved.figures[key] = count_of(*it, key);
        if (count.restore != nullptr) {
            count.restore(saved.stats, saved.figures[key]);
        }
    }
    const auto steps = j.find("clock_steps");
    if (steps != j.end() && !steps->is_null() && !steps->is_array()) {
        throw core::InputError(
            fmt::format("\"clock_steps\" is {}, not an array", steps->type_name()));
    }
    const bool held = steps != j.end() && steps->is_array();
    saved.figures["clock_steps"] = held ? static_cast<double>(steps->size()) : nan;
    saved.clock_steps = held ? *steps : nlohmann::json(nullptr);
}

// The cadence, the sequence numbers' kind and whether the clock ran free. Summaries saved before
// they were written (/1, and /2 before them) hold none: the defaults then, every edge, kernel
// numbers and a disciplined clock, are what their figures were computed under (an older summary
// of an import counted no unseen event or step, having no evidence for them).
void read_recording(const nlohmann::json& j, stats::RunStatistics& st) {
    if (const auto cadence = j.find("cadence"); cadence != j.end() && !cadence->is_null()) {
        const auto parsed =
            cadence->is_string() ? core::parse_cadence(cadence->get<std::string>()) : std::nullopt;
        if (!parsed) {
            throw core::InputError(fmt::format(
                "\"cadence\" is {}, not \"every-edge\", \"every-edge-with-losses\" or \"sampled\"",
                cadence->dump()));
        }
        st.cadence = *parsed;
    }
    if (const auto sequences = j.find("sequences"); sequences != j.end() && !sequences->is_null()) {
        const auto parsed = sequences->is_string()
                                ? core::parse_sequence_evidence(sequences->get<std::string>())
                                : std::nullopt;
        if (!parsed) {
            throw core::InputError(fmt::format(
                "\"sequences\" is {}, not \"kernel\" or \"synthetic\"", sequences->dump()));
        }
        st.sequences = *parsed;
    }
    if (const auto free = j.find("free_running"); free != j.end() && !free->is_null()) {
        if (!free->is_boolean()) {
            throw core::InputError(
                fmt::format("\"free_running\" is {}, not true or false", free->type_name()));
        }
        st.free_running = free->get<bool>();
    }
    if (const auto judged = j.find("drift_judged"); judged != j.end() && !judged->is_null()) {
        if (!judged->is_boolean()) {
            throw core::InputError(
                fmt::format("\"drift_judged\" is {}, not true or false", judged->type_name()));
        }
        st.drift_judged = judged->get<bool>();
    }
}

const nlohmann::json& member(const nlohmann::json& j, const char* key) {
    static const nlohmann::json null;
    if (!j.is_object()) {
        return null;
    }
    const auto it = j.find(key);
    return it == j.end() ? null : *it;
}

// chrony's figures of the registry, from the document's "chrony" object (which is kept for
// people and not restored whole): RMS offset at the end and its mean, the PPS std dev at the end.
void read_chrony_figures(const nlohmann::json& chrony, SavedStatistics& saved) {
    if (!chrony.is_null() && !chrony.is_object()) {
        throw core::InputError(fmt::format("\"chrony\" is {}, not an object", chrony.type_name()));
    }
    const auto& rms = member(chrony, "rms_offset_ns");
    const auto& pps_std_dev = member(member(chrony, "pps"), "std_dev_ns");
    const auto at = [](const nlohmann::json& object, const char* key, const char* where) {
        return object.is_object() ? figure(object, key, where) : nan;
    };
    saved.figures["chrony_rms_offset_ns"] = at(rms, "end", "\"chrony\".\"rms_offset_ns\".");
    saved.figures["chrony_rms_offset_mean_ns"] = at(rms, "mean", "\"chrony\".\"rms_offset_ns\".");
    saved.figures["chrony_pps_std_dev_ns"] =
        at(pps_std_dev, "end", "\"chrony\".\"pps\".\"std_dev_ns\".");
}

// The clock the pulses were stamped with: "clock" as written since it existed; in older
// documents, realtime when the run has a phase offset (which a tai run has too, so only "clock"
// tells it), else monotonic.
core::ClockId clock_from_json(const nlohmann::json& j, const nlohmann::json& offset) {
    const auto& clock = member(j, "clock");
    if (clock.is_null()) {
        return offset.is_object() ? core::ClockId::realtime : core::ClockId::monotonic;
    }
    const auto id = clock.is_string() ? core::parse_clock_id(clock.get<std::string>())
                                      : std::optional<core::ClockId>{};
    if (!id) {
        throw core::InputError(
            fmt::format("\"clock\" is {}, not \"realtime\", \"tai\" or "
                        "\"monotonic\"",
                        clock.dump()));
    }
    return *id;
}

}  // namespace

SavedStatistics statistics_from_json(const nlohmann::json& j) {
    SavedStatistics saved;
    auto& st = saved.stats;
    read_counts(j, saved);
    read_recording(j, st);
    read_chrony_figures(member(j, "chrony"), saved);
    const auto& offset = member(j, "offset_ns");
    st.clock = clock_from_json(j, offset);
    if (offset.is_object()) {
        stats::Summary without;
        st.offset_ns = summary_from_json(offset, "offset_ns", st.pulses, without);
        st.offset_ns_without_outliers = without;
    } else if (!offset.is_null()) {
        throw core::InputError(
            fmt::format("\"offset_ns\" is {}, not an object", offset.type_name()));
    }
    st.detrended_ns = summary_from_json(member(j, "detrended_ns"), "detrended_ns", st.pulses,
                                        st.detrended_ns_without_outliers);
    st.period_jitter_ns = summary_from_json(member(j, "period_jitter_ns"), "period_jitter_ns", 0,
                                            st.period_jitter_ns_without_outliers);
    st.stability = stability_from_json(member(j, "stability"));
    return saved;
}

}  // namespace ppsbench::analysis
