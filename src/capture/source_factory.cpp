// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/source_factory.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <functional>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "sources/gpio_source.hpp"
#include "sources/poll_source.hpp"
#include "sources/pps_device_source.hpp"
#include "sources/ptp_source.hpp"
#include "sources/replay_source.hpp"
#include "sources/sim_source.hpp"

namespace ppsbench::capture {

namespace {

using Opener = std::unique_ptr<PulseSource> (*)(std::string_view spec, std::string_view rest,
                                                const SourceOptions& options);

struct Scheme {
    std::string_view name;
    std::string_view example;
    // The SourceOptions it reads (source_option_names); `run` refuses the others when given.
    std::array<std::string_view, source_option_names.size()> reads;
    Opener open;
};

// Adding a source: one file under sources/ and one row here.
const std::array<Scheme, 6> schemes{{
    {"pps",
     "pps:/dev/pps0",
     {"edge", "period"},
     [](std::string_view spec, std::string_view rest,
        const SourceOptions& options) -> std::unique_ptr<PulseSource> {
         return std::make_unique<PpsDeviceSource>(std::string(spec), std::string(rest), options);
     }},
    {"gpio",
     "gpio:gpiochip0:17",
     {"edge", "period", "bias"},
     [](std::string_view spec, std::string_view rest,
        const SourceOptions& options) -> std::unique_ptr<PulseSource> {
         return std::make_unique<GpioSource>(std::string(spec), parse_gpio_spec(rest), options);
     }},
    {"ptp",
     "ptp:/dev/ptp0",
     {"edge", "period"},
     [](std::string_view spec, std::string_view rest,
        const SourceOptions& options) -> std::unique_ptr<PulseSource> {
         return std::make_unique<PtpSource>(std::string(spec), parse_ptp_spec(rest), options);
     }},
    {"poll",
     "poll:gpiochip0:18",
     {"edge", "period"},
     [](std::string_view spec, std::string_view rest, const SourceOptions& options)
         -> std::unique_ptr<PulseSource> { return open_poll_source(spec, rest, options); }},
    {"replay",
     "replay:stock.csv",
     {"edge", "period", "pace"},
     [](std::string_view spec, std::string_view rest,
        const SourceOptions& options) -> std::unique_ptr<PulseSource> {
         return std::make_unique<ReplaySource>(std::string(spec), std::string(rest), options);
     }},
    {"sim",
     "sim:threaded",
     {"edge", "period", "seed", "pace"},
     [](std::string_view spec, std::string_view rest,
        const SourceOptions& options) -> std::unique_ptr<PulseSource> {
         return std::make_unique<SimSource>(std::string(spec), parse_sim_model(rest), options);
     }},
}};

std::string known_schemes() {
    std::string text;
    for (const auto& scheme : schemes) {
        text += text.empty() ? "" : ", ";
        text += scheme.example;
    }
    return text;
}

// The row of `spec`'s scheme; a bare /dev/ppsN is pps:. Null for no known scheme.
const Scheme* scheme_of(std::string_view spec) {
    const auto colon = spec.find(':');
    const std::string_view name = colon != std::string_view::npos
                                      ? spec.substr(0, colon)
                                      : (spec.starts_with("/dev/pps") ? "pps" : "");
    for (const auto& scheme : schemes) {
        if (scheme.name == name) {
            return &scheme;
        }
    }
    return nullptr;
}

bool reads(const Scheme& scheme, std::string_view option) {
    return std::find(scheme.reads.begin(), scheme.reads.end(), option) != scheme.reads.end();
}

}  // namespace

bool source_reads(std::string_view spec, std::string_view option) {
    const Scheme* scheme = scheme_of(spec);
    return scheme == nullptr || reads(*scheme, option);
}

std::string sources_reading(std::string_view option) {
    std::vector<std::string> names;
    for (const auto& scheme : schemes) {
        if (reads(scheme, option)) {
            names.push_back(fmt::format("{}:", scheme.name));
        }
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ");
        text += names[i];
    }
    return text;
}

std::unique_ptr<PulseSource> open_source(std::string_view spec, const SourceOptions& options) {
    const auto colon = spec.find(':');
    if (colon == std::string_view::npos) {
        // A bare device path is what people type first.
        if (spec.starts_with("/dev/pps")) {
            return open_source(fmt::format("pps:{}", spec), options);
        }
        throw core::UsageError(
            fmt::format("--source '{}': missing scheme; use one of {}", spec, known_schemes()));
    }
    const std::string_view name = spec.substr(0, colon);
    const std::string_view rest = spec.substr(colon + 1);
    for (const auto& scheme : schemes) {
        if (scheme.name == name) {
            if (rest.empty()) {
                throw core::UsageError(fmt::format("--source '{}': nothing after '{}:'; e.g. {}",
                                                   spec, name, scheme.example));
            }
            return scheme.open(spec, rest, options);
        }
    }
    throw core::UsageError(fmt::format("--source '{}': unknown scheme '{}'; use one of {}", spec,
                                       name, known_schemes()));
}

}  // namespace ppsbench::capture
