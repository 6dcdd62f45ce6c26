// SPDX-License-Identifier: GPL-2.0-or-later
#include "input_files.hpp"

namespace ppsbench::app {

void InputFiles::declare(po::options_description& hidden,
                         po::positional_options_description& positional) {
    hidden.add_options()("file", po::value(&paths)->multitoken());
    positional.add("file", -1);
}

void InputFiles::plan(core::FilePlan& plan) const {
    for (const auto& path : paths) {
        plan.read("the input", path);
    }
}

}  // namespace ppsbench::app
