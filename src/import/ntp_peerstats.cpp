#include "ppsbench/import/ntp_peerstats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "chrony/log_common.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::import {
namespace {

constexpr std::int64_t unix_epoch_mjd = 40587;  // 1970-01-01
constexpr std::string_view atom_prefix = "127.127.22.";

// "3600.125" seconds past midnight -> ns, or nullopt.
std::optional<std::int64_t> parse_day_seconds(std::string_view text) {
    const auto value = chrony::detail::parse_double(text);
    if (!value || *value < 0.0 || *value >= 86401.0) {
        return std::nullopt;
    }
    return std::llround(*value * 1e9);
}

std::int64_t nearest_second_ns(std::int64_t t) {
    const std::int64_t s = core::ns_per_second;
    return ((t + s / 2) / s) * s;  // t > 0 here
}

bool is_atom(std::string_view peer) {
    return peer.starts_with(atom_prefix);
}

std::string list_peers(const std::map<std::string, std::size_t>& peers) {
    std::string out;
    for (const auto& [peer, n] : peers) {
        out += fmt::format("{}{} ({} lines{})", out.empty() ? "" : ", ", peer, n,
                           is_atom(peer) ? ", PPS" : "");
    }
    return out.empty() ? "none" : out;
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
        // 1970..2261: int64 nanoseconds.
        if (mjd_ec != std::errc{} || mjd_end != f[0].data() + f[0].size() || mjd < unix_epoch_mjd ||
            mjd > unix_epoch_mjd + 106'000 || !day_ns) {
            skipped_.add(
                name, n,
                fmt::format("fields 1-2 are '{} {}', not a Modified Julian Day and "
                            "seconds past midnight like 59945 3600.125",
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
        const std::int64_t time_ns = (mjd - unix_epoch_mjd) * 86400 * core::ns_per_second + *day_ns;
        records_.push_back({file, n, peer, time_ns, std::llround(*offset * 1e9)});
    }
}

CaptureImport PeerstatsReader::finish() {
    CaptureImport result = std::move(result_);
    const std::string name =
        files_.size() == 1 ? files_.front() : fmt::format("{} files", files_.size());
    std::string peer = options_.peer;
    if (peer.empty()) {
        std::vector<std::string> atoms;
        for (const auto& [p, count] : peers_) {
            if (is_atom(p)) {
                atoms.push_back(p);
            }
        }
        if (atoms.size() != 1) {
            throw core::InputError(fmt::format(
                "{}: {}; peers in the file: {}; name the PPS peer with --peer ADDRESS", name,
                atoms.empty() ? "no PPS peer (ntpd's ATOM driver or NTPsec's refclock pps, "
                                "127.127.22.u)"
                              : "several PPS peers",
                list_peers(peers_)));
        }
        peer = atoms.front();
    } else if (peers_.count(peer) == 0) {
        throw core::InputError(fmt::format("{}: no lines of peer {}; peers in the file: {}", name,
                                           peer, list_peers(peers_)));
    }

    std::optional<std::int64_t> first_second;
    std::int64_t previous_second = 0;
    std::size_t other_peer_lines = 0;
    for (const auto& r : records_) {
        if (r.peer != peer) {
            ++other_peer_lines;
            continue;
        }
        const std::int64_t second = nearest_second_ns(r.time_ns);
        if (first_second && second <= previous_second) {
            skipped_.add(
                files_[r.file], r.line,
                fmt::format("time {} is not after the previous line's ({})",
                            core::format_utc(second, core::UtcPrecision::seconds),
                            core::format_utc(previous_second, core::UtcPrecision::seconds)));
            continue;
        }
        if (!first_second) {
            first_second = second;
        }
        previous_second = second;
        // ntpd's offset is the peer's time minus ours: positive when our clock is behind, so
        // the pulse was stamped that much before the top of the second (as chrony's raw offset).
        result.pulses.push_back(
            {static_cast<std::uint64_t>((second - *first_second) / core::ns_per_second),
             second - r.offset_ns, core::Edge::assert_edge});
    }
    if (result.pulses.empty()) {
        throw core::InputError(fmt::format("{}: no usable lines of peer {}", name, peer));
    }
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    // ntpd logs one line per poll (16 s and up), not per pulse: the seconds between two lines
    // are not missed pulses. The median spacing is the poll interval.
    std::vector<std::int64_t> spacing;
    for (std::size_t i = 1; i < result.pulses.size(); ++i) {
        spacing.push_back(
            static_cast<std::int64_t>(result.pulses[i].sequence - result.pulses[i - 1].sequence));
    }
    std::int64_t poll_s = 1;
    if (!spacing.empty()) {
        std::nth_element(spacing.begin(),
                         spacing.begin() + static_cast<std::ptrdiff_t>(spacing.size() / 2),
                         spacing.end());
        poll_s = spacing[spacing.size() / 2];
    }
    result.gaps = count_gaps(result.pulses, core::ns_per_second);
    result.notes.push_back(fmt::format(
        "ntpd logged peer {} every {} s (its poll interval): each line is one filtered sample, so "
        "the report's missed pulses count the seconds between lines",
        peer, poll_s));
    if (other_peer_lines > 0) {
        result.notes.push_back(fmt::format("{} lines of other peers skipped", other_peer_lines));
    }
    auto meta = import_run_meta("ntp-peerstats", peer, files_, core::EdgeSelection::assert_only,
                                result.pulses.front().timestamp_ns);
    meta.import =
        nlohmann::json{{"format", "ntp-peerstats"},
                       {"file", files_.size() == 1 ? nlohmann::json(name) : nlohmann::json(files_)},
                       {"peer", peer},
                       {"lines", result.lines},
                       {"pulses", result.pulses.size()},
                       {"poll_interval_s", poll_s},
                       {"other_peer_lines", other_peer_lines},
                       {"skipped_lines", result.problem_count}};
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
