// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: `ppsbench import` as a user runs it on a file of any kind: the input layer
// (plain or gzip, detected by content), format recognition on the file's head, then the ppstest
// and ntp peerstats importers. Every input must give an import or core::InputError naming the
// file; nothing else may escape, and no sanitizer may report.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include "ppsbench/core/error.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/input.hpp"
#include "ppsbench/import/ntp_peerstats.hpp"
#include "ppsbench/import/ppstest.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ppsbench::import;

// The text the importers see: through Input (gzip decompression) when the input is gzip, as
// Input reads every file; plain text needs no file round trip.
std::string decoded(std::string_view bytes) {
    if (!bytes.starts_with("\x1f\x8b")) {
        return std::string(bytes);
    }
    static const fs::path path = [] {
        const char* tmp = std::getenv("TMPDIR");
        return fs::path(tmp != nullptr ? tmp : "/tmp") /
               ("ppsbench-import-fuzz-" + std::to_string(getpid()) + ".gz");
    }();
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    Input input(path.string());
    (void)identify(input.head());
    return {std::istreambuf_iterator<char>(input.stream()), std::istreambuf_iterator<char>()};
}

void check(const CaptureImport& result) {
    for (std::size_t i = 1; i < result.pulses.size(); ++i) {
        if (result.pulses[i].timestamp_ns < result.pulses[i - 1].timestamp_ns) {
            __builtin_trap();  // documented: in time order
        }
    }
    (void)result.metadata.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text;
    try {
        text = decoded(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const ppsbench::core::InputError&) {
        return 0;  // a corrupt or truncated gzip stream, named
    }
    const std::string_view head = std::string_view(text).substr(0, Input::head_size);
    const auto kind = identify(head);
    (void)describe(kind);
    (void)import_format(kind);
    for (const auto expected : {FileKind::ppstest, FileKind::ntp_peerstats,
                                FileKind::chrony_tracking, FileKind::chrony_refclocks}) {
        try {
            require_kind(head, expected, "fuzz.txt");
        } catch (const ppsbench::core::InputError&) {
        }
    }
    for (const bool strict : {false, true}) {
        try {
            std::istringstream in(text);
            check(import_ppstest(in, "fuzz.txt", PpstestImportOptions{.strict = strict}));
        } catch (const ppsbench::core::InputError&) {
        }
        try {
            std::istringstream in(text);
            check(import_ntp_peerstats(in, "fuzz.txt",
                                       PeerstatsImportOptions{.peer = "", .strict = strict}));
        } catch (const ppsbench::core::InputError&) {
        }
    }
    return 0;
}
