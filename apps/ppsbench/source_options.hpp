#pragma once

#include <cstdint>
#include <string>

#include "options.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::app {

// The options that say where pulses come from, shared by `run` and `demo`.
struct SourceArguments {
    std::string spec = "pps:/dev/pps0";
    std::string edge = "assert";
    std::string period = "1s";
    std::uint64_t seed = 1;
    std::string pace = "fast";
    bool pace_realtime() const { return pace == "realtime"; }
};

void add_source_options(po::options_description& options, SourceArguments& source);
capture::SourceOptions to_source_options(const SourceArguments& source,
                                         const po::variables_map& vm);

}  // namespace ppsbench::app
