// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ts2phc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "line_capture.hpp"
#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

// Further than this from the edge's phase, ts2phc's servo offset contradicts the import: the two
// are one measurement (the PHC's stamp less the source's second), so they differ only by the
// log's rounding, or not at all.
constexpr std::int64_t max_disagreement_ns = 1000;

// Before 2000-01-01: a PHC nobody set (they start at 0, 1970, on power-up).
constexpr std::int64_t year_2000_ns = 946'684'800LL * 1'000'000'000;

struct Ts2phcEdge {
    std::string clock;
    std::string_view time;
    std::string_view correction;  // "corr C" of the extts shape (ts2phc.extts_correction), or ""
};

// The edge on a line, in either of ts2phc's shapes; nullopt for every other line.
std::optional<Ts2phcEdge> edge_on(const std::vector<std::string_view>& f) {
    for (std::size_t i = 0; i + 4 < f.size(); ++i) {
        // "IFACE extts index N at T corr C src S diff D"
        if (f[i + 1] == "extts" && f[i + 2] == "index" && f[i + 4] == "at" && i + 5 < f.size()) {
            const bool corr = i + 7 < f.size() && f[i + 6] == "corr";
            return Ts2phcEdge{std::string(f[i]), f[i + 5], corr ? f[i + 7] : std::string_view{}};
        }
        // "adding tstamp T to clock C"
        if (f[i] == "adding" && f[i + 1] == "tstamp" && f[i + 3] == "to" && f[i + 4] == "clock" &&
            i + 5 < f.size()) {
            return Ts2phcEdge{std::string(f[i + 5]), f[i + 2], {}};
        }
    }
    return std::nullopt;
}

// The servo's line after an edge, ts2phc_slave_event()'s "CLOCK master offset N sS freq F" (or
// "CLOCK offset N sS freq F" in newer ts2phc; "CLOCK master offset N" alone with free_running):
// the clock and N, else nullopt.
std::optional<std::pair<std::string, std::int64_t>> servo_offset_on(
    const std::vector<std::string_view>& f) {
    for (std::size_t j = 1; j + 1 < f.size(); ++j) {
        if (f[j] != "offset") {
            continue;
        }
        const bool servo = j + 3 < f.size() && f[j + 2].starts_with("s") && f[j + 3] == "freq";
        const bool no_adj = j + 2 == f.size() && f[j - 1] == "master";
        if (!servo && !no_adj) {
            continue;
        }
        std::string_view value = f[j + 1];
        if (value.starts_with("+")) {
            value.remove_prefix(1);
        }
        std::int64_t offset = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), offset);
        if (ec != std::errc{} || end != value.data() + value.size()) {
            return std::nullopt;
        }
        const std::size_t c = f[j - 1] == "master" && j >= 2 ? j - 2 : j - 1;
        return std::pair{std::string(f[c]), offset};
    }
    return std::nullopt;
}

// The clock of "CLOCK ignoring invalid master time stamp", else "".
std::string ignoring_clock(const std::vector<std::string_view>& f) {
    for (std::size_t i = 1; i + 4 < f.size(); ++i) {
        if (f[i] == "ignoring" && f[i + 1] == "invalid" && f[i + 2] == "master") {
            return std::string(f[i - 1]);
        }
    }
    return "";
}

// The phase of a stamp: its distance from the nearest whole second, in (−0.5 s, 0.5 s].
std::int64_t phase_of(std::int64_t t_ns) {
    constexpr std::int64_t second = 1'000'000'000;
    std::int64_t r = t_ns % second;
    if (r > second / 2) {
        r -= second;
    } else if (r <= -second / 2) {
        r += second;
    }
    return r;
}

bool is_ts2phc_line(std::string_view line) {
    return line.find("ts2phc") != std::string_view::npos;
}

}  // namespace

Ts2phcReader::Ts2phcReader(Ts2phcImportOptions options)
    : options_(std::move(options)), skipped_(options_.strict) {}

Ts2phcReader::~Ts2phcReader() = default;

