// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Helpers for tests that read the shared reference data (Stable32 results, real PPS captures).
// That data lives beside the repository (../shared/data), not in it: users' clones do not have
// it, so every test using it must GTEST_SKIP() when it is absent. A build from a copy of the tree
// (the ARM legs' package build, tests/cross/cross-test.sh) names it in PPSBENCH_REFERENCE_DATA.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace ppsbench::test {

inline std::filesystem::path reference_data_dir() {
    if (const char* named = std::getenv("PPSBENCH_REFERENCE_DATA");
        named != nullptr && *named != 0) {
        return named;
    }
    return std::filesystem::path(PPSBENCH_SOURCE_DIR) / ".." / "shared" / "data";
}

// One number per line, '#' comments: PHASE.DAT and the GPS phase file.
inline std::vector<double> read_column(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::vector<double> values;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        values.push_back(std::stod(line));
    }
    return values;
}

// A Stable32 results table: '#' header, then rows of AF, tau, #, [alpha, min sigma,] sigma
// [, max sigma]. We keep the averaging factor, the term count and the (central) sigma.
struct Stable32Row {
    std::size_t af = 0;
    double tau = 0;
    std::size_t terms = 0;
    double sigma = 0;
};

inline std::vector<Stable32Row> read_stable32(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::vector<Stable32Row> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        std::vector<double> v;
        double x = 0;
        while (fields >> x) {
            v.push_back(x);
        }
        if (v.size() < 4) {
            continue;
        }
        // 7 columns: AF tau # alpha min sigma max -> sigma is column 5; 4 columns (MTIE,
        // TIE rms): AF tau # value.
        const double sigma = v.size() >= 7 ? v[5] : v[3];
        rows.push_back(
            {static_cast<std::size_t>(v[0]), v[1], static_cast<std::size_t>(v[2]), sigma});
    }
    return rows;
}

}  // namespace ppsbench::test
