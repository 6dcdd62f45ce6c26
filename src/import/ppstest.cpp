// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ppstest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <variant>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

struct Event {
    std::int64_t timestamp_ns = 0;
    std::uint64_t sequence = 0;
};

// "1418226003.000011287" (1 to 9 fraction digits; ppstest prints 9) -> ns, or nullopt.
std::optional<std::int64_t> parse_timestamp(std::string_view text) {
    const auto dot = text.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 11 || text.size() - dot - 1 > 9 ||
        text.size() == dot + 1) {
        return std::nullopt;
    }
    std::int64_t seconds = 0;
    std::int64_t fraction = 0;
    const auto s = text.substr(0, dot);
    const auto f = text.substr(dot + 1);
    const auto [s_end, s_ec] = std::from_chars(s.data(), s.data() + s.size(), seconds);
    const auto [f_end, f_ec] = std::from_chars(f.data(), f.data() + f.size(), fraction);
    if (s_ec != std::errc{} || s_end != s.data() + s.size() || f_ec != std::errc{} ||
        f_end != f.data() + f.size() || seconds < 0 || fraction < 0 || s.front() == '-' ||
        f.front() == '-' || seconds > core::max_timestamp_ns / core::ns_per_second) {
        return std::nullopt;
    }
    for (auto i = f.size(); i < 9; ++i) {
        fraction *= 10;
    }
    const std::int64_t ns = seconds * core::ns_per_second + fraction;
    return core::is_capture_time(ns) ? std::optional(ns) : std::nullopt;
}

// "assert 1418226003.000011287, sequence: 255" starting at `text`; what follows it is returned
// in `rest`.
std::optional<Event> parse_event(std::string_view text, std::string_view edge,
                                 std::string_view& rest) {
    if (!text.starts_with(edge)) {
        return std::nullopt;
    }
    text.remove_prefix(edge.size());
    const auto start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) {
        return std::nullopt;
    }
    text.remove_prefix(start);
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) {
        return std::nullopt;
    }
    const auto timestamp = parse_timestamp(text.substr(0, comma));
    text.remove_prefix(comma + 1);
    const auto label = text.find_first_not_of(' ');
    if (!timestamp || label == std::string_view::npos ||
        !text.substr(label).starts_with("sequence:")) {
        return std::nullopt;
    }
    text.remove_prefix(label + 9);
    const auto digits = text.find_first_not_of(' ');
    if (digits == std::string_view::npos) {
        return std::nullopt;
    }
    text.remove_prefix(digits);
    std::uint64_t sequence = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), sequence);
    if (ec != std::errc{} || end == text.data()) {
        return std::nullopt;
    }
    rest = text.substr(static_cast<std::size_t>(end - text.data()));
    return Event{*timestamp, sequence};
}

// The line without trailing CR and spaces or leading spaces and tabs (as pasted from forums).
std::string_view trimmed(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
        line.remove_suffix(1);
    }
    const auto first = line.find_first_not_of(" \t");
    return first == std::string_view::npos ? std::string_view{} : line.substr(first);
}

constexpr std::string_view found_prefix = "found PPS source";

// A shell prompt and its command: "$ sudo ppstest /dev/pps0", or with a path or a host before
// the `$` or `#` ("~ $ …", "pi@ntp:~ $ …", "[pi@ntp ~]$ …", "root@gps:~# …"): up to two words
// before the first "$ " or "# " (or a line ending in `$` or `#`), none of them ppstest's.
bool is_shell_prompt(std::string_view line) {
    std::size_t at = std::min(line.find("$ "), line.find("# "));
    if (at == std::string_view::npos && !line.empty() &&
        (line.back() == '$' || line.back() == '#')) {
        at = line.size() - 1;
    }
    if (at == std::string_view::npos) {
        return false;
    }
    const std::string_view before = line.substr(0, at);
    if (before.find("source") != std::string_view::npos ||
        before.find("assert") != std::string_view::npos) {
        return false;
    }
    return core::split_whitespace(before).size() <= 2;
}

// ppstest's own messages before the events, and the shell prompt people paste with them.
bool is_ppstest_chatter(std::string_view line) {
    return line.starts_with("trying PPS source") || line.starts_with(found_prefix) ||
           line.starts_with("ok, found ") || is_shell_prompt(line) ||
           line.starts_with("PPS source");
}

// The device of 'found PPS source "/dev/pps0"', printable for the capture's label.
std::string device_name(std::string_view found_line) {
    auto device = found_line.substr(found_prefix.size());
    while (!device.empty() && (device.front() == ' ' || device.front() == '"')) {
        device.remove_prefix(1);
    }
    while (!device.empty() && device.back() == '"') {
        device.remove_suffix(1);
    }
    return chrony::detail::printable(device);
}

// One fetch: "source N - assert T, sequence: S" and, when ppstest printed it, " - clear T,
// sequence: S".
struct FetchLine {
    int source = 0;
    Event assert_event;
    std::optional<Event> clear_event;
};

