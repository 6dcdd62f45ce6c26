// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ntp_peerstats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

constexpr std::int64_t unix_epoch_mjd = 40587;  // 1970-01-01
constexpr std::string_view atom_prefix = "127.127.22.";
constexpr std::string_view ntpsec_pps_prefix = "PPS(";  // NTPsec's non-classic refclock labels

// "3600.125" seconds past midnight -> ns, or nullopt.
std::optional<std::int64_t> parse_day_seconds(std::string_view text) {
    const auto value = chrony::detail::parse_double(text);
    if (!value || *value < 0.0 || *value >= 86401.0) {
        return std::nullopt;
    }
    return std::llround(*value * 1e9);
}

bool is_atom(std::string_view peer) {
    return peer.starts_with(atom_prefix) ||
           (peer.starts_with(ntpsec_pps_prefix) && peer.ends_with(")"));
}

std::string list_peers(const std::map<std::string, std::size_t>& peers) {
    std::string out;
    for (const auto& [peer, n] : peers) {
        out += fmt::format("{}{} ({} lines{})", out.empty() ? "" : ", ", peer, n,
                           is_atom(peer) ? ", PPS" : "");
    }
    return out.empty() ? "none" : out;
}

// The peer to import: the one asked for, which must have lines, else the files' only PPS peer.
// `name` names the files in the error, which lists every peer to choose from.
std::string chosen_peer(const std::map<std::string, std::size_t>& peers, const std::string& wanted,
                        const std::string& name) {
    if (!wanted.empty()) {
        if (peers.count(wanted) == 0) {
            throw core::InputError(fmt::format("{}: no lines of peer {}; peers in the file: {}",
                                               name, wanted, list_peers(peers)));
        }
        return wanted;
    }
    std::vector<std::string> atoms;
    for (const auto& [peer, count] : peers) {
        if (is_atom(peer)) {
            atoms.push_back(peer);
        }
    }
    if (atoms.size() != 1) {
        throw core::InputError(fmt::format(
            "{}: {}; peers in the file: {}; name the PPS peer with --peer ADDRESS", name,
            atoms.empty() ? "no PPS peer (ntpd's ATOM driver or NTPsec's refclock pps, "
                            "127.127.22.u or PPS(u))"
                          : "several PPS peers",
            list_peers(peers)));
    }
    return atoms.front();
}

// ntpd logs one line per poll (16 s and up), not per pulse: the seconds between two lines are
// not missed pulses. The median spacing of the pulses is the poll interval.
std::int64_t poll_interval_s(const std::vector<core::Pulse>& pulses) {
    std::vector<std::int64_t> spacing;
    for (std::size_t i = 1; i < pulses.size(); ++i) {
        spacing.push_back(static_cast<std::int64_t>(pulses[i].sequence - pulses[i - 1].sequence));
    }
    if (spacing.empty()) {
        return 1;
    }
    std::nth_element(spacing.begin(),
                     spacing.begin() + static_cast<std::ptrdiff_t>(spacing.size() / 2),
                     spacing.end());
    return spacing[spacing.size() / 2];
}

}  // namespace

PeerstatsReader::PeerstatsReader(PeerstatsImportOptions options)
    : options_(options), skipped_(options.strict) {}

void PeerstatsReader::read(std::istream& in, const std::string& name) {
    const std::size_t file = files_.size();
    files_.push_back(name);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++result_.lines;
        const auto f = core::split_whitespace(line);
        if (f.empty()) {
            continue;
        }
        if (f.size() != 8) {
            skipped_.add(name, n,
                         fmt::format("has {} fields, expected 8 (MJD, seconds, peer, status, "
                                     "offset, delay, dispersion, jitter)",
                                     f.size()));
            continue;
        }
        std::int64_t mjd = 0;
        const auto [mjd_end, mjd_ec] = std::from_chars(f[0].data(), f[0].data() + f[0].size(), mjd);
        const auto day_ns = parse_day_seconds(f[1]);
        // Within 1970 … 2116, the range a capture file holds (core::is_capture_time).
        if (mjd_ec != std::errc{} || mjd_end != f[0].data() + f[0].size() || mjd < unix_epoch_mjd ||
            mjd > unix_epoch_mjd + 106'000 || !day_ns ||
            !core::is_capture_time((mjd - unix_epoch_mjd) * 86400 * core::ns_per_second +
                                   *day_ns)) {
            skipped_.add(
                name, n,
                fmt::format("fields 1-2 are '{} {}', not a Modified Julian Day and "
                            "seconds past midnight like 59945 3600.125 from 1970 to 2116",
                            chrony::detail::printable(f[0]), chrony::detail::printable(f[1])));
            continue;
        }
        if (!chrony::detail::is_printable_word(f[2]) || f[2].size() > 64) {
            skipped_.add(name, n,
                         fmt::format("field 3 (peer) is '{}', not an address",
                                     chrony::detail::printable(f[2])));
            continue;
        }
        const auto offset = chrony::detail::parse_double(f[4]);
        if (!offset) {
            skipped_.add(name, n,
                         fmt::format("field 5 (offset) is '{}', not a number",
                                     chrony::detail::printable(f[4])));
            continue;
        }
        const std::string peer(f[2]);
        ++peers_[peer];
        if (std::fabs(*offset) >= 0.5) {
            skipped_.add(name, n,
                         fmt::format("field 5 (offset) is {}, not within half a second",
                                     chrony::detail::printable(f[4])));
            continue;
        }
        // Only the lines the import keeps are matched against loopstats.
        if (!options_.loopstats.empty()) {
            // ntp_util.c record_peer_stats prints ctlpeerstatus() as "%x": the select field is
            // bits 8-10 (ntp_control.h CTL_PEER_STATUS); -1 when the word is not hex.
            unsigned status = 0;
            const auto [end, ec] =
                std::from_chars(f[3].data(), f[3].data() + f[3].size(), status, 16);
            const bool hex = ec == std::errc{} && end == f[3].data() + f[3].size();
            const auto day_ms = std::llround(*chrony::detail::parse_double(f[1]) * 1e3);
            updates_.push_back({name, n, peer, (mjd - unix_epoch_mjd) * 86'400'000 + day_ms,
                                std::llround(*offset * 1e9),
                                hex ? static_cast<int>((status >> 8) & 7) : -1});
        }
        const std::int64_t time_ns = (mjd - unix_epoch_mjd) * 86400 * core::ns_per_second + *day_ns;
        samples_.push_back({file, n, peer, time_ns, std::llround(*offset * 1e9)});
    }
}

