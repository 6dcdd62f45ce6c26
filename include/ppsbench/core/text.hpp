#pragma once

#include <string_view>
#include <vector>

namespace ppsbench::core {

// The words of `text` between runs of blanks (space, tab, CR, LF), as views into `text`: the
// field splitting of chrony's logs, chrony.conf and /proc files.
std::vector<std::string_view> split_whitespace(std::string_view text);

}  // namespace ppsbench::core
