// SPDX-License-Identifier: GPL-2.0-or-later
#include "poll_spec.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <charconv>
#include <vector>

#include "edge_finder.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

namespace {

constexpr std::string_view forms =
    "use poll:CHIP:LINE (gpiochip0:18), poll:mem:/dev/gpiomemN,offset=O,bit=B, poll:bcm2835:PIN "
    "or poll:rp1:PIN, with optional ,pattern=10 and ,window=200us";

// The Pi 1–4's /dev/gpiomem maps the GPIO block's one 4 KiB page: GPLEV0 (pins 0–31) at 0x34,
// GPLEV1 (32–53) at 0x38 (BCM2835 ARM Peripherals, §6.1).
constexpr unsigned bcm2835_pins = 54;
constexpr std::uint64_t bcm2835_gplev0 = 0x34;
// The Pi 5's /dev/gpiomem0 maps RP1's IO_BANK0 at +0 and SYS_RIO0 at +0x10000; RIO's
// synchronised input register is at +0x0c within it (RP1 Peripherals datasheet, §3.3.2,
// "RIO_SYNC_IN"; 0x08 is the unsynchronised one). Bank 0 has pins 0–27. Untested on hardware
// here: docs/latency.md says so.
constexpr unsigned rp1_bank0_pins = 28;
constexpr std::uint64_t rp1_sys_rio0 = 0x10000;
constexpr std::uint64_t rp1_sync_in = 0x0c;

[[noreturn]] void reject_poll_spec(std::string_view rest, std::string_view why) {
    throw core::UsageError(fmt::format("--source poll:{}: {}", rest, why));
}

std::uint64_t parse_unsigned(std::string_view rest, std::string_view key, std::string_view value) {
    int base = 10;
    std::string_view digits = value;
    if (digits.starts_with("0x") || digits.starts_with("0X")) {
        base = 16;
        digits.remove_prefix(2);
    }
    std::uint64_t number = 0;
    const auto [ptr, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), number, base);
    if (digits.empty() || ec != std::errc{} || ptr != digits.data() + digits.size()) {
        reject_poll_spec(
            rest, fmt::format("{}={} is not a whole number (decimal, or hex with 0x)", key, value));
    }
    return number;
}

unsigned preset_pin(std::string_view rest, std::string_view preset, std::string_view pin,
                    unsigned pins) {
    const std::uint64_t number = parse_unsigned(rest, "PIN", pin);
    if (number >= pins) {
        reject_poll_spec(rest, fmt::format("pin {} is outside the {} level register (pins 0 to {})",
                                           number, preset, pins - 1));
    }
    return static_cast<unsigned>(number);
}

void apply_knob(PollSpec& spec, std::string_view rest, std::string_view key,
                std::string_view value) {
    if (key == "pattern") {
        spec.pattern = std::string(value);
        // Refused here, before any device is opened, with PollPattern's own words.
        static_cast<void>(detail::PollPattern(spec.pattern, fmt::format("poll:{}", rest)));
    } else if (key == "window") {
        spec.window = core::parse_duration(value, fmt::format("--source poll:{} window", rest));
        if (spec.window < std::chrono::microseconds{1} ||
            spec.window > std::chrono::milliseconds{100}) {
            reject_poll_spec(rest,
                             "window= is the half-width around each predicted edge: 1us to 100ms");
        }
    } else if ((key == "offset" || key == "bit") && spec.backend == PollSpec::Backend::memory &&
               spec.preset.empty()) {
        const std::uint64_t number = parse_unsigned(rest, key, value);
        if (key == "offset") {
            if (number % 4 != 0) {
                reject_poll_spec(
                    rest,
                    fmt::format("offset={} is not a 32-bit register's (a multiple of 4)", value));
            }
            spec.offset = number;
        } else {
            if (number > 31) {
                reject_poll_spec(
                    rest, fmt::format("bit={} is outside the 32-bit register (0 to 31)", value));
            }
            spec.bit = static_cast<unsigned>(number);
        }
    } else {
        reject_poll_spec(rest, fmt::format("unknown knob '{}'; {}", key, forms));
    }
}

}  // namespace

PollSpec parse_poll_spec(std::string_view rest) {
    PollSpec spec;
    const auto comma = rest.find(',');
    const std::string_view head = rest.substr(0, comma);
    const auto colon = head.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == head.size()) {
        reject_poll_spec(rest, forms);
    }
    const std::string_view kind = head.substr(0, colon);
    const std::string_view what = head.substr(colon + 1);
    if (kind == "mem") {
        spec.backend = PollSpec::Backend::memory;
        spec.device = std::string(what);
    } else if (kind == "bcm2835") {
        spec.backend = PollSpec::Backend::memory;
        spec.preset = "bcm2835";
        spec.device = "/dev/gpiomem";
        const unsigned pin = preset_pin(rest, kind, what, bcm2835_pins);
        spec.offset = bcm2835_gplev0 + 4 * (pin / 32);
        spec.bit = pin % 32;
    } else if (kind == "rp1") {
        spec.backend = PollSpec::Backend::memory;
        spec.preset = "rp1";
        spec.device = "/dev/gpiomem0";
        spec.offset = rp1_sys_rio0 + rp1_sync_in;
        spec.bit = preset_pin(rest, kind, what, rp1_bank0_pins);
    } else {
        spec.chip = std::string(kind);
        spec.line = std::string(what);
    }
    std::vector<std::string_view> given;
    std::string_view knobs = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    while (!knobs.empty()) {
        const auto next = knobs.find(',');
        const std::string_view knob = knobs.substr(0, next);
        knobs = next == std::string_view::npos ? "" : knobs.substr(next + 1);
        const auto eq = knob.find('=');
        if (eq == std::string_view::npos) {
            reject_poll_spec(rest, fmt::format("'{}' is not KEY=VALUE; {}", knob, forms));
        }
        const std::string_view key = knob.substr(0, eq);
        if (std::find(given.begin(), given.end(), key) != given.end()) {
            reject_poll_spec(rest, fmt::format("'{}' is given twice; give each knob once", key));
        }
        given.push_back(key);
        apply_knob(spec, rest, key, knob.substr(eq + 1));
    }
    if (spec.backend == PollSpec::Backend::memory && spec.preset.empty() &&
        (std::find(given.begin(), given.end(), "offset") == given.end() ||
         std::find(given.begin(), given.end(), "bit") == given.end())) {
        reject_poll_spec(rest,
                         "poll:mem: needs offset=O and bit=B (the level register and its bit)");
    }
    return spec;
}

}  // namespace ppsbench::capture
