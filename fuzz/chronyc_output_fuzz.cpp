// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: parsing `chronyc -c` output (tracking, sources, sourcestats), as the
// sampler does every --chrony-interval. A chronyd of another version, or a truncated pipe, must
// give parsed rows or core::InputError naming the field; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ppsbench/chrony/report.hpp"
#include "ppsbench/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ppsbench::chrony;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto tracking = parse_tracking(text);
        (void)tracking.ref_id_hex();
        (void)tracking.ref_id_text();
        (void)tracking.synchronised();
    } catch (const ppsbench::core::InputError&) {
    }
    try {
        for (const auto& row : parse_sources(text)) {
            (void)to_string(row.mode);
            (void)to_string(row.state);
        }
    } catch (const ppsbench::core::InputError&) {
    }
    try {
        (void)parse_sourcestats(text);
    } catch (const ppsbench::core::InputError&) {
    }
    (void)parse_leap_status(text);
    (void)parse_seconds_ns(text);
    return 0;
}
