// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/utc_time.hpp"

#include <fmt/format.h>
#include <charconv>
#include <chrono>

#include "ppsbench/core/duration.hpp"

namespace ppsbench::core {

namespace {

// The calendar fields of a time, by <chrono>'s civil-date arithmetic (no gmtime_r, no TZ).
struct Civil {
    int year;
    unsigned month;
    unsigned day;
    long hours;
    long minutes;
    long seconds;
    std::int64_t nanoseconds;
};

Civil civil(std::int64_t ns) {
    using namespace std::chrono;
    const sys_time<nanoseconds> tp{nanoseconds{ns}};
    const auto day = floor<days>(tp);
    const year_month_day ymd{day};
    const hh_mm_ss hms{floor<seconds>(tp - day)};
    return {static_cast<int>(ymd.year()),
            static_cast<unsigned>(ymd.month()),
            static_cast<unsigned>(ymd.day()),
            static_cast<long>(hms.hours().count()),
            static_cast<long>(hms.minutes().count()),
            static_cast<long>(hms.seconds().count()),
            (tp - floor<seconds>(tp)).count()};
}

template <typename T>
bool read_number(std::string_view& text, std::size_t digits, T& out) {
    if (text.size() < digits) {
        return false;
    }
    const auto [end, ec] = std::from_chars(text.data(), text.data() + digits, out);
    if (ec != std::errc{} || end != text.data() + digits) {
        return false;
    }
    text.remove_prefix(digits);
    return true;
}

bool read_char(std::string_view& text, char c) {
    if (text.empty() || text.front() != c) {
        return false;
    }
    text.remove_prefix(1);
    return true;
}

}  // namespace

std::string format_utc(std::int64_t ns, UtcPrecision precision) {
    const Civil c = civil(ns);
    if (precision == UtcPrecision::seconds) {
        return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", c.year, c.month, c.day, c.hours,
                           c.minutes, c.seconds);
    }
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:09}Z", c.year, c.month, c.day,
                       c.hours, c.minutes, c.seconds, c.nanoseconds);
}

std::string format_utc_compact(std::int64_t ns) {
    const Civil c = civil(ns);
    return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z", c.year, c.month, c.day, c.hours,
                       c.minutes, c.seconds);
}

std::optional<std::int64_t> parse_utc(std::string_view text) {
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    int hours = 0;
    int minutes = 0;
    int seconds = 0;
    std::int64_t fraction = 0;
    if (!read_number(text, 4, year) || !read_char(text, '-') || !read_number(text, 2, month) ||
        !read_char(text, '-') || !read_number(text, 2, day) || !read_char(text, 'T') ||
        !read_number(text, 2, hours) || !read_char(text, ':') || !read_number(text, 2, minutes) ||
        !read_char(text, ':') || !read_number(text, 2, seconds)) {
        return std::nullopt;
    }
    if (read_char(text, '.') && !read_number(text, 9, fraction)) {
        return std::nullopt;
    }
    if (text != "Z") {
        return std::nullopt;
    }
    using namespace std::chrono;
    const year_month_day ymd{std::chrono::year{year}, std::chrono::month{month},
                             std::chrono::day{day}};
    if (!ymd.ok() || hours > 23 || minutes > 59 || seconds > 60) {
        return std::nullopt;
    }
    const std::int64_t day_ns =
        duration_cast<nanoseconds>(sys_days{ymd}.time_since_epoch()).count();
    return day_ns + ((hours * 3600LL + minutes * 60LL + seconds) * ns_per_second) + fraction;
}

}  // namespace ppsbench::core
