// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace ppsbench::import::testing {

inline std::string fixture_path(const std::string& name) {
    return std::string(PPSBENCH_SOURCE_DIR) + "/tests/import/fixtures/" + name;
}

inline std::string fixture(const std::string& name) {
    std::ifstream in(fixture_path(name), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace ppsbench::import::testing
