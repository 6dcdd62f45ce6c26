// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::core {

// What an output file is to the person who named it; it decides when it may be replaced.
enum class OutputKind {
    // A capture, summary, plot, CSV or page: a result someone may have waited hours for. An
    // existing one is replaced only with --force.
    record,
    // State, replaced on every run without --force: the figures of now (node_exporter's
    // textfile) and the last verdict (a CI's JUnit file). The existing file must be empty or
    // one ppsbench wrote, so a capture mistyped as the state file is never replaced.
    prometheus_state,
    junit_state,
};

// The file a path names: symlinks followed, hard links matched by device and inode; a file
// that does not exist yet by its folder's device and inode and its name, so two spellings of
// one new file (./a.csv, dir/../a.csv, a link to the folder) are one file.
struct FileIdentity {
    unsigned long long device = 0;
    unsigned long long inode = 0;
    std::string name;  // empty for an existing file; the new file's name in that folder
    bool operator==(const FileIdentity&) const = default;
};
FileIdentity identify_file(const std::string& path);

// The path a whole-file write goes to: `path` with every existing symlink followed, so writing
// to a link replaces the file it points to and the link stays (a dangling link is replaced by
// the file). The file plan and the atomic writer both use it.
std::string write_target(const std::string& path);

// Every file a command reads and writes, declared before any work and checked together:
// no output is an input or another output, and each output may be written (its folder is
// writable, an existing record needs --force, an existing state file must be ppsbench's).
// Commands declare their inputs (captures, summaries, logs, replay: sources, and later
// --chrony-log, --join, doctor --bias) and outputs (-o, --plot, --plot-stability,
// --prometheus, --junit, and later --html) here, so a new option is one declaration.
class FilePlan {
  public:
    // `use` names the input in messages: "the input", "--baseline", "--source". `shown` is
    // the path as the user wrote it when that differs from `path` (replay:r.csv). "-" is
    // standard input, no file, and is not planned; nor is "" (an option not given).
    void read(std::string use, std::string path, std::string shown = {});
    // `use` is the option: "-o", "--plot", "--prometheus", "--junit".
    void write(std::string use, std::string path, OutputKind kind);

    // Throws core::UsageError naming the output, what it clashes with and the fix. `force`
    // lets a record, or a state file ppsbench did not write, be replaced; it never lets an
    // output replace an input.
    void check(bool force) const;

    struct Input {
        std::string use;
        std::string path;
        std::string shown;
    };
    struct Output {
        std::string use;
        std::string path;
        OutputKind kind;
    };
    const std::vector<Input>& inputs() const { return inputs_; }
    const std::vector<Output>& outputs() const { return outputs_; }

  private:
    std::vector<Input> inputs_;
    std::vector<Output> outputs_;
};

// Whether `head` (the first bytes of a file) is a state file of this kind that ppsbench wrote:
// "# HELP ppsbench_" for Prometheus, the <testsuites name="ppsbench" root for JUnit.
bool written_by_ppsbench(std::string_view head, OutputKind kind);

// Checks that `path` can be created as a file for `use` (-o, --plot, --junit, --prometheus):
// not "-" nor a directory, nor an existing non-regular file; its folder exists on a writable,
// real file system. Existence itself is the plan's question (FilePlan::check).
void check_writable_path(const std::string& path, std::string_view use);

}  // namespace ppsbench::core
