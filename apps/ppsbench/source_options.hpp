// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/duration.hpp"

namespace ppsbench::app {

// The options that say where pulses come from, shared by `run` and `demo`.
struct SourceArguments {
    // One --source, or two for a dual-path run (`--source A --source B` or `--source A B`).
    std::vector<std::string> specs{"pps:/dev/pps0"};
    const std::string& spec() const { return specs.front(); }
    std::string edge = "assert";
    std::string period = "1s";
    std::string seed = "1";
    std::string pace = "fast";
    std::string bias = "as-is";
    bool pace_realtime() const { return pace == "realtime"; }
};

// --period, bounded to what a pulse source can be (100 µs to 1 h).
core::Duration parse_period(const std::string& text);

// The "Sources:" paragraph of a command's help: every SPEC --source accepts.
extern const char* const source_specs_help;

void add_source_options(po::options_description& options, SourceArguments& source);
capture::SourceOptions to_source_options(const SourceArguments& source,
                                         const po::variables_map& vm);

}  // namespace ppsbench::app
