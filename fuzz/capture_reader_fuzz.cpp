// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer harness: the capture-file parser, its chrony notes, then the analysis of whatever it
// accepted. A capture is either read (and analysed without a crash) or refused with
// core::InputError naming FILE:LINE; nothing else may escape, and no sanitizer may report. The
// reader's fast paths must read what its general rules alone read, in memory and from a file on
// two threads in blocks of a few bytes: the same pulses, notes, warnings and error.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/chrony/json.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "store/capture_parser.hpp"
#include "store/capture_reading.hpp"

namespace {

using namespace ppsbench;

// What a reading gave, as one string: everything in it, or its error.
std::string outcome(const store::CaptureFile& file, const std::vector<core::Pulse>& pulses) {
    std::string out;
    for (const core::Pulse& p : pulses) {
        out += std::to_string(p.sequence) + ' ' + std::to_string(p.timestamp_ns) + ' ' +
               std::string(core::to_string(p.edge)) + '\n';
    }
    for (const store::Note& note : file.notes) {
        out += note.tag + ' ' + note.body.dump() + " @" + std::to_string(note.after_pulses) + '\n';
    }
    for (const std::string& warning : file.warnings) {
        out += warning + '\n';
    }
    for (const std::int64_t value : file.extra_values) {
        out += std::to_string(value) + ',';
    }
    return out + file.meta.dump();
}

template <typename Read>
std::string reading(Read read) {
    store::CaptureFile file;
    file.path = "fuzz.csv";
    try {
        return outcome(file, read(file));
    } catch (const core::InputError& e) {
        return std::string("error ") + e.what();
    }
}

// The text through the general rules alone, in memory.
std::string general_reading(std::string_view text) {
    return reading([&](store::CaptureFile& file) {
        store::detail::ParseOptions options;
        options.fast_path = false;
        store::detail::CaptureParser parser(file, nullptr, options);
        parser.finish(parser.feed(text));
        return file.pulses;
    });
}

// The text as a file (named fuzz.csv in messages), read on two threads into packed pulses in
// blocks of `block` bytes.
std::string two_thread_reading(std::string_view text, std::size_t block) {
    const int fd = memfd_create("fuzz.csv", MFD_CLOEXEC);
    if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
        __builtin_trap();
    }
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    std::string out = reading([&](store::CaptureFile& file) {
        file.path = path;
        store::detail::ParseOptions options;
        options.block_bytes = block;
        options.two_thread_bytes = 0;
        core::PackedPulses packed;
        store::detail::CaptureParser parser(file, &packed, options);
        store::detail::read_capture_into(file, parser);
        return packed.unpack();
    });
    ::close(fd);
    for (std::size_t at = out.find(path); at != std::string::npos; at = out.find(path, at)) {
        out.replace(at, path.size(), "fuzz.csv");
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string fast = reading([&](store::CaptureFile& file) {
        file = store::parse_capture_text(text, file.path);
        return file.pulses;
    });
    if (fast != general_reading(text) || fast != two_thread_reading(text, 1 + size % 61)) {
        __builtin_trap();
    }
    try {
        const auto file = store::parse_capture_text(text, "fuzz.csv");
        // The chrony samples noted during the run, as report reads them (one it cannot read is
        // left out with a warning, so any exception is tolerated here, but no sanitizer report).
        std::vector<chrony::ChronySample> samples;
        for (const auto& note : file.notes) {
            try {
                if (note.tag == "chrony") {
                    samples.push_back(note.body.get<chrony::ChronySample>());
                }
            } catch (const std::exception&) {
            }
        }
        if (!samples.empty()) {
            (void)chrony::summarize(samples);
        }
        // The packed pulses the analysis reads (sequence numbers as runs, or per pulse) give
        // back exactly what was parsed, whatever the numbers.
        const core::PackedPulses packed(file.pulses);
        if (packed.unpack() != file.pulses) {
            __builtin_trap();
        }
        stats::AnalysisOptions options;
        options.compute_stability = file.pulses.size() < 4096;  // keep each run fast
        (void)stats::analyze(file.pulses, options);
    } catch (const core::Error&) {
    }
    return 0;
}
