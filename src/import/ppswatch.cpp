// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ppswatch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// A closing figure that ppswatch prints with %d: a whole number it can hold, else nullopt.
std::optional<std::int64_t> whole_figure(std::optional<double> value) {
    if (!value || *value < 0 || *value > 2147483647.0 || *value != std::floor(*value)) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(*value);
}

// The number after `label` in one of ppswatch's closing lines, or nullopt.
std::optional<double> closing_figure(std::string_view line, std::string_view label) {
    if (!line.starts_with(label)) {
        return std::nullopt;
    }
    const auto f = core::split_whitespace(line.substr(label.size()));
    return f.empty() ? std::nullopt : chrony::detail::parse_double(f.front());
}

// The lines ppswatch prints besides events, and shell prompts around them.
bool is_ppswatch_chatter(std::string_view line) {
    return line.starts_with("trying PPS source") || line.starts_with("found PPS source") ||
           line.starts_with("using margin") || line.starts_with("Maximum divergence:") ||
           line.starts_with("Number of overflows:") ||
           line.starts_with("Maximum unsynchronized time:") || line == "^C" ||
           line.starts_with("$ ") || line.starts_with("# ") ||
           line.find("# ppswatch") != std::string_view::npos ||
           line.find("$ ppswatch") != std::string_view::npos;
}

struct Moments {
    double mean = 0;
    double sd_n = 0;          // divides by n, as ppswatch
    double sd_n_minus_1 = 0;  // divides by n - 1, as the report's σ
};

// Of each pulse's offset from its nearest second: what ppswatch printed.
Moments moments(const std::vector<core::Pulse>& pulses) {
    Moments m;
    const double n = static_cast<double>(pulses.size());
    for (const auto& p : pulses) {
        m.mean += static_cast<double>(stats::phase_offset_ns(p.timestamp_ns, core::ns_per_second));
    }
    m.mean /= n;
    double sum = 0;
    for (const auto& p : pulses) {
        const double d =
            static_cast<double>(stats::phase_offset_ns(p.timestamp_ns, core::ns_per_second)) -
            m.mean;
        sum += d * d;
    }
    m.sd_n = std::sqrt(sum / n);
    m.sd_n_minus_1 = pulses.size() > 1 ? std::sqrt(sum / (n - 1)) : 0.0;
    return m;
}

// "ppswatch's figures: ... ; ours: ..." when ppswatch printed them.
std::string figures_note(const PpswatchFigures& theirs, const Moments& ours, std::size_t n) {
    std::string note = fmt::format(
        "of the {} imported pulses: mean {:.6g} ns, SD {:.6g} ns dividing by n, {:.6g} ns "
        "dividing by n - 1 (the report's σ)",
        n, ours.mean, ours.sd_n, ours.sd_n_minus_1);
    if (theirs.mean_ns && theirs.sd_ns) {
        note = fmt::format(
            "ppswatch's own figures: {} pulses, mean {:.6g} ns, SD {:.6g} ns (it divides by n); "
            "{}{}",
            theirs.total.value_or(0), *theirs.mean_ns, *theirs.sd_ns, note,
            theirs.total && *theirs.total != n
                ? " (ppswatch counted pulses it did not print: run without --margin to get them "
                  "all)"
                : "");
    }
    return note;
}

}  // namespace

PpswatchReader::PpswatchReader(PpswatchImportOptions options)
    : options_(std::move(options)), skipped_(options_.strict) {}

void PpswatchReader::read(std::istream& in, const std::string& name) {
    files_.push_back(name);
    running_ = {};  // one ppswatch run does not span files
    std::string text;
    std::size_t n = 0;
    while (std::getline(in, text)) {
        ++n;
        ++lines_;
        line_ = n;
        std::string_view line(text);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
            line.remove_suffix(1);
        }
        line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
        if (!line.empty() && !read_line(line)) {
            skipped_.add(name, n,
                         fmt::format("'{}' is not a ppswatch line (timestamp: T, sequence: N, "
                                     "offset: NS, a time from 1970 to 2116)",
                                     chrony::detail::printable(line)));
        }
    }
}

bool PpswatchReader::read_line(std::string_view line) {
    if (line.find("ppswatch") != std::string_view::npos) {
        if (line.find(" -a") != std::string_view::npos) {
            edge_from_command_ = "assert";
        } else if (line.find(" -c") != std::string_view::npos) {
            edge_from_command_ = "clear";
        }
    }
    if (line.starts_with("found PPS source \"") && line.ends_with("\"")) {
        device_ = std::string(line.substr(18, line.size() - 19));
    }
    if (const auto total = whole_figure(closing_figure(line, "Total number of PPS signals:"))) {
        figures_ = {};
        figures_.total = static_cast<std::size_t>(*total);
        summary_at_ = where();
        return true;
    }
    if (const auto overflows = whole_figure(closing_figure(line, "Number of overflows:"))) {
        figures_.overflows = static_cast<std::size_t>(*overflows);
        return true;
    }
    if (const auto divergence = whole_figure(closing_figure(line, "Maximum divergence:"))) {
        figures_.max_divergence_ns = *divergence;
        return true;
    }
    if (const auto mean = closing_figure(line, "Mean value:")) {
        figures_.mean_ns = mean;
        return true;
    }
    if (const auto sd = closing_figure(line, "Standard deviation:")) {
        figures_.sd_ns = sd;
        close_summary();
        return true;
    }
    if (is_ppswatch_chatter(line)) {
        return true;
    }
    // "timestamp: %ld, sequence: %ld, offset: % 6ld"
    const auto f = core::split_whitespace(line);
    if (f.size() != 6 || f[0] != "timestamp:" || f[2] != "sequence:" || f[4] != "offset:" ||
        !f[1].ends_with(",") || !f[3].ends_with(",")) {
        return false;
    }
    const auto seconds = parse_integer(f[1].substr(0, f[1].size() - 1));
    const auto sequence = parse_integer(f[3].substr(0, f[3].size() - 1));
    const auto offset = parse_integer(f[5]);
    if (!seconds || !sequence || !offset || *seconds < 0 || *sequence < 0 ||
        *seconds > core::max_timestamp_ns / core::ns_per_second + 1 ||
        std::llabs(*offset) > core::ns_per_second / 2 ||
        !core::is_capture_time(*seconds * core::ns_per_second + *offset)) {
        return false;
    }
    events_.push_back({static_cast<std::uint64_t>(*sequence),
                       *seconds * core::ns_per_second + *offset, core::Edge::assert_edge});
    running_.add(*offset);
    return true;
}