void Ts2phcReader::read(std::istream& in, const std::string& name) {
    files_.push_back(name);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++lines_;
        const auto f = core::split_whitespace(line);
        if (f.empty()) {
            continue;
        }
        if (std::find(f.begin(), f.end(), "SKIP") != f.end()) {
            ++skip_lines_;  // the other edge, which ts2phc ignores
            continue;
        }
        // phc2sys shares ts2phc's word "offset" (and its logs, in one journal): not a servo's.
        const auto servo = line.find("phc2sys") == std::string::npos
                               ? servo_offset_on(f)
                               : std::optional<std::pair<std::string, std::int64_t>>{};
        if (servo) {
            servo_offset(servo->first, servo->second, name, n);
            continue;
        }
        if (const std::string clock = ignoring_clock(f); !clock.empty()) {
            ignored_edge(clock, name, n);
            continue;
        }
        const auto edge = edge_on(f);
        if (!edge) {
            if (!is_ts2phc_line(line)) {
                skipped_.add(
                    name, n,
                    fmt::format("'{}' is not a ts2phc line", chrony::detail::printable(line)));
            }
            continue;  // ts2phc's own chatter: offsets, servo, nmea
        }
        auto time_ns = detail::parse_decimal_ns(edge->time);
        std::optional<std::int64_t> correction = 0;
        if (!edge->correction.empty()) {
            // "corr" is whole ns: parse_decimal_ns reads it as seconds.
            std::int64_t c = 0;
            std::string_view text = edge->correction;
            const bool negative = text.starts_with("-");
            text.remove_prefix(negative || text.starts_with("+") ? 1 : 0);
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), c);
            correction = ec == std::errc{} && end == text.data() + text.size() && !text.empty()
                             ? std::optional<std::int64_t>(negative ? -c : c)
                             : std::nullopt;
        }
        if (!time_ns || !correction || !chrony::detail::is_printable_word(edge->clock)) {
            skipped_.add(name, n,
                         fmt::format("the edge '{} at {}' is not a clock and a time like eth0 at "
                                     "1665570382.000000024",
                                     chrony::detail::printable(edge->clock),
                                     chrony::detail::printable(edge->time)));
            continue;
        }
        // ts2phc adds its extts_correction to the stamp before anything else (its servo's
        // offset and "diff" include it), so the edge is the corrected stamp.
        ServoCheck& check = servo_[edge->clock];
        if (!edge->correction.empty()) {
            check.correction_ns = *correction;
        }
        ++clocks_[edge->clock];
        check.pending = edges_.size();
        edges_.push_back({edge->clock, *time_ns + *correction, std::nullopt, name, n});
    }
}

void Ts2phcReader::servo_offset(const std::string& clock, std::int64_t offset_ns,
                                const std::string& name, std::size_t line) {
    ServoCheck& check = servo_[clock];
    ++check.offsets;
    if (!check.pending) {
        return;
    }
    const detail::LoggedEdge& edge = edges_[*check.pending];
    check.pending.reset();
    ++check.compared;
    const std::int64_t phase = phase_of(edge.timestamp_ns);
    if (std::abs(phase - offset_ns) > max_disagreement_ns && check.disagreeing++ == 0) {
        check.first_disagreement =
            fmt::format("{}:{}: the edge's phase is {} ns, the servo's offset {} ns", name, line,
                        phase, offset_ns);
    }
}

// ts2phc printed the edge, then found its source's time invalid and left it out: so does the
// import (its stamp is as good as any, but nothing says which second it belongs to).
void Ts2phcReader::ignored_edge(const std::string& clock, const std::string& name,
                                std::size_t line) {
    ServoCheck& check = servo_[clock];
    if (!check.pending) {
        return;
    }
    detail::LoggedEdge& edge = edges_[*check.pending];
    check.pending.reset();
    if (check.ignored++ == 0) {
        check.first_ignored = fmt::format("{}:{}", name, line);
    }
    --clocks_[clock];
    edge.source.clear();  // no clock: capture_from_edges() takes only the chosen clock's
    if (options_.strict) {
        throw core::InputError(fmt::format(
            "{}:{}: ts2phc ignored the edge of {}:{} (invalid master time stamp); without "
            "--strict such edges are skipped and counted",
            name, line, edge.file, edge.line));
    }
}

