// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <ostream>
#include <vector>

#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo {

// The human form of `ppsbench doctor`: the fingerprint as aligned "key: value" lines, then one
// "[ OK ]/[WARN]/[FAIL] check: message" block per verdict with its fix, then a summary line.
void write_doctor_text(std::ostream& out, const SystemFingerprint& fingerprint,
                       const std::vector<Verdict>& verdicts);

}  // namespace ppsbench::sysinfo
