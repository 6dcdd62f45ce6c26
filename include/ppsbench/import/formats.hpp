// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The formats `ppsbench import` reads, as one table: one row per format with its name, what it
// reads, the kind of file it recognises (file_kind.hpp), its reader and the options it takes.
// The command's usage, help, errors, did-you-mean and the shell completion (through --help) all
// come from this table; docs/architecture.md has the recipe for adding a row.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/import/capture_import.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/series_import.hpp"

namespace ppsbench::import {

// Every format's options as given on the command line; each format reads only its own (the
// row's `options`), and the command refuses the others by name.
struct ImportOptions {
    std::string refid;           // chrony-refclocks
    std::string offset = "raw";  // chrony-refclocks: raw or cooked
    int logbanner = 0;           // chrony-tracking; 0: not given
    std::string peer;            // ntp-peerstats
    std::string clock;           // ts2phc: the PHC (/dev/ptpN or interface) to import
    std::string unit;            // ntpshmmon: the SHM segment (NTP1, NTP3, ...)
    std::string edge;            // ppswatch: assert or clear; empty: ppswatch's default (clear)
    // ntp-peerstats: ntpd's loopstats of the same time, to cross-check the offsets.
    std::vector<std::string> loopstats;
    bool strict = false;
};

// What a reader hands back: a capture (pulses, for `report`), refclocks.log's capture (its own
// account of samples), or a series written as CSV.
using Imported = std::variant<CaptureImport, chrony::RefclocksImport, SeriesImport>;

// What a format writes: a capture file (-o required) or CSV (-o optional: standard output).
enum class ImportOutput : std::uint8_t { capture, csv };

struct ImportFormat {
    std::string_view name;   // "chrony-refclocks"
    std::string_view reads;  // "chrony's refclocks.log"
    ImportOutput output;
    std::string_view writes;                    // "a capture file (one pulse per PPS sample)"
    std::string_view usage;                     // "LOG... [--refid PPS] -o FILE"
    FileKind kind;                              // what identify() calls its files
    std::span<const std::string_view> options;  // long names, without "--"
    // Reads the files in order (`-` is standard input, once), refusing a file that is another
    // format, naming it. Throws core::InputError / core::UsageError.
    Imported (*read)(const std::vector<std::string>& files, const ImportOptions& options);
};

std::span<const ImportFormat> import_formats();

// The row named `name`, or nullptr.
const ImportFormat* find_import_format(std::string_view name);

// The row whose files are of `kind`, or nullptr.
const ImportFormat* format_reading(FileKind kind);

// Every option some format takes ("refid", "offset", ...), each once, in table order.
std::vector<std::string_view> format_options();

// The formats that take `option`, as "chrony-refclocks" or "a, b".
std::string formats_taking(std::string_view option);

}  // namespace ppsbench::import
