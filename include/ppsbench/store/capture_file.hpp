// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::store {

// The capture file format (docs/capture-file.md):
//
//   # ppsbench capture 1
//   # meta {"format":"ppsbench.capture/1","label":"stock",...}
//   sequence,edge,timestamp_ns
//   1,assert,1767225600000001234
//   # chrony {...}            <- notes may appear between pulse lines
//   # end {"stop_reason":"count",...}
//
// Comment lines start with '#', so pandas (comment='#'), gnuplot and spreadsheets read the
// pulses directly.
inline constexpr std::string_view magic_line = "# ppsbench capture 1";
inline constexpr std::string_view format_name = "ppsbench.capture/1";
inline constexpr std::string_view column_header = "sequence,edge,timestamp_ns";
// A file may declare extra integer columns after the three fixed ones
// (`sequence,edge,timestamp_ns,drive_ns,wake_ns`); every pulse line then carries one integer per
// extra column. Readers that do not know a column ignore it.
inline constexpr std::size_t max_extra_columns = 8;

// A `# TAG {json}` line other than meta: chrony samples, the end-of-run record.
struct Note {
    std::string tag;
    nlohmann::json body;
    std::size_t after_pulses = 0;  // how many pulses preceded it in the file
};

struct CaptureFile {
    std::string path;
    // The `# meta` line as written (for showing it, and for keys this version does not know),
    // and the same read into its type once, by the reader: code decides on `run_meta`.
    nlohmann::json meta = nlohmann::json::object();
    RunMeta run_meta = run_meta_from_json(nlohmann::json::object());
    std::vector<core::Pulse> pulses;
    // Names of the columns after timestamp_ns (empty for a plain capture), and their values,
    // row-major: extra_values[i * extra_columns.size() + c] belongs to pulses[i].
    std::vector<std::string> extra_columns;
    std::vector<std::int64_t> extra_values;
    std::vector<Note> notes;
    // Problems tolerated while reading (a torn last line), for the report to show once.
    std::vector<std::string> warnings;
    // Set when a run still holds the file's writer lock as it is read: who ("pid 4711 (ppsbench
    // run ...)"). The pulses are those complete so far; no end record is expected yet.
    std::optional<std::string> writer;
    // The rotated parts `--join` read into this one capture (1 for a file read alone); `path`
    // then names the first and last, not one file.
    std::size_t joined_parts = 1;

    // Sets both forms of the metadata, for a file built in memory (the demo).
    void set_meta(RunMeta typed);
    // The `end` note, or null when the run did not finish cleanly (crash, power cut).
    const nlohmann::json* end_record() const;
    // The same, typed; nullopt when there is none.
    std::optional<EndRecord> end() const;
    bool simulated() const;
    std::string label() const;
    // The index of an extra column by name, if the file has it.
    std::optional<std::size_t> extra_column(std::string_view name) const;
    // The value of extra column `column` for pulse `index`.
    std::int64_t extra(std::size_t index, std::size_t column) const {
        return extra_values[index * extra_columns.size() + column];
    }
};

}  // namespace ppsbench::store