// The fetch on `line`, or why the line is skipped. `previous_source` (-1 before the first
// fetch) is the source of the fetches so far: one capture holds one PPS source.
std::variant<FetchLine, std::string> parse_fetch_line(std::string_view line, int previous_source) {
    if (!line.starts_with("source ")) {
        return std::string("not a ppstest line ('source N - assert T, sequence: S ...')");
    }
    FetchLine fetch;
    std::string_view rest = line.substr(7);
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), fetch.source);
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    if (ec != std::errc{} || !rest.starts_with(" - ")) {
        return std::string("expected 'source N - assert ...'");
    }
    if (previous_source >= 0 && fetch.source != previous_source) {
        return fmt::format(
            "source {} after source {}; import one PPS source at a time (split the file by source)",
            fetch.source, previous_source);
    }
    rest.remove_prefix(3);
    const auto assert_event = parse_event(rest, "assert", rest);
    if (!assert_event) {
        return std::string(
            "expected 'assert SECONDS.NANOSECONDS, sequence: N' with a time from 1970 to 2116");
    }
    fetch.assert_event = *assert_event;
    const auto after = rest.find_first_not_of(' ');
    if (after == std::string_view::npos) {
        return fetch;
    }
    rest.remove_prefix(after);
    if (!rest.starts_with("- ")) {
        return std::string("unexpected text after the assert event");
    }
    rest.remove_prefix(2);
    fetch.clear_event = parse_event(rest, "clear", rest);
    if (!fetch.clear_event || rest.find_first_not_of(' ') != std::string_view::npos) {
        return std::string(
            "expected '- clear SECONDS.NANOSECONDS, sequence: N' at the end, with a time from "
            "1970 to 2116");
    }
    return fetch;
}

}  // namespace

PpstestReader::PpstestReader(PpstestImportOptions options)
    : options_(options), skipped_(options.strict) {}

void PpstestReader::read(std::istream& in, const std::string& name) {
    files_.push_back(name);
    std::string text;
    std::size_t n = 0;
    while (std::getline(in, text)) {
        ++n;
        ++result_.lines;
        const std::string_view line = trimmed(text);
        if (line.empty()) {
            continue;
        }
        if (is_ppstest_chatter(line)) {
            if (line.starts_with(found_prefix) && device_.empty()) {
                device_ = device_name(line);
            }
            ++chatter_;
            continue;
        }
        if (line.starts_with("time_pps_fetch() error")) {
            ++fetch_errors_;  // a timeout: no pulse within 3 s
            continue;
        }
        auto parsed = parse_fetch_line(line, source_);
        if (auto* problem = std::get_if<std::string>(&parsed)) {
            skipped_.add(name, n, std::move(*problem));
            continue;
        }
        const auto& fetch = std::get<FetchLine>(parsed);
        source_ = fetch.source;
        // Sequence 0 with time 0: no event of that edge yet (the edge is not enabled).
        if (fetch.assert_event.sequence != 0 || fetch.assert_event.timestamp_ns != 0) {
            events_.push_back({fetch.assert_event.sequence, fetch.assert_event.timestamp_ns,
                               core::Edge::assert_edge});
        }
        if (fetch.clear_event &&
            (fetch.clear_event->sequence != 0 || fetch.clear_event->timestamp_ns != 0)) {
            events_.push_back({fetch.clear_event->sequence, fetch.clear_event->timestamp_ns,
                               core::Edge::clear_edge});
        }
    }
}

CaptureImport PpstestReader::finish() {
    CaptureImport result = std::move(result_);
    const std::string name =
        files_.size() == 1 ? files_.front() : fmt::format("{} files", files_.size());
    if (events_.empty()) {
        throw core::InputError(fmt::format(
            "{}: no PPS events (lines 'source 0 - assert T, sequence: N ...'); is this the "
            "output of ppstest /dev/ppsN?{}",
            name, skipped_.summary()));
    }
    // Each fetch prints the latest event of each edge: the same event appears once per fetch
    // until the next one arrives. Keep each (edge, sequence, time) once, in time order.
    std::stable_sort(events_.begin(), events_.end(),
                     [](const auto& a, const auto& b) { return a.timestamp_ns < b.timestamp_ns; });
    for (const auto& e : events_) {
        const bool seen = std::any_of(
            result.pulses.rbegin(),
            result.pulses.rbegin() +
                static_cast<std::ptrdiff_t>(std::min<std::size_t>(result.pulses.size(), 4)),
            [&](const core::Pulse& p) { return p == e; });
        if (seen) {
            ++result.duplicates;
        } else {
            result.pulses.push_back(e);
        }
    }
    const bool clear = std::any_of(result.pulses.begin(), result.pulses.end(),
                                   [](const auto& p) { return p.edge == core::Edge::clear_edge; });
    const bool assert_edge =
        std::any_of(result.pulses.begin(), result.pulses.end(),
                    [](const auto& p) { return p.edge == core::Edge::assert_edge; });
    result.gaps = count_gaps(result.pulses, core::ns_per_second);
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    if (fetch_errors_ > 0) {
        result.notes.push_back(fmt::format(
            "{} fetch errors (time_pps_fetch() timed out: no pulse for 3 s)", fetch_errors_));
    }
    auto meta = store::import_run_meta("ppstest",
                                       device_.empty() ? std::string("ppstest") : device_, files_,
                                       clear && assert_edge ? core::EdgeSelection::both
                                       : clear              ? core::EdgeSelection::clear_only
                                                            : core::EdgeSelection::assert_only,
                                       result.pulses.front().timestamp_ns);
    meta.import =
        nlohmann::json{{"format", "ppstest"},
                       {"file", files_.size() == 1 ? nlohmann::json(name) : nlohmann::json(files_)},
                       {"lines", result.lines},
                       {"pulses", result.pulses.size()},
                       {"duplicates", result.duplicates},
                       {"fetch_errors", fetch_errors_},
                       {"missed_pulses", result.gaps.missed_pulses},
                       {"unseen_events", result.gaps.unseen_events},
                       {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

CaptureImport import_ppstest(std::istream& in, const std::string& name,
                             const PpstestImportOptions& options) {
    PpstestReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