std::string PpswatchReader::where() const {
    return fmt::format("{}:{}", files_.back(), line_);
}

void PpswatchReader::close_summary() {
    const auto check =
        check_ppswatch_figures(figures_, running_, summary_at_.empty() ? where() : summary_at_);
    running_ = {};  // a second run pasted after this one starts its own count
    summary_at_.clear();
    if (!check.judged) {
        ++summaries_not_judged_;
        check_notes_.push_back(check.text);
    } else if (check.agrees) {
        ++summaries_agreed_;
        check_notes_.push_back(check.text);
    } else {
        if (options_.strict) {
            throw core::InputError(check.text + "; check the file, or drop --strict");
        }
        ++summaries_contradicted_;
        check_warnings_.push_back(check.text);
    }
}

CaptureImport PpswatchReader::finish() {
    const std::string name = chrony::detail::files_label(files_);
    if (events_.empty()) {
        throw core::InputError(fmt::format(
            "{}: no ppswatch events (lines 'timestamp: T, sequence: N, offset: NS'); is this "
            "the output of ppswatch /dev/ppsN?{}",
            name, skipped_.summary()));
    }
    const std::string edge_name = !options_.edge.empty()
                                      ? options_.edge
                                      : (edge_from_command_.empty() ? "clear" : edge_from_command_);
    const auto edge = core::parse_edge(edge_name);
    if (!edge) {
        throw core::UsageError(fmt::format("--edge {}: use assert or clear", edge_name));
    }
    CaptureImport result;
    std::stable_sort(events_.begin(), events_.end(),
                     [](const auto& a, const auto& b) { return a.timestamp_ns < b.timestamp_ns; });
    for (auto e : events_) {
        if (!result.pulses.empty() && result.pulses.back().sequence == e.sequence &&
            result.pulses.back().timestamp_ns == e.timestamp_ns) {
            ++result.duplicates;  // the same event fetched twice (no PPS_CANWAIT: sleep, fetch)
            continue;
        }
        e.edge = *edge;
        result.pulses.push_back(e);
    }
    result.lines = lines_;
    result.gaps = count_gaps(result.pulses, core::ns_per_second);
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    const Moments ours = moments(result.pulses);
    result.notes.push_back(figures_note(figures_, ours, result.pulses.size()));
    if (!summary_at_.empty()) {  // a summary begun and not finished: the paste was cut
        check_notes_.push_back(fmt::format(
            "not cross-checked: ppswatch's closing figures at {} end before its standard "
            "deviation",
            summary_at_));
        ++summaries_not_judged_;
    }
    result.notes.insert(result.notes.end(), check_notes_.begin(), check_notes_.end());
    result.warnings.insert(result.warnings.end(), check_warnings_.begin(), check_warnings_.end());
    if (options_.edge.empty() && edge_from_command_.empty()) {
        result.notes.push_back(
            "edge: clear, ppswatch's default; pass --edge assert if it ran with -a");
    }
    auto meta = store::import_run_meta(
        "ppswatch", device_.empty() ? std::string("ppswatch") : device_, files_,
        *edge == core::Edge::assert_edge ? core::EdgeSelection::assert_only
                                         : core::EdgeSelection::clear_only,
        result.pulses.front().timestamp_ns);
    nlohmann::json record{{"format", "ppswatch"},  {"file", chrony::detail::files_json(files_)},
                          {"lines", result.lines}, {"pulses", result.pulses.size()},
                          {"edge", edge_name},     {"skipped_lines", result.problem_count}};
    if (figures_.mean_ns && figures_.sd_ns) {
        record["ppswatch_figures"] = {{"pulses", figures_.total.value_or(0)},
                                      {"mean_ns", *figures_.mean_ns},
                                      {"sd_ns_dividing_by_n", *figures_.sd_ns}};
    }
    record["cross_check"] = {{"summaries_agreed", summaries_agreed_},
                             {"summaries_contradicted", summaries_contradicted_},
                             {"summaries_not_judged", summaries_not_judged_}};
    meta.import = std::move(record);
    result.metadata = store::to_json(meta);
    return result;
}

CaptureImport import_ppswatch(std::istream& in, const std::string& name,
                              const PpswatchImportOptions& options) {
    PpswatchReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
