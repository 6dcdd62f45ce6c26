// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Reading chrony.conf as chronyd does, and finding which refclock reads a given PPS device.
// The one reader for `ppsbench run` (the refclock's refid for sampling) and for `ppsbench
// doctor` (which refclocks use the device), so both follow the same include rules.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsbench::chrony {

// One directive: its words (words[0] is the directive's name), and where it stands.
struct ConfDirective {
    std::string file;
    int line = 0;
    std::string text;  // the line without surrounding blanks
    std::vector<std::string> words;
};

// How the reader reaches files: the host's file system (host_conf_files), or a directory
// standing in for / (the doctor's --sysroot).
struct ConfFiles {
    // A whole file, or nullopt when it cannot be read.
    std::function<std::optional<std::string>(const std::string& path)> read;
    // The paths matching a glob(7) pattern, sorted; a pattern without wildcards names itself.
    std::function<std::vector<std::string>(const std::string& pattern)> glob;
};
ConfFiles host_conf_files();

struct ChronyConf {
    std::vector<std::string> files;  // every file read, in the order chronyd reads them
    std::vector<ConfDirective> directives;
};

// The directives of one file's text, in order. Like chronyd: a line whose first non-blank
// character is one of # ! ; % is a comment, blank lines are skipped.
std::vector<ConfDirective> parse_conf_text(std::string_view text, const std::string& file);

// Reads `path` and what it pulls in, directives in chronyd's order, each `include` and `confdir`
// replaced where it stands by the files it names (directive names are case-insensitive):
//   include PATTERN   the files matching the glob pattern, in sorted order;
//   confdir DIR...    the *.conf files of the directories, sorted by file name; a name found in
//                     several directories is read once, from the first directory listed.
// Files nest at most 10 deep (chronyd's MAX_INCLUDE_LEVEL; it refuses to start beyond, we stop
// descending). Unreadable files are skipped: the callers make best-effort lookups.
ChronyConf read_chrony_conf(const std::string& path, const ConfFiles& files);

// A `refclock DRIVER PARAMETER[:OPTION]... [OPTION [VALUE]]...` directive taken apart as chronyd
// does (chrony.conf(5)): the driver's own options follow the parameter after ':'
// ("/dev/pps0:clear",
// "/dev/ptp0:extpps:pin=1"); the directive's options follow as words, each either a flag
// (noselect, prefer, trust, require, tai, pps, local) or a name and its value (width 0.1).
struct Refclock {
    std::string driver;                       // as written: "PPS", "PHC", "SHM", "SOCK"
    std::string parameter;                    // before the first ':' ("/dev/pps0")
    std::vector<std::string> driver_options;  // "clear", "extpps", "pin=1"
    std::vector<std::pair<std::string, std::string>> options;  // name, value ("" for a flag)

    bool has_driver_option(std::string_view name) const;
    // The value of option `name` ("width"), or nullopt when it is absent.
    std::optional<std::string> option(std::string_view name) const;
    // The option's value as a number; nullopt when absent or not a number.
    std::optional<double> number(std::string_view name) const;
};

// Nothing for a directive that is not `refclock` or lacks its driver and parameter.
std::optional<Refclock> parse_refclock(const ConfDirective& directive);

// The refid of the `refclock PPS <device>` directive among `directives`, or nullopt. A refclock
// without a `refid` option gets chrony's default: the driver name's first three letters and the
// refclock's index among all refclock directives ("PPS0", "PPS1", ...). A `:clear` (or any other
// :option) suffix on the device is ignored.
std::optional<std::string> refclock_refid(const std::vector<ConfDirective>& directives,
                                          std::string_view device);

// A refclock directive with the refid chronyd gives it: its `refid` option (four characters at
// most), else the driver name's first three letters and the refclock's index among all refclock
// directives.
struct NamedRefclock {
    ConfDirective directive;
    Refclock refclock;
    std::string refid;
};
std::vector<NamedRefclock> named_refclocks(const std::vector<ConfDirective>& directives);

// The refclock a PPS capture of `device` is compared with: the one named `refid` when given
// (any driver: `--chrony-refid` may name a SOCK or PHC refclock fed by the same pulse), else the
// `refclock PPS <device>` one; nullopt when there is none.
std::optional<NamedRefclock> find_pps_refclock(const std::vector<ConfDirective>& directives,
                                               std::string_view device, std::string_view refid);

// The same for chrony.conf text with no includes.
std::optional<std::string> refclock_refid_in(std::string_view conf_text, std::string_view device);

// The same, reading `conf_path` and the files it pulls in (read_chrony_conf, host files).
std::optional<std::string> find_refclock_refid(const std::string& conf_path,
                                               std::string_view device);

}  // namespace ppsbench::chrony
