// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/reference_file.hpp"

#include <fmt/format.h>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <system_error>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/capture_header.hpp"

namespace ppsbench::analysis {

namespace {

namespace fs = std::filesystem;

fs::path folder_of(const std::string& capture_path) {
    const fs::path folder = fs::path(capture_path).parent_path();
    return folder.empty() ? fs::path(".") : folder;
}

// One rotated part's name in its folder's index.
struct PartEntry {
    std::string run_id;
    std::int64_t seam = 0;  // the seam the part starts after, counted in intervals
    std::string path_letter;
    std::string file;
};

// Both paths rotate at the same seams, but each opens its next part at its first batch past the
// seam, and keeps its first file over a seam its first pulse came after: part numbers can differ
// between the paths, the seam a part starts after cannot.
std::int64_t seam_of(const store::RunMeta& meta) {
    // A first part starts with the run, not at a seam: the two paths' starts, stamped one after
    // the other, may fall on either side of one, so every first part sorts before every seam.
    if (meta.rotation->index == 0) {
        return std::numeric_limits<std::int64_t>::min();
    }
    const std::int64_t interval = meta.rotation->interval.count();
    return interval > 0 ? meta.start_realtime_ns / interval : 0;
}

// The rotated two-path parts in one folder, read once per folder (and again when its contents
// change): `report --join` over a thousand parts asks for a thousand partners, and reading every
// header beside each would be a million reads.
struct FolderIndex {
    fs::file_time_type modified;
    std::vector<PartEntry> parts;
};

std::vector<PartEntry> index_folder(const fs::path& folder) {
    std::vector<PartEntry> parts;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code entry;
        if (!it->is_regular_file(entry)) {
            continue;
        }
        const auto header = store::read_capture_header(it->path().string());
        if (header && header->meta.dual && header->meta.rotation &&
            !header->meta.rotation->run_id.empty()) {
            parts.push_back({header->meta.rotation->run_id, seam_of(header->meta),
                             header->meta.dual->path, it->path().string()});
        }
    }
    return parts;
}

// The other path's part of the same run open when this one began, among the files beside it.
std::optional<std::string> rotated_partner(const store::RunMeta& meta,
                                           const std::string& capture_path) {
    static std::mutex mutex;
    static std::map<std::string, FolderIndex> folders;
    const fs::path folder = folder_of(capture_path);
    std::error_code ec;
    const auto modified = fs::last_write_time(folder, ec);
    const std::string key = fs::absolute(folder, ec).lexically_normal().string();
    const std::lock_guard lock(mutex);
    auto found = folders.find(key);
    if (found == folders.end() || found->second.modified != modified) {
        found = folders.insert_or_assign(key, FolderIndex{modified, index_folder(folder)}).first;
    }
    // The other path's part that was open when this one began: the latest to start at or
    // before this part's seam.
    const std::int64_t mine = seam_of(meta);
    const PartEntry* partner = nullptr;
    for (const auto& part : found->second.parts) {
        if (part.run_id == meta.rotation->run_id && part.path_letter != meta.dual->path &&
            part.seam <= mine && (partner == nullptr || part.seam > partner->seam)) {
            partner = &part;
        }
    }
    if (partner != nullptr) {
        return partner->file;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> reference_file(const store::RunMeta& meta,
                                          const std::string& capture_path) {
    if (!meta.dual || !meta.dual->peer_is_reference) {
        return std::nullopt;
    }
    if (meta.rotation && !meta.rotation->run_id.empty()) {
        if (auto partner = rotated_partner(meta, capture_path)) {
            return partner;
        }
        throw core::InputError(fmt::format(
            "{}: its reference's part of run {} open at {} ({}, pattern {}) is not beside it in "
            "{}; keep both paths' parts of a rotated run in one folder",
            capture_path, meta.rotation->run_id,
            core::format_utc(meta.start_realtime_ns, core::UtcPrecision::seconds),
            meta.dual->peer_source, meta.dual->peer_file, folder_of(capture_path).string()));
    }
    return (folder_of(capture_path) / fs::path(meta.dual->peer_file).filename()).string();
}

std::optional<std::string> reference_file_of(const std::string& capture_path) {
    const auto header = store::read_capture_header(capture_path);
    if (!header) {
        return std::nullopt;
    }
    try {
        return reference_file(header->meta, capture_path);
    } catch (const core::Error&) {
        return std::nullopt;
    }
}

void check_reference_is_its_own(const store::CaptureFile& file,
                                const store::CaptureFile& reference) {
    const auto& mine = *file.run_meta.dual;
    const auto& theirs = reference.run_meta.dual;
    std::string why;
    if (!theirs) {
        why = "it is not a path of a two-source run";
    } else if (theirs->path == mine.path) {
        why = fmt::format("it is path {} too", mine.path);
    } else if (theirs->peer_source != file.run_meta.source) {
        why =
            fmt::format("its other path was {}, not {}", theirs->peer_source, file.run_meta.source);
    } else if (!theirs->run_id.empty() && !mine.run_id.empty() && theirs->run_id != mine.run_id) {
        why = fmt::format("it is of run {}, this path of run {}", theirs->run_id, mine.run_id);
    }
    if (!why.empty()) {
        throw core::InputError(fmt::format(
            "{}: {} beside it is not its reference ({}); give the path's file in the folder of "
            "its own run's files",
            file.path, reference.path, why));
    }
}

}  // namespace ppsbench::analysis
