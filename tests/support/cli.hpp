// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ppsbench::testing {

struct CommandResult {
    int exit_code = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs the built ppsbench binary with `args` (no shell involved), capturing stdout and stderr.
CommandResult run_ppsbench(const std::vector<std::string>& args);

// Runs any program the same way (for python3 oracles, setpriv, chronyc).
CommandResult run_program(const std::vector<std::string>& argv);

// True when this test program runs under a user-mode emulator (qemu-user, a cross build's
// CMAKE_CROSSCOMPILING_EMULATOR, cmake/toolchains/, sets PPSBENCH_UNDER_EMULATOR=1): system
// calls then reach the host kernel through the emulator, which does not pass on some of them
// (e.g. madvise) and shows its own view of /proc/self. A test of such a kernel feature skips
// there, saying why, only when the feature is indeed missing.
bool under_emulator();

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    std::filesystem::path path_;
};

std::string read_text(const std::string& path);

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
// How many times `part` occurs in `text`, overlapping occurrences included.
inline std::size_t count_of(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++n;
    }
    return n;
}
void write_text(const std::string& path, const std::string& text);

// stderr without its "drift not judged" notes: a run of a few dozen simulated pulses cannot tell
// a 1 ppm drift from its jitter and says so (tests/stats/short_drift_test.cpp tests that note);
// a test about something else still sees every other line.
inline std::string without_drift_notes(const std::string& err) {
    std::string kept;
    std::size_t start = 0;
    while (start < err.size()) {
        auto end = err.find('\n', start);
        end = end == std::string::npos ? err.size() : end + 1;
        const auto line = err.substr(start, end - start);
        if (line.find(": drift not judged") == std::string::npos) {
            kept += line;
        }
        start = end;
    }
    return kept;
}

}  // namespace ppsbench::testing
