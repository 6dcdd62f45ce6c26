// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>

#include "ppsbench/analysis/bias.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::analysis {

// reference_lateness and reference_bias without the files on disk: `file`'s pulses against
// `reference`'s, both already read (or captured in memory, as `ppsbench demo` does). The
// figures are those `report` gives the same two captures. `reference_source` names the
// reference in the result (Bias::reference).
Lateness lateness_against(const store::CaptureFile& file, const store::CaptureFile& reference,
                          const std::string& reference_source,
                          std::optional<core::Edge> edge = std::nullopt);
Bias bias_of(Lateness lateness, double confidence = 0.95);

}  // namespace ppsbench::analysis
