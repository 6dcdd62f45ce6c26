// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/file_plan.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <filesystem>
#include <fstream>
#include <optional>

#include "ppsbench/core/error.hpp"

namespace ppsbench::core {

namespace {

namespace fs = std::filesystem;

std::optional<FileIdentity> stat_identity(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return std::nullopt;
    }
    return FileIdentity{
        static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino), {}};
}

// The first bytes of an existing file, enough to recognise ppsbench's own state files.
std::string file_head(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(256, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head;
}

std::string_view state_marker(OutputKind kind) {
    return kind == OutputKind::junit_state ? "<testsuites name=\"ppsbench\"" : "# HELP ppsbench_";
}

// An existing output that may not be replaced: a record without --force, a state file that
// is not ppsbench's own without --force.
void check_replaceable(const FilePlan::Output& output, bool force) {
    struct stat st {};
    if (force || ::stat(output.path.c_str(), &st) != 0) {
        return;
    }
    if (output.kind == OutputKind::record) {
        throw UsageError(
            fmt::format("{} {}: the file exists; pass --force to overwrite it or choose another",
                        output.use, output.path));
    }
    const std::string head = file_head(output.path);
    if (!head.empty() && !written_by_ppsbench(head, output.kind)) {
        throw UsageError(fmt::format(
            "{} {}: the file exists and ppsbench did not write it (it does not start with "
            "'{}'); this output replaces its file on every run, so name a file of its own, or "
            "pass --force to replace this one",
            output.use, output.path, state_marker(output.kind)));
    }
}

}  // namespace

FileIdentity identify_file(const std::string& path) {
    const fs::path target = write_target(path);
    if (auto existing = stat_identity(target.string())) {
        return *existing;
    }
    const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    auto folder = stat_identity(parent.string()).value_or(FileIdentity{});
    // A folder that does not exist either: the lexical path is all there is to compare.
    folder.name =
        folder.inode == 0 ? target.lexically_normal().string() : target.filename().string();
    return folder;
}

std::string write_target(const std::string& path) {
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(fs::path(path), ec);
    return ec ? path : target.string();
}

bool written_by_ppsbench(std::string_view head, OutputKind kind) {
    if (kind == OutputKind::junit_state) {
        // After the XML declaration, if there is one.
        constexpr std::string_view declaration = "<?xml";
        if (head.starts_with(declaration)) {
            const auto end = head.find("?>");
            head = end == std::string_view::npos ? std::string_view() : head.substr(end + 2);
            head.remove_prefix(std::min(head.find_first_not_of(" \t\r\n"), head.size()));
        }
    }
    return kind != OutputKind::record && head.starts_with(state_marker(kind));
}

void FilePlan::read(std::string use, std::string path, std::string shown) {
    if (path.empty() || path == "-") {
        return;
    }
    if (shown.empty()) {
        shown = path;
    }
    inputs_.push_back({std::move(use), std::move(path), std::move(shown)});
}

void FilePlan::write(std::string use, std::string path, OutputKind kind) {
    outputs_.push_back({std::move(use), std::move(path), kind});
}

void FilePlan::check(bool force) const {
    std::vector<FileIdentity> input_ids;
    for (const auto& input : inputs_) {
        input_ids.push_back(identify_file(input.path));
    }
    std::vector<FileIdentity> output_ids;
    for (const auto& output : outputs_) {
        check_writable_path(output.path, output.use);
        const auto id = identify_file(output.path);
        for (std::size_t i = 0; i < inputs_.size(); ++i) {
            if (input_ids[i] == id) {
                throw UsageError(fmt::format(
                    "{} {} is also {} {}, which this command reads; an output never replaces "
                    "an input, not even with --force: name another file",
                    output.use, output.path, inputs_[i].use, inputs_[i].shown));
            }
        }
        for (std::size_t i = 0; i < output_ids.size(); ++i) {
            if (output_ids[i] == id) {
                throw UsageError(fmt::format(
                    "{} {} is also {} {}; each output needs a file of its own: name another",
                    output.use, output.path, outputs_[i].use, outputs_[i].path));
            }
        }
        output_ids.push_back(id);
    }
    for (const auto& output : outputs_) {
        check_replaceable(output, force);
    }
}

}  // namespace ppsbench::core
