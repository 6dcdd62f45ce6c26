// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Private to the import module: how every reader takes its files, and the readers of the table
// in formats.cpp, one function per format.

#include <string>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/formats.hpp"
#include "ppsbench/import/input.hpp"

namespace ppsbench::import::detail {

// Opens each file in order (plain, gzip or `-`, once), refuses one that is another format by
// naming what it is, and hands it to `reader.read(stream, name)`. Data after a .gz's last member
// is one of the reader's skipped problems: a warning, and a refusal with --strict.
template <typename Reader>
void read_files(const std::vector<std::string>& files, FileKind kind, Reader& reader) {
    std::size_t stdin_uses = 0;
    for (const auto& path : files) {
        if (path == "-" && ++stdin_uses > 1) {
            throw core::UsageError("'-' (standard input) can be named only once");
        }
        Input input(path);
        require_kind(input.head(), kind, input.name());
        reader.read(input.stream(), input.name());
        if (const auto& trailing = input.trailing_data()) {
            reader.skipped().add(input.name(), trailing->line, trailing->to_string());
        }
    }
}

using Files = std::vector<std::string>;

Imported read_chrony_refclocks(const Files& files, const ImportOptions& options);
Imported read_chrony_tracking(const Files& files, const ImportOptions& options);
Imported read_chrony_statistics(const Files& files, const ImportOptions& options);
Imported read_ppstest(const Files& files, const ImportOptions& options);
Imported read_ppswatch(const Files& files, const ImportOptions& options);
Imported read_ntp_peerstats(const Files& files, const ImportOptions& options);
Imported read_ntp_loopstats(const Files& files, const ImportOptions& options);
Imported read_ts2phc(const Files& files, const ImportOptions& options);
Imported read_phc2sys(const Files& files, const ImportOptions& options);
Imported read_ntpshmmon(const Files& files, const ImportOptions& options);

}  // namespace ppsbench::import::detail
