#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::app {

namespace po = boost::program_options;

// Parses args against `options` (and positional names), turning Boost's exceptions into one-line
// core::UsageError messages that name the subcommand and point at --help. Returns false when
// --help was given (the help text has been printed to stdout).
bool parse_options(std::string_view command, std::string_view usage, std::string_view description,
                   const std::vector<std::string>& args, const po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm);

}  // namespace ppsbench::app