CaptureImport Ts2phcReader::finish() {
    const std::string name = chrony::detail::files_label(files_);
    if (edges_.empty()) {
        throw core::InputError(fmt::format(
            "{}: no ts2phc edges (lines '... extts index 0 at T ...' or 'adding tstamp T to "
            "clock C'); ts2phc prints them with -m and logging_level 7{}",
            name, skipped_.summary()));
    }
    std::string clock;
    try {
        clock = detail::chosen_source(clocks_, options_.clock, "clock", "--clock", name);
    } catch (const core::InputError& e) {
        throw core::InputError(e.what() + skipped_.summary());
    }
    // A clock without a servo while another has one is ts2phc's PPS source: its "adding tstamp"
    // lines are the whole seconds ts2phc assumed for each pulse (22.000000000), not stamps.
    if (servo_[clock].offsets == 0) {
        for (const auto& [other, check] : servo_) {
            if (check.offsets > 0) {
                throw core::InputError(fmt::format(
                    "{}: {} has no servo offset lines while {} has: it is ts2phc's PPS source, "
                    "whose stamps are the whole seconds ts2phc assumed, not measurements; "
                    "import --clock {}",
                    name, clock, other, other));
            }
        }
    }
    CaptureImport result =
        detail::capture_from_edges(edges_, clock, core::Edge::assert_edge, skipped_);
    result.lines = lines_;
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    result.notes.push_back(fmt::format(
        "the edges are {}'s own timestamps (TAI when ts2phc applies the UTC-TAI offset, 37 s "
        "ahead of UTC): the capture's clock is tai, not CLOCK_REALTIME",
        clock));
    std::size_t ignored = 0;
    for (const auto& [c, check] : servo_) {
        ignored += check.ignored;
    }
    if (clocks_.size() > 1) {
        result.notes.push_back(fmt::format("{} edges of other clocks skipped",
                                           edges_.size() - ignored - clocks_.at(clock)));
    }
    add_servo_notes(result, clock);
    auto meta = store::import_run_meta("ts2phc", clock, files_, core::EdgeSelection::assert_only,
                                       result.pulses.front().timestamp_ns);
    meta.clock = core::ClockId::tai;
    // ts2phc logs no event numbers: capture_from_edges() numbers the edges by their seconds.
    meta.sequences = core::SequenceEvidence::synthetic;
    meta.import = nlohmann::json{{"format", "ts2phc"},
                                 {"file", chrony::detail::files_json(files_)},
                                 {"clock", clock},
                                 {"lines", result.lines},
                                 {"pulses", result.pulses.size()},
                                 {"skip_lines", skip_lines_},
                                 {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

// What ts2phc's own lines say of the imported edges: the correction applied, the edges it
// ignored, a PHC never set, and whether its servo's offsets agree with the phases imported.
void Ts2phcReader::add_servo_notes(CaptureImport& result, const std::string& clock) {
    const ServoCheck& check = servo_[clock];
    if (check.correction_ns && *check.correction_ns != 0) {
        result.notes.push_back(fmt::format(
            "ts2phc's extts_correction ({} ns, \"corr\") is added to every edge, as ts2phc does",
            *check.correction_ns));
    }
    if (check.ignored > 0) {
        result.notes.push_back(fmt::format(
            "{} edge{} of {} skipped that ts2phc itself ignored (\"ignoring invalid master time "
            "stamp\", first at {}); --strict refuses them",
            check.ignored, check.ignored == 1 ? "" : "s", clock, check.first_ignored));
    }
    if (!result.pulses.empty() && result.pulses.front().timestamp_ns < year_2000_ns) {
        result.notes.push_back(fmt::format(
            "PHC not set: {} reads {:.3f} s since 1970, before 2000, so its phase is measured "
            "against a clock nobody set, not against UTC or TAI",
            clock, static_cast<double>(result.pulses.front().timestamp_ns) * 1e-9));
    }
    if (check.compared == 0) {
        result.notes.push_back(fmt::format(
            "not cross-checked: the log holds no servo offset line of {} after an edge (ts2phc "
            "prints them at logging_level 7)",
            clock));
        return;
    }
    if (check.disagreeing == 0) {
        result.notes.push_back(fmt::format(
            "cross-checked: all {} of ts2phc's servo offsets of {} agree with the imported "
            "phases within 1 µs",
            check.compared, clock));
        return;
    }
    const std::string contradiction = fmt::format(
        "{} of {} edges of {} disagree with ts2phc's own servo offset by more than 1 µs (first "
        "{}): the import's phase is not what ts2phc measured",
        check.disagreeing, check.compared, clock, check.first_disagreement);
    if (options_.strict) {
        throw core::InputError(contradiction + "; without --strict this is a warning");
    }
    result.notes.push_back(contradiction);
}

CaptureImport import_ts2phc(std::istream& in, const std::string& name,
                            const Ts2phcImportOptions& options) {
    Ts2phcReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
