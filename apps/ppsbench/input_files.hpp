// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "ppsbench/core/file_plan.hpp"

namespace ppsbench::app {

// The FILE... a command reads (report, compare, gate; import's logs): the positional
// arguments, declared once, and each file planned as an input (core::FilePlan), so no output
// of the same command can replace one. Issue 21's input-files mixin.
struct InputFiles {
    std::vector<std::string> paths;

    // Adds the hidden "file" option that takes every positional argument from `first` on.
    void declare(po::options_description& hidden, po::positional_options_description& positional);
    void plan(core::FilePlan& plan) const;
};

}  // namespace ppsbench::app
