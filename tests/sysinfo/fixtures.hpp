// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Shared by the sysinfo tests: where the fixture trees are, a writable copy of one, and a tree's
// fingerprint.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo::testing {

inline std::filesystem::path fixture(const std::string& name) {
    return std::filesystem::path(PPSBENCH_SOURCE_DIR) / "tests" / "sysinfo" / "fixtures" / name;
}

// The fingerprint of fixture tree `name`, read without waiting for a pulse (a tree has none).
inline SystemFingerprint load_fixture(const std::string& name) {
    FingerprintOptions options;
    options.sysroot = fixture(name);
    options.pulse_wait = std::chrono::milliseconds(0);
    return read_fingerprint(options);
}

// A private copy of a fixture tree that tests may modify; removed when it goes out of scope.
class FixtureCopy {
  public:
    explicit FixtureCopy(const std::string& name) {
        std::random_device random;
        root_ = std::filesystem::temp_directory_path() /
                ("ppsbench-sysinfo-" + name + "-" + std::to_string(random()));
        std::filesystem::copy(fixture(name), root_, std::filesystem::copy_options::recursive);
    }
    FixtureCopy(const FixtureCopy&) = delete;
    FixtureCopy& operator=(const FixtureCopy&) = delete;
    ~FixtureCopy() {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }

    const std::filesystem::path& root() const { return root_; }

    void write(const std::string& absolute, const std::string& text) const {
        const auto path = root_ / std::filesystem::path(absolute).relative_path();
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text;
    }

    void remove(const std::string& absolute) const {
        std::filesystem::remove_all(root_ / std::filesystem::path(absolute).relative_path());
    }

  private:
    std::filesystem::path root_;
};

}  // namespace ppsbench::sysinfo::testing
