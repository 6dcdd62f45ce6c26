// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: chronyd's tracking.log and refclocks.log readers (`ppsbench import
// chrony-tracking|chrony-refclocks`). The input is read by both readers as rotated logs: a NUL
// byte starts the next file. Every input must give an import or core::InputError (strict mode,
// or no PPS refclock); nothing else may escape, and no sanitizer may report.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"

namespace {

std::vector<std::string> split_files(std::string_view text) {
    std::vector<std::string> files;
    std::size_t start = 0;
    for (std::size_t nul = text.find('\0'); nul != std::string_view::npos;
         nul = text.find('\0', start)) {
        files.emplace_back(text.substr(start, nul - start));
        start = nul + 1;
    }
    files.emplace_back(text.substr(start));
    return files;
}

template <typename Reader>
void read_all(Reader& reader, const std::vector<std::string>& files) {
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::istringstream in(files[i]);
        reader.read(in, "fuzz.log." + std::to_string(i));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ppsbench::chrony;
    const auto files = split_files(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const bool strict : {false, true}) {
        try {
            TrackingLogReader reader(TrackingImportOptions{.strict = strict, .logbanner = {}});
            read_all(reader, files);
            const auto log = reader.finish();
            if (log.problems.size() > max_kept_problems ||
                log.problems.size() > log.problem_count) {
                __builtin_trap();  // the documented cap on kept problems
            }
        } catch (const ppsbench::core::InputError&) {
        }
        try {
            RefclocksLogReader reader(RefclocksImportOptions{.refid = "", .strict = strict});
            read_all(reader, files);
            const auto log = reader.finish();
            (void)log.metadata.dump();
        } catch (const ppsbench::core::InputError&) {
        }
    }
    return 0;
}
