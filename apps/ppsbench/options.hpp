// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::app {

namespace po = boost::program_options;

// Parses args against `options` (shown by --help) and `hidden` (the names positional arguments
// are stored under: parsed, never shown as options), turning Boost's exceptions into one-line
// core::UsageError messages that point at --help and suggest the option a typo meant. main()
// puts "ppsbench COMMAND: " in front. Returns false when --help was given (the help text has been
// printed to stdout).
bool parse_options(std::string_view command, std::string_view usage, std::string_view description,
                   const std::vector<std::string>& args, const po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm,
                   const po::options_description& hidden = po::options_description());

// A default as a person writes it: 0.95, not Boost's 0.94999999999999996.
std::string human_default(double value);

// Wraps each line of `text` longer than `width` at spaces; lines that start with a space
// (indented lists, examples) are kept as written.
std::string wrap_text(std::string_view text, std::size_t width = 79);

// "1 pulse", "0 pulses", "3 pulses": a count with its noun in the number it takes.
std::string counted(std::uint64_t n, std::string_view one, std::string_view many);

}  // namespace ppsbench::app
