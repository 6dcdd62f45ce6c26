// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/json.hpp"

#include <fmt/format.h>
#include <charconv>

#include "ppsbench/core/error.hpp"
#include "ppsbench/store/json_integer.hpp"

namespace ppsbench::chrony {
namespace {

using nlohmann::json;

template <typename T>
json optional_json(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

// An integer field; a number that T cannot hold is an error, not a cast (1e35 into an int64 is
// undefined behaviour; seen after the same cast in the capture metadata was fuzzed).
template <typename T>
T integer_at(const json& j, const char* key) {
    const auto& value = j.at(key);
    if (const auto integer = store::json_integer<T>(value)) {
        return *integer;
    }
    throw core::InputError(
        fmt::format("chrony JSON: {} is {}, not a whole number in range", key, value.dump()));
}

template <typename T>
std::optional<T> optional_from(const json& j, const char* key) {
    if (!j.contains(key) || j.at(key).is_null()) {
        return std::nullopt;
    }
    if constexpr (std::is_integral_v<T>) {
        return integer_at<T>(j, key);
    } else {
        return j.at(key).get<T>();
    }
}

std::uint32_t parse_ref_id(const std::string& hex) {
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
    if (ec != std::errc{} || end != hex.data() + hex.size() || hex.empty() || hex.size() > 8) {
        throw core::InputError(fmt::format("chrony JSON: ref_id '{}' is not 8 hex digits", hex));
    }
    return value;
}

template <typename Enum>
Enum parse_enum(const json& j, const char* key, std::optional<Enum> (*parse)(std::string_view)) {
    const auto text = j.at(key).get<std::string>();
    const auto value = parse(text);
    if (!value) {
        throw core::InputError(fmt::format("chrony JSON: {} '{}' is not known", key, text));
    }
    return *value;
}

std::optional<SourceMode> parse_mode_symbol(std::string_view text) {
    for (auto m : {SourceMode::server, SourceMode::peer, SourceMode::refclock}) {
        if (text.size() == 1 && text[0] == to_symbol(m)) {
            return m;
        }
    }
    return std::nullopt;
}

std::optional<SourceState> parse_state_symbol(std::string_view text) {
    for (auto s : {SourceState::selected, SourceState::combined, SourceState::not_combined,
                   SourceState::falseticker, SourceState::jittery, SourceState::unusable}) {
        if (text.size() == 1 && text[0] == to_symbol(s)) {
            return s;
        }
    }
    return std::nullopt;
}

}  // namespace

void to_json(json& j, const TrackingSample& t) {
    j = json{{"ref_id", t.ref_id_hex()},
             {"ref_name", t.ref_name},
             {"stratum", t.stratum},
             {"ref_time_ns", t.ref_time_ns},
             {"system_time_offset_ns", t.system_time_offset_ns},
             {"last_offset_ns", t.last_offset_ns},
             {"rms_offset_ns", t.rms_offset_ns},
             {"frequency_ppm", t.frequency_ppm},
             {"residual_frequency_ppm", t.residual_frequency_ppm},
             {"skew_ppm", t.skew_ppm},
             {"root_delay_ns", t.root_delay_ns},
             {"root_dispersion_ns", t.root_dispersion_ns},
             {"update_interval_s", t.update_interval_s},
             {"leap", std::string(to_string(t.leap))}};
}

void from_json(const json& j, TrackingSample& t) {
    t.ref_id = parse_ref_id(j.at("ref_id").get<std::string>());
    t.ref_name = j.at("ref_name").get<std::string>();
    t.stratum = integer_at<int>(j, "stratum");
    t.ref_time_ns = integer_at<std::int64_t>(j, "ref_time_ns");
    t.system_time_offset_ns = integer_at<std::int64_t>(j, "system_time_offset_ns");
    t.last_offset_ns = integer_at<std::int64_t>(j, "last_offset_ns");
    t.rms_offset_ns = integer_at<std::int64_t>(j, "rms_offset_ns");
    t.frequency_ppm = j.at("frequency_ppm").get<double>();
    t.residual_frequency_ppm = j.at("residual_frequency_ppm").get<double>();
    t.skew_ppm = j.at("skew_ppm").get<double>();
    t.root_delay_ns = integer_at<std::int64_t>(j, "root_delay_ns");
    t.root_dispersion_ns = integer_at<std::int64_t>(j, "root_dispersion_ns");
    t.update_interval_s = j.at("update_interval_s").get<double>();
    t.leap = parse_enum<LeapStatus>(j, "leap", parse_leap_status);
}

void to_json(json& j, const SourceRow& r) {
    j = json{{"mode", std::string(1, to_symbol(r.mode))},
             {"state", std::string(1, to_symbol(r.state))},
             {"name", r.name},
             {"stratum", r.stratum},
             {"poll", r.poll},
             {"reach", r.reach},
             {"last_rx_s", optional_json(r.last_rx_s)},
             {"adjusted_offset_ns", r.adjusted_offset_ns},
             {"measured_offset_ns", r.measured_offset_ns},
             {"error_ns", r.error_ns}};
}

void from_json(const json& j, SourceRow& r) {
    r.mode = parse_enum<SourceMode>(j, "mode", parse_mode_symbol);
    r.state = parse_enum<SourceState>(j, "state", parse_state_symbol);
    r.name = j.at("name").get<std::string>();
    r.stratum = integer_at<int>(j, "stratum");
    r.poll = integer_at<int>(j, "poll");
    r.reach = integer_at<int>(j, "reach");
    r.last_rx_s = optional_from<std::uint32_t>(j, "last_rx_s");
    r.adjusted_offset_ns = integer_at<std::int64_t>(j, "adjusted_offset_ns");
    r.measured_offset_ns = integer_at<std::int64_t>(j, "measured_offset_ns");
    r.error_ns = integer_at<std::int64_t>(j, "error_ns");
}

void to_json(json& j, const SourceStatsRow& r) {
    j = json{{"name", r.name},
             {"samples", r.samples},
             {"runs", r.runs},
             {"span_s", r.span_s},
             {"frequency_ppm", r.frequency_ppm},
             {"frequency_skew_ppm", r.frequency_skew_ppm},
             {"offset_ns", r.offset_ns},
             {"std_dev_ns", r.std_dev_ns}};
}

void from_json(const json& j, SourceStatsRow& r) {
    r.name = j.at("name").get<std::string>();
    r.samples = integer_at<int>(j, "samples");
    r.runs = integer_at<int>(j, "runs");
    r.span_s = integer_at<std::int64_t>(j, "span_s");
    r.frequency_ppm = j.at("frequency_ppm").get<double>();
    r.frequency_skew_ppm = j.at("frequency_skew_ppm").get<double>();
    r.offset_ns = integer_at<std::int64_t>(j, "offset_ns");
    r.std_dev_ns = integer_at<std::int64_t>(j, "std_dev_ns");
}

void to_json(json& j, const ChronySample& s) {
    j = json{{"v", sample_json_version},
             {"time_ns", s.wall_time_ns},
             {"status", std::string(to_string(s.status))},
             {"detail", s.detail},
             {"tracking", optional_json(s.tracking)},
             {"pps_pick", std::string(to_string(s.pps_pick))},
             {"pps_source", optional_json(s.pps_source)},
             {"pps_stats", optional_json(s.pps_stats)}};
}

void from_json(const json& j, ChronySample& s) {
    try {
        const int version = integer_at<int>(j, "v");
        if (version != sample_json_version) {
            throw core::InputError(
                fmt::format("chrony sample JSON has version {}, this ppsbench reads version {}; "
                            "use a matching ppsbench",
                            version, sample_json_version));
        }
        s.wall_time_ns = integer_at<std::int64_t>(j, "time_ns");
        s.status = parse_enum<ChronyStatus>(j, "status", parse_chrony_status);
        s.detail = j.at("detail").get<std::string>();
        s.tracking = optional_from<TrackingSample>(j, "tracking");
        s.pps_pick = parse_enum<PpsPick>(j, "pps_pick", parse_pps_pick);
        s.pps_source = optional_from<SourceRow>(j, "pps_source");
        s.pps_stats = optional_from<SourceStatsRow>(j, "pps_stats");
    } catch (const json::exception& e) {
        throw core::InputError(fmt::format("chrony sample JSON: {}", e.what()));
    }
}

void to_json(json& j, const ChronySummary& s) {
    json changes = json::array();
    for (const auto& c : s.changes) {
        changes.push_back(json{{"time_ns", c.wall_time_ns},
                               {"status", std::string(to_string(c.status))},
                               {"detail", c.detail}});
    }
    json reference = nullptr;
    if (s.end) {
        reference = json{{"ref_id", s.end->ref_id_hex()},
                         {"name", s.end->ref_name},
                         {"stratum", s.end->stratum},
                         {"leap", std::string(to_string(s.end->leap))}};
    }
    json pps = nullptr;
    if (s.pps_source) {
        pps =
            json{{"name", s.pps_source->name},
                 {"pick", std::string(to_string(s.pps_pick))},
                 {"state", std::string(1, to_symbol(s.pps_source->state))},
                 {"std_dev_ns",
                  json{{"end", s.pps_stats_end ? json(s.pps_stats_end->std_dev_ns) : json(nullptr)},
                       {"mean", optional_json(s.pps_std_dev_mean_ns)}}},
                 {"offset_ns", s.pps_stats_end ? json(s.pps_stats_end->offset_ns) : json(nullptr)},
                 {"samples", s.pps_stats_end ? json(s.pps_stats_end->samples) : json(nullptr)}};
    }
    j = json{{"samples", s.samples},
             {"synchronised_samples", s.synchronised_samples},
             {"status", std::string(to_string(s.final_status))},
             {"changes", changes},
             {"rms_offset_ns", json{{"end", optional_json(s.rms_offset_end_ns())},
                                    {"mean", optional_json(s.rms_offset_mean_ns)},
                                    {"max", optional_json(s.rms_offset_max_ns)}}},
             {"system_time_offset_ns", s.end ? json(s.end->system_time_offset_ns) : json(nullptr)},
             {"last_offset_ns", s.end ? json(s.end->last_offset_ns) : json(nullptr)},
             {"frequency_ppm", s.end ? json(s.end->frequency_ppm) : json(nullptr)},
             {"skew_ppm", s.end ? json(s.end->skew_ppm) : json(nullptr)},
             {"reference", reference},
             {"pps", pps}};
}

}  // namespace ppsbench::chrony
