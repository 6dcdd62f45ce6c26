#include "ppsbench/core/text.hpp"

#include <algorithm>

namespace ppsbench::core {

std::vector<std::string_view> split_whitespace(std::string_view text) {
    constexpr std::string_view blanks = " \t\r\n";
    std::vector<std::string_view> words;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto start = text.find_first_not_of(blanks, pos);
        if (start == std::string_view::npos) {
            break;
        }
        const auto end = std::min(text.find_first_of(blanks, start), text.size());
        words.push_back(text.substr(start, end - start));
        pos = end;
    }
    return words;
}

}  // namespace ppsbench::core
