// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/joined_capture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/capture_header.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"
#include "store/capture_parser.hpp"
#include "store/capture_reading.hpp"

namespace ppsbench::store {
namespace {

// A part as its `# meta` line names it, before its pulses are read.
struct Part {
    std::string path;
    Rotation rotation;
    std::size_t body_bytes = 0;  // the file's bytes after its `# meta` line, to size the pulses
    std::string source;          // the path's source: both paths of a two-path run share the id
};

// The header without the pulses; a file without one is read whole, so its error is the
// reader's.
std::pair<RunMeta, std::size_t> header_meta(const std::string& path) {
    if (auto header = read_capture_header(path)) {
        return {std::move(header->meta), header->body_bytes};
    }
    return {read_packed_capture(path).file.run_meta, 0};
}

Part read_part_header(const std::string& path) {
    const auto [meta, body_bytes] = header_meta(path);
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
    return {path, *meta.rotation, body_bytes, meta.source};
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
        if (b.source != a.source) {
            throw core::InputError(fmt::format(
                "--join: {} ({}) and {} ({}) are parts of the two paths of run {}; join one "
                "path's parts at a time",
                a.path, a.source, b.path, b.source, a.rotation.run_id));
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

// The parts joined so far, and what sizes the pulses' array once for all of them.
struct Joined {
    PackedCapture capture;
    std::size_t body_bytes_left = 0;  // of the parts not yet joined
    bool sized = false;
};

// Room for the pulses of every part at the rate of those joined so far (pulses a byte of body),
// with a sixteenth to spare (later sequence numbers are longer, so the rate errs high), once:
// the array then never moves, and no more than one part's pulses is held twice.
void size_pulses(Joined& joined, std::size_t pulses, std::size_t body_bytes) {
    joined.body_bytes_left -= std::min(joined.body_bytes_left, body_bytes);
    if (joined.sized || pulses == 0) {
        return;
    }
    joined.sized = true;
    const double per_byte =
        static_cast<double>(pulses) / static_cast<double>(std::max<std::size_t>(body_bytes, 1));
    // No pulse line is shorter than 10 bytes ("0,clear,0\n").
    const double rest = std::min(per_byte * static_cast<double>(joined.body_bytes_left) * 17 / 16,
                                 static_cast<double>(joined.body_bytes_left / 10));
    joined.capture.pulses.reserve(joined.capture.pulses.size() + pulses +
                                  static_cast<std::size_t>(rest));
}

// Appends `part`, read from parts[i], to `joined`: the pulses must come after those so far, the
// columns be the same.
void append(Joined& joined, PackedCapture part, const std::vector<Part>& parts, std::size_t i) {
    CaptureFile& into = joined.capture.file;
    core::PackedPulses& pulses = joined.capture.pulses;
    CaptureFile& file = part.file;
    const Part* const previous = i == 0 ? nullptr : &parts[i - 1];
    const bool last = i + 1 == parts.size();
    if (previous == nullptr) {
        into.meta = file.meta;
        into.run_meta = file.run_meta;
        into.extra_columns = file.extra_columns;
    }
    if (previous != nullptr && file.extra_columns != into.extra_columns) {
        throw core::InputError(
            fmt::format("--join: {} and {} have different columns; they are not one capture",
                        previous->path, file.path));
    }
    const std::size_t before = pulses.size();
    if (previous != nullptr && before != 0 && !part.pulses.empty() &&
        part.pulses.timestamp_ns(0) <= pulses.timestamp_ns(before - 1)) {
        throw core::InputError(fmt::format(
            "--join: {} (part {}, pulses to {}) and {} (part {}, from {}) overlap in time; they "
            "are not consecutive parts of one capture",
            previous->path, previous->rotation.index, utc(pulses.timestamp_ns(before - 1)),
            file.path, parts[i].rotation.index, utc(part.pulses.timestamp_ns(0))));
    }
    for (auto& note : file.notes) {
        if (note.tag == "end" && !last) {
            continue;  // a seam's end record: the last part's holds the run's counts
        }
        note.after_pulses += before;
        into.notes.push_back(std::move(note));
    }
    if (!last && file.end_record() == nullptr) {
        into.warnings.push_back(fmt::format(
            "{}: part {} has no end record: the run may have stopped there and started again",
            file.path, parts[i].rotation.index));
    }
    size_pulses(joined, part.pulses.size(), parts[i].body_bytes);
    pulses.append(part.pulses);
    into.extra_values.insert(into.extra_values.end(), file.extra_values.begin(),
                             file.extra_values.end());
    std::move(file.warnings.begin(), file.warnings.end(), std::back_inserter(into.warnings));
    if (last) {
        into.writer = file.writer;
    }
}

// A part as read_packed_capture reads it; on the calling thread only when another reads the
// next part meanwhile.
PackedCapture read_part(const std::string& path, bool two_threads) {
    PackedCapture part;
    part.file.path = path;
    detail::ParseOptions options;
    options.two_threads = two_threads;
    detail::CaptureParser parser(part.file, &part.pulses, options);
    detail::read_capture_into(part.file, parser);
    return part;
}

// What the two readers share. Parts are taken in order (`next`) and joined in order (`turn`:
// the part whose joining is due); the reader whose turn it is owns `joined`. An error (a part
// that cannot be read or joined) stops the parts after it, so the first in part order is the
// one reported, as when they are read one after another.
struct JoinWork {
    JoinWork(const std::vector<Part>& p, bool two) : parts(p), two_readers(two) {}
    const std::vector<Part>& parts;
    const bool two_readers;
    Joined joined;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> turn{0};
    std::atomic<bool> stopped{false};
    std::exception_ptr error;
};

void take_parts(JoinWork& work) noexcept {
    for (;;) {
        const std::size_t k = work.next.fetch_add(1, std::memory_order_relaxed);
        if (k >= work.parts.size()) {
            return;
        }
        std::optional<PackedCapture> part;
        std::exception_ptr failed;
        if (!work.stopped.load(std::memory_order_relaxed)) {
            try {
                part = read_part(work.parts[k].path, !work.two_readers);
            } catch (...) {
                failed = std::current_exception();
            }
        }
        for (std::size_t t = work.turn.load(std::memory_order_acquire); t != k;
             t = work.turn.load(std::memory_order_acquire)) {
            work.turn.wait(t, std::memory_order_acquire);
        }
        if (!work.stopped.load(std::memory_order_relaxed)) {
            try {
                if (failed) {
                    std::rethrow_exception(failed);
                }
                append(work.joined, std::move(*part), work.parts, k);
            } catch (...) {
                work.error = std::current_exception();
                work.stopped.store(true, std::memory_order_relaxed);
            }
        }
        part.reset();  // not held while the next part is read
        work.turn.store(k + 1, std::memory_order_release);
        work.turn.notify_all();
    }
}

}  // namespace

PackedCapture read_joined_capture(const std::vector<std::string>& paths) {
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

    // Two parts read at once, each on one thread (a day is 3 MB, below what pays for two threads
    // in one file), joined in order; a lone part is read as report reads a file.
    JoinWork work(parts, parts.size() > 1 && std::thread::hardware_concurrency() != 1);
    for (const Part& part : parts) {
        work.joined.body_bytes_left += part.body_bytes;
    }
    std::thread helper;
    if (work.two_readers) {
        try {
            helper = std::thread([&work] { take_parts(work); });
        } catch (const std::system_error&) {
            // No second thread to be had: this one takes every part.
        }
    }
    take_parts(work);
    if (helper.joinable()) {
        helper.join();
    }
    if (work.error) {
        std::rethrow_exception(work.error);
    }
    PackedCapture joined = std::move(work.joined.capture);
    joined.file.joined_parts = parts.size();
    joined.file.path = parts.size() == 1 ? parts.front().path
                                         : fmt::format("{} … {} ({} parts)", parts.front().path,
                                                       parts.back().path, parts.size());
    return joined;
}

}  // namespace ppsbench::store
