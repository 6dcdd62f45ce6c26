// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The run metadata of a capture file made by `ppsbench import` (chrony's refclocks.log, ppstest
// output, ntpd's peerstats): one builder, so every importer's `# meta` line has the same shape.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::store {

// A 1 s realtime train that started at its first pulse (`start_ns`, shown to the second),
// `label`, and "FORMAT:file,file" as its source, FORMAT also its source kind. The caller adds
// its provenance as `import`.
RunMeta import_run_meta(std::string_view format, std::string label,
                        const std::vector<std::string>& files, core::EdgeSelection edges,
                        std::int64_t start_ns);

}  // namespace ppsbench::store
