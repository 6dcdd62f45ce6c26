// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// JSON forms of the fingerprint and of the doctor's answer. The fingerprint object is what
// capture files record under "system"; unknown values are null, never guessed.

#include <nlohmann/json.hpp>
#include <vector>

#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo {

// Under "schema", as every ppsbench JSON document names itself ("ppsbench.report/1"). The number
// is bumped when a field changes meaning or is removed (adding fields does not bump it).
// Fingerprints in older capture files carry "schema_version": 1 instead; nothing reads either.
inline constexpr const char* kFingerprintSchema = "ppsbench.fingerprint/1";
inline constexpr const char* kDoctorSchema = "ppsbench.doctor/1";

nlohmann::json to_json(const SystemFingerprint& fingerprint);
nlohmann::json to_json(const Verdict& verdict);

// {"schema", "label", "timestamp_context", "system": <fingerprint>, "verdicts": [...],
//  "summary": {"ok", "warn", "fail"}}: what `ppsbench doctor --format json` prints.
nlohmann::json doctor_json(const SystemFingerprint& fingerprint,
                           const std::vector<Verdict>& verdicts);

}  // namespace ppsbench::sysinfo
