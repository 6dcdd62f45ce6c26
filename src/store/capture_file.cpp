// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::store {

const nlohmann::json* CaptureFile::end_record() const {
    for (auto it = notes.rbegin(); it != notes.rend(); ++it) {
        if (it->tag == "end") {
            return &it->body;
        }
    }
    return nullptr;
}

void CaptureFile::set_meta(RunMeta typed) {
    meta = to_json(typed);
    run_meta = std::move(typed);
}

std::optional<EndRecord> CaptureFile::end() const {
    const nlohmann::json* record = end_record();
    if (record == nullptr) {
        return std::nullopt;
    }
    return end_record_from_json(*record);
}

bool CaptureFile::simulated() const {
    return run_meta.simulated;
}

std::string CaptureFile::label() const {
    return run_meta.label;
}

std::optional<std::size_t> CaptureFile::extra_column(std::string_view name) const {
    for (std::size_t i = 0; i < extra_columns.size(); ++i) {
        if (extra_columns[i] == name) {
            return i;
        }
    }
    return std::nullopt;
}

}  // namespace ppsbench::store
