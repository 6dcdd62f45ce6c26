// SPDX-License-Identifier: GPL-2.0-or-later
#include "input_files.hpp"

#include <fmt/format.h>

#include "ppsbench/analysis/reference_file.hpp"

namespace ppsbench::app {

void InputFiles::declare(po::options_description& hidden,
                         po::positional_options_description& positional) {
    hidden.add_options()("file", po::value(&paths)->multitoken());
    positional.add("file", -1);
}

void InputFiles::plan(core::FilePlan& plan) const {
    for (const auto& path : paths) {
        plan.read("the input", path);
        // A two-path run's reference is read for the bias: no output may replace it either.
        if (const auto reference = analysis::reference_file_of(path)) {
            plan.read(fmt::format("the reference of {}", path), *reference);
        }
    }
}

}  // namespace ppsbench::app
