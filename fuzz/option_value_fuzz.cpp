// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: the parsers of option values (durations, counts, labels). Every input must
// give a value or a core::UsageError, never a crash, a sanitizer report or another exception;
// a value must respect the documented bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/option_value.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto d = ppsbench::core::parse_duration(text, "--fuzz");
        if (d.count() < 1 || d.count() > 4'600'000'000'000'000'000LL) {
            std::abort();  // outside the documented range
        }
        (void)ppsbench::core::format_duration(d);
    } catch (const ppsbench::core::UsageError&) {
    }
    try {
        const auto n = ppsbench::core::parse_count(text, "--fuzz", 1, ppsbench::core::max_pulses);
        if (n < 1 || n > ppsbench::core::max_pulses) {
            std::abort();
        }
    } catch (const ppsbench::core::UsageError&) {
    }
    const bool printable = ppsbench::core::is_printable_utf8(text);
    for (const char c : text) {
        if (printable && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)) {
            std::abort();  // a control character passed as printable
        }
    }
    return 0;
}
