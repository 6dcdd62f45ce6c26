// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: the kernel fingerprint and `doctor --sysroot` over a snapshot tree built
// from the input, so the file readers run as they do on a copied system: /proc/interrupts,
// /proc/PID/stat|status|comm|cmdline, /proc/kallsyms, /sys/class/pps, cpufreq and cpuidle, and
// chrony.conf with its include/confdir files. The input is a list of files:
//
//   @@ /proc/interrupts
//   <contents>
//   @@ /etc/chrony/chrony.conf
//   <contents>
//
// Reading a snapshot never throws; the doctor's text and JSON must be produced for any tree.
// Paths are limited to plain names (no "..", at most 160 files) so the harness writes only under
// its own scratch folder.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/doctor_text.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace {

namespace fs = std::filesystem;

bool plain_path(std::string_view path) {
    if (path.size() < 2 || path.size() > 120 || path.front() != '/' || path.back() == '/') {
        return false;
    }
    std::size_t depth = 0;
    for (std::size_t start = 1; start <= path.size();) {
        auto end = path.find('/', start);
        end = end == std::string_view::npos ? path.size() : end;
        const auto name = path.substr(start, end - start);
        if (name.empty() || name == "." || name == ".." || ++depth > 10) {
            return false;
        }
        for (const char c : name) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
                            c == ':' || c == '@';
            if (!ok) {
                return false;
            }
        }
        start = end + 1;
    }
    return true;
}

// A scratch tree per process, in memory when /dev/shm exists (a tree of a hundred files is
// written and removed per input), removed at exit.
const fs::path& scratch() {
    static const fs::path root = [] {
        std::error_code ec;
        const char* tmp = std::getenv("TMPDIR");
        const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm")
                              : tmp != nullptr                 ? fs::path(tmp)
                                                               : fs::path("/tmp");
        return base / ("ppsbench-fingerprint-fuzz-" + std::to_string(getpid()));
    }();
    static const bool cleanup = [] {
        return std::atexit([] {
                   std::error_code ec;
                   fs::remove_all(scratch(), ec);
               }) == 0;
    }();
    (void)cleanup;
    return root;
}

void write_file(const fs::path& root, std::string_view path, std::string_view contents) {
    if (!plain_path(path)) {
        return;
    }
    const auto file = root / fs::path(path).relative_path();
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (!ec && !fs::is_directory(file, ec)) {
        std::ofstream(file, std::ios::binary)
            .write(contents.data(), static_cast<std::streamsize>(contents.size()));
    }
}

// Writes the files of `text` under `root`: each "@@ PATH" line starts a file.
void write_tree(std::string_view text, const fs::path& root) {
    std::size_t files = 0;
    std::string_view path;
    std::size_t body = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto eol = text.find('\n', at);
        const auto next = eol == std::string_view::npos ? text.size() : eol + 1;
        if (text.substr(at).starts_with("@@ ")) {
            if (!path.empty()) {
                write_file(root, path, text.substr(body, at - body));
            }
            if (++files > 160) {
                return;
            }
            path =
                text.substr(at + 3, (eol == std::string_view::npos ? text.size() : eol) - at - 3);
            body = next;
        }
        at = next;
    }
    if (!path.empty()) {
        write_file(root, path, text.substr(std::min(body, text.size())));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ppsbench::sysinfo;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto& root = scratch();
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root, ec);
    write_tree(text, root);
    FingerprintOptions options;
    options.sysroot = root;
    options.snapshot = true;
    options.pulse_wait = std::chrono::milliseconds(0);
    options.sleep = [](std::chrono::milliseconds) {};
    const auto fingerprint = read_fingerprint(options);
    const auto verdicts = diagnose(fingerprint);
    (void)short_label(fingerprint);
    (void)to_string(timestamp_context(fingerprint));
    std::ostringstream out;
    write_doctor_text(out, fingerprint, verdicts);
    (void)doctor_json(fingerprint, verdicts).dump();
    return 0;
}
