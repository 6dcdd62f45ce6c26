#include "ppsbench/chrony/conf.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace ppsbench::chrony {
namespace {

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
            ++i;
        }
        const auto start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
            ++i;
        }
        if (i > start) {
            out.push_back(line.substr(start, i - start));
        }
    }
    return out;
}

bool is_comment(std::string_view word) {
    // chrony.conf comments start with one of these characters.
    return word.front() == '#' || word.front() == '!' || word.front() == ';' || word.front() == '%';
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> glob_paths(const std::string& pattern) {
    std::vector<std::string> paths;
    glob_t g{};
    if (::glob(pattern.c_str(), 0, nullptr, &g) == 0) {
        for (std::size_t i = 0; i < g.gl_pathc; ++i) {
            paths.emplace_back(g.gl_pathv[i]);
        }
    }
    ::globfree(&g);
    return paths;  // glob sorts by default
}

// chrony reads confdir/include files where the directive appears; expanding them in place
// keeps refclock indices (for default refids) in chrony's order.
void expand(const std::filesystem::path& path, int depth, std::string& out) {
    if (depth > 4) {
        return;
    }
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);) {
        const auto w = words(line);
        if (w.size() >= 2 && w[0] == "include") {
            for (const auto& p : glob_paths(std::string(w[1]))) {
                expand(p, depth + 1, out);
            }
        } else if (w.size() >= 2 && w[0] == "confdir") {
            for (std::size_t d = 1; d < w.size(); ++d) {
                for (const auto& p : glob_paths(std::string(w[d]) + "/*.conf")) {
                    expand(p, depth + 1, out);
                }
            }
        } else {
            out += line;
            out += '\n';
        }
    }
}

}  // namespace

std::optional<std::string> refclock_refid_in(std::string_view conf_text, std::string_view device) {
    int index = 0;
    while (!conf_text.empty()) {
        const auto end = conf_text.find('\n');
        const auto line = conf_text.substr(0, end);
        conf_text = end == std::string_view::npos ? std::string_view{} : conf_text.substr(end + 1);

        auto w = words(line);
        const auto comment = std::find_if(w.begin(), w.end(), is_comment);
        w.erase(comment, w.end());
        if (w.size() < 3 || w[0] != "refclock") {
            continue;
        }
        const int this_index = index++;
        std::string_view parameter = w[2];
        parameter = parameter.substr(0, parameter.find(':'));
        if (w[1] != "PPS" || parameter != device) {
            continue;
        }
        for (std::size_t i = 3; i + 1 < w.size(); ++i) {
            if (w[i] == "refid") {
                return std::string(w[i + 1].substr(0, 4));
            }
        }
        return "PPS" + std::to_string(this_index);
    }
    return std::nullopt;
}

std::optional<std::string> find_refclock_refid(const std::string& conf_path,
                                               std::string_view device) {
    std::string text;
    expand(conf_path, 0, text);
    return refclock_refid_in(text, device);
}

}  // namespace ppsbench::chrony
