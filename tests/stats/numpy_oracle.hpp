// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// numpy as an independent oracle: a test writes its (seeded) data to a temporary file, runs a
// short numpy script on it and compares. Tests skip, saying why, when no python3 with numpy is
// found (Debian: apt install python3-numpy). Both `python3` on PATH and /usr/bin/python3 are
// tried, because a pyenv or venv python on PATH often lacks numpy while Debian's has it.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace ppsbench::test {

inline const std::optional<std::string>& numpy_python() {
    static const std::optional<std::string> found = []() -> std::optional<std::string> {
        for (const char* candidate : {"python3", "/usr/bin/python3"}) {
            const std::string command =
                std::string(candidate) + " -c 'import numpy' >/dev/null 2>&1";
            if (std::system(command.c_str()) == 0) {
                return candidate;
            }
        }
        return std::nullopt;
    }();
    return found;
}

#define PPSBENCH_REQUIRE_NUMPY()                                                            \
    do {                                                                                    \
        if (!::ppsbench::test::numpy_python()) {                                            \
            GTEST_SKIP() << "numpy oracle unavailable: no python3 with numpy (Debian: apt " \
                            "install python3-numpy)";                                       \
        }                                                                                   \
    } while (false)

// Runs `script` (sys.argv[1] is a file holding `data`, sys.argv[2:] are `args`) and returns
// the whitespace-separated numbers it prints ("nan" included).
inline std::vector<double> run_numpy(const std::string& script, const std::string& data,
                                     const std::vector<std::string>& args = {}) {
    const auto dir = std::filesystem::temp_directory_path();
    const auto stamp =
        std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(&data));
    const auto data_path = dir / ("ppsbench-oracle-" + stamp + ".txt");
    const auto script_path = dir / ("ppsbench-oracle-" + stamp + ".py");
    std::ofstream(data_path) << data;
    std::ofstream(script_path) << "import sys, warnings\nimport numpy as np\n"
                               << "warnings.simplefilter('ignore')\n"
                               << script;
    std::string command = *numpy_python() + " " + script_path.string() + " " + data_path.string();
    for (const auto& a : args) {
        command += " " + a;
    }
    std::vector<double> numbers;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        std::string out;
        char buffer[4096];
        while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) {
            out.append(buffer, got);
        }
        ::pclose(pipe);
        std::istringstream in(out);
        std::string token;
        while (in >> token) {
            numbers.push_back(std::strtod(token.c_str(), nullptr));
        }
    }
    std::filesystem::remove(data_path);
    std::filesystem::remove(script_path);
    return numbers;
}

template <typename T>
std::string lines(const std::vector<T>& values) {
    std::ostringstream out;
    out.precision(17);
    for (const T& v : values) {
        out << v << '\n';
    }
    return out.str();
}

// Seeded normal samples from our own generator (splitmix64 + Box–Muller), so test data are
// identical everywhere.
class TestRandom {
  public:
    explicit TestRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double normal(double mean = 0.0, double sigma = 1.0) {
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        return mean + sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

  private:
    std::uint64_t state_;
};

}  // namespace ppsbench::test
