// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <concepts>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/core/pulse_sink.hpp"
#include "ppsbench/core/unique_fd.hpp"
#include "ppsbench/store/capture_file.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::store {

// Writes a capture file as pulses arrive. Each write() goes to the kernel with one write(2)
// before it returns, so a crash or Ctrl-C loses nothing that was handed over; close() also
// fdatasyncs, for power cuts. Formatting uses a fixed buffer: no allocation per pulse.
// When the disk fills, the file is cut back to its last complete line and core::MeasurementError
// says how many pulses are safe.
class CaptureWriter final : public core::PulseSink {
  public:
    // Creates `path` with the run's metadata. An existing file is an error unless `overwrite`
    // (--force). Extra integer columns after timestamp_ns (at most max_extra_columns) make
    // pulses go through write_rows(), which takes their values.
    // (A template only so that a braced `{}` or `{{"label", "x"}}` always means JSON.)
    template <std::same_as<RunMeta> Meta>
    CaptureWriter(std::string path, const Meta& meta, bool overwrite,
                  const std::vector<std::string>& extra_columns = {})
        : CaptureWriter(std::move(path), to_json(meta), overwrite, extra_columns) {}
    // The same with metadata given as JSON as it is: for hand-made files (tests, benches).
    CaptureWriter(std::string path, const nlohmann::json& meta, bool overwrite);
    // The same, declaring extra integer columns after timestamp_ns (at most max_extra_columns):
    // pulses then go through write_rows(), which takes their values.
    CaptureWriter(std::string path, const nlohmann::json& meta, bool overwrite,
                  const std::vector<std::string>& extra_columns);
    ~CaptureWriter() override;
    CaptureWriter(const CaptureWriter&) = delete;
    CaptureWriter& operator=(const CaptureWriter&) = delete;

    // Plain pulses; a writer with extra columns rejects these (std::logic_error): its rows need
    // their extra values.
    void write(std::span<const core::Pulse> pulses) override;
    // Pulses with their extra values, row-major (extras.size() == pulses.size() * columns).
    void write_rows(std::span<const core::Pulse> pulses, std::span<const std::int64_t> extras);
    // A `# TAG {json}` line: chrony samples during the run.
    void write_note(std::string_view tag, const nlohmann::json& body);
    // The `# end` line: how the run finished.
    void write_end(const EndRecord& end);
    // Syncs and closes; throws if the data could not be made durable. Idempotent.
    void close();

    const std::string& path() const { return path_; }
    std::uint64_t pulses_written() const { return pulses_written_; }

  private:
    void write_bytes(std::string_view bytes);

    std::string path_;
    std::size_t extra_columns_ = 0;
    core::UniqueFd fd_;
    std::uint64_t pulses_written_ = 0;
    std::uint64_t bytes_written_ = 0;  // every complete line so far
    // 64 pulses of at most 20 + 1 + 6 + 1 + 20 + 1 characters, plus 21 per extra column.
    std::array<char, 64 * (64 + 21 * max_extra_columns)> buffer_{};
};

}  // namespace ppsbench::store
