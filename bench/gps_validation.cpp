// SPDX-License-Identifier: GPL-2.0-or-later
// Validation, not a test: runs ppsbench's ADEV/MDEV/TDEV on a real GPS 1PPS capture (GPS
// receiver vs hydrogen maser, 241 218 s of phase, from the allantools test suite) and prints
// them beside Stable32's results with the relative difference. Reads the shared reference data
// (../shared/data beside the repository, or the directory given as argv[1]); exits 0 with a
// note when it is absent, because users' clones do not have it.
//
//   build/bench/gps_validation [DATA_DIR]

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ppsbench/stats/stability.hpp"

namespace {

namespace fs = std::filesystem;
using ppsbench::stats::modified_adev;
using ppsbench::stats::overlapping_adev;
using ppsbench::stats::time_deviation;

std::vector<double> read_gzipped_column(const fs::path& path) {
    std::vector<double> values;
    const std::string command = "gzip -dc '" + path.string() + "'";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return values;
    }
    char line[256];
    while (std::fgets(line, sizeof line, pipe) != nullptr) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        values.push_back(std::strtod(line, nullptr));
    }
    ::pclose(pipe);
    return values;
}

struct Row {
    std::size_t af;
    double sigma;
};

// Stable32 table: AF tau # alpha min-sigma sigma max-sigma.
std::vector<Row> read_stable32(const fs::path& path) {
    std::vector<Row> rows;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream fields(line);
        double af = 0, tau = 0, n = 0, alpha = 0, lo = 0, sigma = 0;
        if (fields >> af >> tau >> n >> alpha >> lo >> sigma) {
            rows.push_back({static_cast<std::size_t>(af), sigma});
        }
    }
    return rows;
}

using Deviation = std::vector<double> (*)(std::span<const double>, double,
                                          std::span<const std::size_t>);

double compare(const char* name, const std::vector<double>& phase, const fs::path& table,
               Deviation deviation) {
    const auto rows = read_stable32(table);
    std::vector<std::size_t> factors;
    for (const Row& r : rows) {
        factors.push_back(r.af);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto ours = deviation(phase, 1.0, factors);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n%s (%s, %.1f ms)\n%8s %14s %14s %12s\n", name, table.filename().c_str(), ms,
                "AF", "ppsbench", "Stable32", "rel. diff");
    double worst = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double rel = ours[i] / rows[i].sigma - 1.0;
        worst = std::max(worst, std::abs(rel));
        std::printf("%8zu %14.5e %14.5e %+12.2e\n", rows[i].af, ours[i], rows[i].sigma, rel);
    }
    return worst;
}

}  // namespace

int main(int argc, char** argv) {
    const fs::path dir =
        argc > 1 ? fs::path(argv[1])
                 : fs::path(PPSBENCH_SOURCE_DIR) / ".." / "shared" / "data" / "gps-1pps-hmaser";
    const fs::path data = dir / "gps_1pps_phase_data.txt.gz";
    if (!fs::exists(data)) {
        std::printf(
            "reference data not found at %s: nothing to validate (it lives beside the "
            "repository, not in it)\n",
            data.c_str());
        return 0;
    }
    const auto phase = read_gzipped_column(data);
    std::printf("%s: %zu phase samples (tau0 = 1 s)\n", data.c_str(), phase.size());
    double worst = 0;
    worst = std::max(worst, compare("ADEV (overlapping)", phase, dir / "stable32_OADEV_octave.txt",
                                    overlapping_adev));
    worst =
        std::max(worst, compare("MDEV", phase, dir / "stable32_MDEV_octave.txt", modified_adev));
    worst =
        std::max(worst, compare("TDEV", phase, dir / "stable32_TDEV_octave.txt", time_deviation));
    std::printf("\nlargest relative difference: %.2e (Stable32 prints 5 significant digits)\n",
                worst);
    return worst < 1e-4 ? 0 : 1;
}
