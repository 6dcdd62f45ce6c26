// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/log_common.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>

#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony {

std::string LogProblem::to_string() const {
    return fmt::format("{}:{}: {}", file, line, message);
}

namespace detail {
namespace {

template <typename T>
std::optional<T> parse_int(std::string_view text) {
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::ifstream open_log(const std::string& path, std::string_view log_name) {
    std::ifstream in(path);
    if (!in) {
        throw core::InputError(
            fmt::format("cannot open {}: {}; check the path (chrony writes it to its logdir, e.g. "
                        "/var/log/chrony/{})",
                        path, core::errno_message(errno), log_name));
    }
    return in;
}

bool is_banner(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return true;  // blank
    }
    return line[first] == '=' || line.find("Date (UTC)") != std::string_view::npos;
}

std::string printable(std::string_view text) {
    constexpr std::size_t limit = 40;
    std::string out;
    for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            out += fmt::format("\\x{:02x}", c);
        }
    }
    if (text.size() > limit) {
        out += "...";
    }
    return out;
}

bool is_printable_word(std::string_view text) {
    for (const char c : text) {
        if (c <= 0x20 || c >= 0x7f) {
            return false;
        }
    }
    return !text.empty();
}

std::optional<std::int64_t> parse_log_time(std::string_view date, std::string_view time) {
    using namespace std::chrono;
    if (date.size() != 10 || date[4] != '-' || date[7] != '-' || time.size() < 8 ||
        time[2] != ':' || time[5] != ':') {
        return std::nullopt;
    }
    const auto y = parse_int<int>(date.substr(0, 4));
    const auto mo = parse_int<unsigned>(date.substr(5, 2));
    const auto d = parse_int<unsigned>(date.substr(8, 2));
    const auto h = parse_int<int>(time.substr(0, 2));
    const auto mi = parse_int<int>(time.substr(3, 2));
    const auto s = parse_int<int>(time.substr(6, 2));
    if (!y || !mo || !d || !h || !mi || !s || *y < 1970 || *y > 2116 || *h > 23 || *mi > 59 ||
        *s > 60) {
        return std::nullopt;
    }
    const year_month_day ymd{year{*y}, month{*mo}, day{*d}};
    if (!ymd.ok()) {
        return std::nullopt;
    }
    std::int64_t fraction_ns = 0;
    if (time.size() > 8) {
        const auto digits = time.substr(9);
        if (time[8] != '.' || digits.empty() || digits.size() > 9) {
            return std::nullopt;
        }
        const auto value = parse_int<std::int64_t>(digits);
        if (!value || *value < 0) {
            return std::nullopt;
        }
        fraction_ns = *value;
        for (auto i = digits.size(); i < 9; ++i) {
            fraction_ns *= 10;
        }
    }
    const auto day_s = duration_cast<seconds>(sys_days{ymd}.time_since_epoch()).count();
    const std::int64_t ns = (day_s + *h * 3600LL + *mi * 60LL + *s) * 1'000'000'000LL + fraction_ns;
    return core::is_capture_time(ns) ? std::optional(ns) : std::nullopt;
}

std::optional<double> parse_double(std::string_view text) {
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty() ||
        !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<std::vector<std::size_t>> file_ranks_by_time(std::span<const FileSpan> spans,
                                                           std::size_t file_count) {
    std::vector<FileSpan> by_time(spans.begin(), spans.end());
    std::stable_sort(by_time.begin(), by_time.end(),
                     [](const auto& a, const auto& b) { return a.first_ns < b.first_ns; });
    bool in_order = true;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        in_order = in_order && spans[i].file == by_time[i].file;
        if (i > 0 && (by_time[i].first_ns <= by_time[i - 1].last_ns ||
                      by_time[i].file == by_time[i - 1].file)) {
            return std::nullopt;  // overlapping (or interleaved) files: read as given
        }
    }
    if (in_order) {
        return std::nullopt;
    }
    std::vector<std::size_t> rank(file_count, file_count);
    for (std::size_t i = 0; i < by_time.size(); ++i) {
        rank[by_time[i].file] = i;
    }
    return rank;
}

std::string reordered_note(std::span<const std::size_t> ranks, std::span<const std::string> files) {
    std::vector<std::size_t> order;
    for (std::size_t file = 0; file < ranks.size(); ++file) {
        if (ranks[file] < ranks.size()) {
            order.push_back(file);
        }
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
    std::string note;
    for (const std::size_t file : order) {
        note += (note.empty() ? "read oldest first: " : ", ") + files[file];
    }
    return note;
}

}  // namespace detail

void SkippedLines::add(std::string_view file, std::size_t line, std::string message) {
    LogProblem problem{std::string(file), line, std::move(message)};
    if (strict_) {
        throw core::InputError(problem.to_string() + "; fix or remove the line, or drop --strict");
    }
    ++count_;
    if (kept_.size() < max_kept_problems) {
        kept_.push_back(std::move(problem));
    }
}

std::string SkippedLines::summary(std::size_t shown) const {
    if (count_ == 0) {
        return "";
    }
    std::string out =
        fmt::format("; {} line{} skipped, e.g. ", count_, count_ == 1 ? " was" : "s were");
    for (std::size_t i = 0; i < kept_.size() && i < shown; ++i) {
        out += (i == 0 ? "" : "; ") + kept_[i].to_string();
    }
    return out;
}

}  // namespace ppsbench::chrony
