#pragma once

// Finding which chrony refclock reads a given PPS device, from chrony.conf.

#include <optional>
#include <string>
#include <string_view>

namespace ppsbench::chrony {

// The refid of the `refclock PPS <device>` directive in `conf_text`, or nullopt. A refclock
// without a `refid` option gets chrony's default: the driver name's first three letters and
// the refclock's index among all refclock directives ("PPS0", "PPS1", ...). A `:clear` (or any
// other :option) suffix on the device is ignored.
std::optional<std::string> refclock_refid_in(std::string_view conf_text, std::string_view device);

// The same, reading `conf_path` and the files it pulls in with `confdir` (*.conf, sorted) and
// `include` (glob). Unreadable files are skipped: this is a best-effort lookup, and the
// sampler falls back to chronyd's selected source.
std::optional<std::string> find_refclock_refid(const std::string& conf_path,
                                               std::string_view device);

}  // namespace ppsbench::chrony
