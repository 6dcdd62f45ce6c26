// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/joined_capture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string_view>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::store {
namespace {

// A part as its `# meta` line names it, before its pulses are read.
struct Part {
    std::string path;
    Rotation rotation;
};

// The run metadata from the lines before the column header, without reading the pulses (a day
// of them is 3 MB); a file without those lines is read whole, so its error is the reader's.
RunMeta header_meta(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    for (int n = 0; n < 64 && std::getline(in, line); ++n) {
        std::string_view text(line);
        if (n == 0 && text.starts_with("\xEF\xBB\xBF")) {
            text.remove_prefix(3);
        }
        if (text.starts_with("# meta {")) {
            auto json = nlohmann::json::parse(text.substr(7), nullptr, false);
            if (json.is_object()) {
                return run_meta_from_json(json);
            }
            break;
        }
        if (!text.starts_with("#")) {
            break;
        }
    }
    return read_capture_file(path).run_meta;
}

Part read_part_header(const std::string& path) {
    const auto meta = header_meta(path);
    if (!meta.rotation) {
        throw core::InputError(fmt::format(
            "--join: {} is not a part of a 'run --rotate' run (no rotation in its metadata); "
            "report it on its own",
            path));
    }
    if (meta.rotation->run_id.empty()) {
        throw core::InputError(fmt::format(
            "--join: {} was written before rotated files carried a run id, so its run's parts "
            "cannot be told from another run's; report each file on its own",
            path));
    }
    return {path, *meta.rotation};
}

std::string utc(std::int64_t ns) {
    return core::format_utc(ns, core::UtcPrecision::nanoseconds);
}

// Parts sorted by number: one run, each number once, no number missing.
void check_chain(const std::vector<Part>& parts) {
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const auto& a = parts[i - 1];
        const auto& b = parts[i];
        if (b.rotation.run_id != a.rotation.run_id) {
            throw core::InputError(fmt::format(
                "--join: {} (run {}) and {} (run {}) are parts of two runs; join the files of "
                "one run",
                a.path, a.rotation.run_id, b.path, b.rotation.run_id));
        }
        if (b.rotation.index == a.rotation.index) {
            throw core::InputError(
                fmt::format("--join: {} and {} are both part {} of run {}; give each part once",
                            a.path, b.path, a.rotation.index, a.rotation.run_id));
        }
        if (b.rotation.index != a.rotation.index + 1) {
            const bool one = b.rotation.index == a.rotation.index + 2;
            throw core::InputError(fmt::format(
                "--join: part{} {} of run {} {} missing between {} (part {}) and {} (part {}); "
                "give every part of the span",
                one ? "" : "s",
                one ? std::to_string(a.rotation.index + 1)
                    : fmt::format("{}-{}", a.rotation.index + 1, b.rotation.index - 1),
                a.rotation.run_id, one ? "is" : "are", a.path, a.rotation.index, b.path,
                b.rotation.index));
        }
    }
}

// Appends the part read as `file` to `joined`: the pulses must come after those so far, the
// columns be the same.
void append(CaptureFile& joined, CaptureFile file, const Part& part, const Part* previous,
            bool last) {
    if (previous != nullptr && file.extra_columns != joined.extra_columns) {
        throw core::InputError(
            fmt::format("--join: {} and {} have different columns; they are not one capture",
                        previous->path, file.path));
    }
    if (previous != nullptr && !joined.pulses.empty() && !file.pulses.empty() &&
        file.pulses.front().timestamp_ns <= joined.pulses.back().timestamp_ns) {
        throw core::InputError(fmt::format(
            "--join: {} (part {}, pulses to {}) and {} (part {}, from {}) overlap in time; they "
            "are not consecutive parts of one capture",
            previous->path, previous->rotation.index, utc(joined.pulses.back().timestamp_ns),
            file.path, part.rotation.index, utc(file.pulses.front().timestamp_ns)));
    }
    const std::size_t before = joined.pulses.size();
    for (auto& note : file.notes) {
        if (note.tag == "end" && !last) {
            continue;  // a seam's end record: the last part's holds the run's counts
        }
        note.after_pulses += before;
        joined.notes.push_back(std::move(note));
    }
    if (!last && file.end_record() == nullptr) {
        joined.warnings.push_back(fmt::format(
            "{}: part {} has no end record: the run may have stopped there and started again",
            file.path, part.rotation.index));
    }
    joined.pulses.insert(joined.pulses.end(), file.pulses.begin(), file.pulses.end());
    joined.extra_values.insert(joined.extra_values.end(), file.extra_values.begin(),
                               file.extra_values.end());
    std::move(file.warnings.begin(), file.warnings.end(), std::back_inserter(joined.warnings));
    if (last) {
        joined.writer = file.writer;
    }
}

}  // namespace

CaptureFile read_joined_capture(const std::vector<std::string>& paths) {
    if (paths.empty()) {
        throw core::UsageError("--join: name the files of one 'run --rotate' run");
    }
    std::vector<Part> parts;
    parts.reserve(paths.size());
    for (const auto& path : paths) {
        parts.push_back(read_part_header(path));
    }
    std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) {
        return a.rotation.run_id != b.rotation.run_id ? a.rotation.run_id < b.rotation.run_id
                                                      : a.rotation.index < b.rotation.index;
    });
    check_chain(parts);

    // One part's text and pulses at a time besides the joined pulses.
    CaptureFile joined;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        CaptureFile file = read_capture_file(parts[i].path);
        if (i == 0) {
            joined.meta = file.meta;
            joined.run_meta = file.run_meta;
            joined.extra_columns = file.extra_columns;
        }
        append(joined, std::move(file), parts[i], i == 0 ? nullptr : &parts[i - 1],
               i + 1 == parts.size());
    }
    joined.path = parts.size() == 1 ? parts.front().path
                                    : fmt::format("{} … {} ({} parts)", parts.front().path,
                                                  parts.back().path, parts.size());
    return joined;
}

}  // namespace ppsbench::store
