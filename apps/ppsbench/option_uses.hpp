// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "options.hpp"

namespace ppsbench::app {

// When an option does something. An option given while it would do nothing (`--chrony-refid`
// with `--chrony off`, `--bias` for a sim: source) is refused rather than silently dropped, as
// chrony refuses a refclock option its driver does not list: the user meant something by it.
struct OptionUse {
    std::string option;  // the long name, without "--"
    bool used = true;    // whether it does something with the rest of this command line
    std::string why;     // what it needs, and the fix: "chrony is not sampled with --chrony off;
                         // drop it, or use --chrony on"
};

// Given on the command line, not left at its default: every option with a Boost default_value
// (or a bool_switch) is in `vm` either way.
bool given(const po::variables_map& vm, std::string_view option);

// Throws core::UsageError "--OPTION VALUE: WHY" for the first rule of `uses` whose option is
// given but not used. Several rules may name one option; each says its own why.
void refuse_unused_options(const po::variables_map& vm, std::span<const OptionUse> uses);

// The source options (--edge, --period, --seed, --pace, --bias): each is used when one of
// `specs` reads it, as the source table declares (capture::source_reads); the message names the
// sources that do.
std::vector<OptionUse> source_option_uses(const std::vector<std::string>& specs);

}  // namespace ppsbench::app
