// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/conf.hpp"

#include <glob.h>
#include <strings.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "ppsbench/core/text.hpp"

namespace ppsbench::chrony {
namespace {

// chronyd's MAX_INCLUDE_LEVEL: the main file is level 1.
constexpr int max_include_level = 10;

bool is_directive(const ConfDirective& directive, const char* name) {
    return ::strcasecmp(directive.words.front().c_str(), name) == 0;
}

class Reader {
  public:
    explicit Reader(const ConfFiles& files) : files_(files) {}

    void read(const std::string& path, int level) {
        if (level > max_include_level) {
            return;
        }
        const auto text = files_.read(path);
        if (!text) {
            return;
        }
        conf_.files.push_back(path);
        for (auto& directive : parse_conf_text(*text, path)) {
            if (is_directive(directive, "include") && directive.words.size() >= 2) {
                for (const auto& included : files_.glob(directive.words[1])) {
                    read(included, level + 1);
                }
            } else if (is_directive(directive, "confdir")) {
                const std::vector<std::string> dirs(directive.words.begin() + 1,
                                                    directive.words.end());
                for (const auto& included : confdir_files(dirs)) {
                    read(included, level + 1);
                }
            } else {
                conf_.directives.push_back(std::move(directive));
            }
        }
    }

    ChronyConf take() { return std::move(conf_); }

  private:
    // By file name; the first directory listed wins a name several directories have.
    std::vector<std::string> confdir_files(const std::vector<std::string>& dirs) const {
        std::map<std::string, std::string> by_name;
        for (const auto& dir : dirs) {
            for (const auto& path : files_.glob(dir + "/*.conf")) {
                by_name.emplace(std::filesystem::path(path).filename().string(), path);
            }
        }
        std::vector<std::string> paths;
        paths.reserve(by_name.size());
        for (auto& [name, path] : by_name) {
            paths.push_back(std::move(path));
        }
        return paths;
    }

    const ConfFiles& files_;
    ChronyConf conf_;
};

std::optional<std::string> read_host_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> glob_host(const std::string& pattern) {
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

// The refclock options that stand alone; every other option takes a value (chrony.conf(5)).
bool is_flag(std::string_view option) {
    for (const char* flag : {"noselect", "prefer", "trust", "require", "tai", "pps", "local"}) {
        if (::strcasecmp(std::string(option).c_str(), flag) == 0) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool Refclock::has_driver_option(std::string_view name) const {
    return std::find(driver_options.begin(), driver_options.end(), name) != driver_options.end();
}

std::optional<std::string> Refclock::option(std::string_view name) const {
    for (const auto& [key, value] : options) {
        if (::strcasecmp(key.c_str(), std::string(name).c_str()) == 0) {
            return value;
        }
    }
    return std::nullopt;
}

std::optional<double> Refclock::number(std::string_view name) const {
    const auto text = option(name);
    if (!text || text->empty()) {
        return std::nullopt;
    }
    // strtod, as chronyd reads it; the whole word must be the number.
    char* end = nullptr;
    const double value = std::strtod(text->c_str(), &end);
    if (end != text->c_str() + text->size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<Refclock> parse_refclock(const ConfDirective& directive) {
    const auto& w = directive.words;
    if (w.size() < 3 || !is_directive(directive, "refclock")) {
        return std::nullopt;
    }
    Refclock refclock;
    refclock.driver = w[1];
    const std::string_view parameter = w[2];
    const auto colon = std::min(parameter.find(':'), parameter.size());
    refclock.parameter = std::string(parameter.substr(0, colon));
    for (std::string_view rest = parameter.substr(colon); !rest.empty();) {
        rest.remove_prefix(1);  // the ':'
        const auto next = std::min(rest.find(':'), rest.size());
        if (next > 0) {
            refclock.driver_options.emplace_back(rest.substr(0, next));
        }
        rest.remove_prefix(next);
    }
    for (std::size_t i = 3; i < w.size(); ++i) {
        if (is_flag(w[i]) || i + 1 == w.size()) {
            refclock.options.emplace_back(w[i], "");
        } else {
            refclock.options.emplace_back(w[i], w[i + 1]);
            ++i;
        }
    }
    return refclock;
}

ConfFiles host_conf_files() {
    return {read_host_file, glob_host};
}

std::vector<ConfDirective> parse_conf_text(std::string_view text, const std::string& file) {
    constexpr std::string_view blanks = " \t\r\n";
    std::vector<ConfDirective> directives;
    int number = 0;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        ++number;
        const auto first = line.find_first_not_of(blanks);
        if (first == std::string_view::npos ||
            std::string_view("#!;%").find(line[first]) != std::string_view::npos) {
            continue;
        }
        line = line.substr(first, line.find_last_not_of(blanks) - first + 1);
        ConfDirective directive;
        directive.file = file;
        directive.line = number;
        directive.text = std::string(line);
        for (const auto word : core::split_whitespace(line)) {
            directive.words.emplace_back(word);
        }
        directives.push_back(std::move(directive));
    }
    return directives;
}

ChronyConf read_chrony_conf(const std::string& path, const ConfFiles& files) {
    Reader reader(files);
    reader.read(path, 1);
    return reader.take();
}

std::vector<NamedRefclock> named_refclocks(const std::vector<ConfDirective>& directives) {
    std::vector<NamedRefclock> named;
    int index = 0;
    for (const auto& directive : directives) {
        if (directive.words.size() < 3 || !is_directive(directive, "refclock")) {
            continue;
        }
        const int this_index = index++;
        auto refclock = parse_refclock(directive);
        if (!refclock) {
            continue;
        }
        const auto refid = refclock->option("refid");
        named.push_back({directive, *refclock,
                         refid && !refid->empty()
                             ? refid->substr(0, 4)
                             : refclock->driver.substr(0, 3) + std::to_string(this_index)});
    }
    return named;
}

std::optional<NamedRefclock> find_pps_refclock(const std::vector<ConfDirective>& directives,
                                               std::string_view device, std::string_view refid) {
    for (auto& each : named_refclocks(directives)) {
        if (refid.empty() ? each.refclock.driver == "PPS" && each.refclock.parameter == device
                          : each.refid == refid) {
            return std::move(each);
        }
    }
    return std::nullopt;
}

std::optional<std::string> refclock_refid(const std::vector<ConfDirective>& directives,
                                          std::string_view device) {
    if (auto found = find_pps_refclock(directives, device, {})) {
        return std::move(found->refid);
    }
    return std::nullopt;
}

std::optional<std::string> refclock_refid_in(std::string_view conf_text, std::string_view device) {
    return refclock_refid(parse_conf_text(conf_text, {}), device);
}

std::optional<std::string> find_refclock_refid(const std::string& conf_path,
                                               std::string_view device) {
    return refclock_refid(read_chrony_conf(conf_path, host_conf_files()).directives, device);
}

}  // namespace ppsbench::chrony
