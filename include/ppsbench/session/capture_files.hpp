// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/pulse_sink.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::session {

// Where `ppsbench run` writes: one capture file, or with --rotate a new file every interval.
// Pulses (capture thread) and notes (chrony thread) go to the current file under one lock.
// A seam is crossed between two batches of pulses, so every pulse lands in exactly one file
// and the sequence numbers run on from one file to the next: nothing is lost at a seam. The
// old file's end note and fdatasync happen on a helper thread, so the capture thread is back in
// the kernel's wait well before the next edge even on slow storage.
class CaptureFiles final : public core::PulseSink {
  public:
    // `path`: the file, or with `rotate` a strftime pattern (UTC) expanded at each file's start.
    // Seams fall on multiples of `rotate` since the Unix epoch (1d: midnight UTC), so the files
    // of several servers line up. Each rotated file carries `meta` with its own start time and
    // its store::Rotation (the run's id, the part's index, interval, previous file). Every file
    // is locked while it is written (store::CaptureWriter): a second run cannot replace it.
    // `extra_columns`: per-pulse integer columns after timestamp_ns in every file (a two-path
    // run's time base or a source's own); pulses then go through write_rows().
    CaptureFiles(std::string path, store::RunMeta meta, bool overwrite,
                 std::optional<core::Duration> rotate, std::vector<std::string> extra_columns = {});
    ~CaptureFiles() override;
    CaptureFiles(const CaptureFiles&) = delete;
    CaptureFiles& operator=(const CaptureFiles&) = delete;

    void write(std::span<const core::Pulse> pulses) override;
    // Pulses with their extra values, row-major, as store::CaptureWriter::write_rows.
    void write_rows(std::span<const core::Pulse> pulses, std::span<const std::int64_t> extras);
    void write_note(std::string_view tag, const nlohmann::json& body);
    // Writes `end` (the run's counts) to the current file and closes every file (syncs). Throws
    // what closing threw.
    void finish(store::EndRecord end);
    // Closes without an end note (a run that got no pulse). Idempotent.
    void close();

    // The file being written now (the last one after finish()).
    const std::string& current_path() const { return paths_.back(); }
    // Every file of the run, in order.
    const std::vector<std::string>& paths() const { return paths_; }
    std::uint64_t pulses_written() const;

  private:
    void cross_seam_locked(std::span<const core::Pulse> pulses);
    void rotate_locked(std::int64_t now_ns);
    void join_closer();

    store::RunMeta meta_;
    bool overwrite_;
    std::optional<core::Duration> rotate_;
    std::vector<std::string> extra_columns_;
    std::string pattern_;
    std::string run_id_;  // with --rotate: in every file's store::Rotation
    std::int64_t next_seam_ns_ = INT64_MAX;
    std::uint64_t pulses_before_ = 0;  // in files already closed
    std::vector<std::string> paths_;
    std::unique_ptr<store::CaptureWriter> writer_;
    std::thread closer_;
    std::string closer_error_;
    mutable std::mutex mutex_;
};

// A new --rotate run id: 128 random bits as 32 hex digits. A two-path run gives both paths' files
// the same one (pass it in meta.rotation.run_id), so the parts of the pair can be found together.
std::string new_rotation_run_id();

// The name of a rotated file starting at `realtime_ns`: `pattern` through strftime in UTC.
std::string rotated_file_name(const std::string& pattern, std::int64_t realtime_ns);

// Checks a --rotate pattern: it must contain a conversion, and two consecutive files must get
// different names (a pattern of days with --rotate 1h would overwrite). Throws
// core::UsageError naming the option and the fix.
void check_rotation_pattern(const std::string& pattern, core::Duration interval);

}  // namespace ppsbench::session