CaptureImport PeerstatsReader::finish() {
    CaptureImport result = std::move(result_);
    const std::string name = chrony::detail::files_label(files_);
    std::string peer;
    try {
        peer = chosen_peer(peers_, options_.peer, name);
    } catch (const core::InputError& e) {
        throw core::InputError(e.what() + skipped_.summary());  // say why lines did not count
    }
    // ntpd's offset is the peer's time minus ours: positive when our clock is behind, so the
    // pulse was stamped that much before the top of the second (as chrony's raw offset). The
    // line is logged at ntpd's system time after the poll (xx:02.877), so its edge is the whole
    // second before it, not the nearest one.
    auto train = chrony::detail::pulses_from_samples(samples_, peer, files_, "line's", skipped_,
                                                     chrony::detail::SampleSecond::before);
    result.pulses = std::move(train.pulses);
    if (result.pulses.empty()) {
        throw core::InputError(
            fmt::format("{}: no usable lines of peer {}{}", name, peer, skipped_.summary()));
    }
    if (!train.reordered.empty()) {
        result.notes.push_back(train.reordered + " (the files were given out of time order)");
    }
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    const std::int64_t poll_s = poll_interval_s(result.pulses);
    // Sampled: the seconds between polls are no missed pulses, as report counts them (none), so
    // neither the import's summary nor the capture's end record counts them (main said 75 593).
    result.gaps = {};
    // ntpd polls every 2^n s: a median spacing of another length (457 s of a server seen now
    // and then) is a spacing, not a poll interval.
    const bool power_of_two = poll_s > 0 && (poll_s & (poll_s - 1)) == 0;
    result.notes.push_back(fmt::format(
        "ntpd logged peer {} every {} s{}: each line is the poll's filtered offset, not one "
        "pulse, so the report's σ is a σ of per-poll values (compare it with ntpd's own jitter "
        "column, not with a capture's σ), and the report counts no missed pulses (the seconds "
        "between lines are the poll's, not losses)",
        peer, poll_s,
        power_of_two ? " (its poll interval)"
                     : " (median spacing; not a power of two, so not one poll interval)"));
    if (train.other_source_lines > 0) {
        result.notes.push_back(
            fmt::format("{} lines of other peers skipped", train.other_source_lines));
    }
    auto meta =
        store::import_run_meta("ntp-peerstats", peer, files_, core::EdgeSelection::assert_only,
                               result.pulses.front().timestamp_ns);
    // One filtered sample per poll, each on a whole second: folded on P = 1 s, the seconds
    // between lines are not missed pulses, and the numbers are the seconds, not the kernel's.
    meta.cadence = core::Cadence::sampled;
    meta.poll = std::chrono::seconds{poll_s};
    meta.sequences = core::SequenceEvidence::synthetic;
    meta.import = nlohmann::json{{"format", "ntp-peerstats"},
                                 {"file", chrony::detail::files_json(files_)},
                                 {"peer", peer},
                                 {"lines", result.lines},
                                 {"pulses", result.pulses.size()},
                                 {"poll_interval_s", poll_s},
                                 {"other_peer_lines", train.other_source_lines},
                                 {"skipped_lines", result.problem_count}};
    if (!options_.loopstats.empty()) {
        std::vector<std::int64_t> offsets;
        for (const auto& pulse : result.pulses) {
            offsets.push_back(-stats::phase_offset_ns(pulse.timestamp_ns, core::ns_per_second));
        }
        auto check =
            check_against_loopstats(updates_, peer, options_.loopstats, offsets, options_.strict);
        result.notes.insert(result.notes.end(), check.notes.begin(), check.notes.end());
        result.warnings = std::move(check.warnings);
        (*meta.import)["loopstats"] = std::move(check.metadata);
    }
    result.metadata = store::to_json(meta);
    return result;
}

CaptureImport import_ntp_peerstats(std::istream& in, const std::string& name,
                                   const PeerstatsImportOptions& options) {
    PeerstatsReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
