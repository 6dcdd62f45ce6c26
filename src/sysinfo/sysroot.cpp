// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/sysroot.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "sysinfo/parse.hpp"

namespace ppsbench::sysinfo::detail {

namespace fs = std::filesystem;

SysRoot::SysRoot(fs::path root) : root_(std::move(root)) {
    std::error_code ec;
    const auto canonical = fs::weakly_canonical(root_, ec);
    live_ = !ec && canonical == fs::path("/");
}

fs::path SysRoot::resolve(std::string_view absolute) const {
    // Normalised as an absolute path, where ".." stops at "/": a snapshot's chrony.conf that
    // includes "/../../etc/x" reads the snapshot's /etc/x, as chronyd would, not this host's.
    return root_ / (fs::path("/") / absolute).lexically_normal().relative_path();
}

bool SysRoot::exists(std::string_view absolute) const {
    std::error_code ec;
    return fs::exists(resolve(absolute), ec);
}

std::optional<std::string> SysRoot::read(std::string_view absolute, std::size_t max_bytes) const {
    std::ifstream in(resolve(absolute), std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    std::string text;
    char buffer[4096];
    while (text.size() < max_bytes && in.read(buffer, sizeof buffer).gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    }
    // A sysfs attribute whose show() fails (e.g. -EOPNOTSUPP) opens but errors on read.
    if (in.bad()) {
        return std::nullopt;
    }
    return text;
}

std::optional<std::string> SysRoot::read_line(std::string_view absolute) const {
    auto text = read(absolute, 64U << 10);
    if (!text) {
        return std::nullopt;
    }
    const auto end = text->find('\n');
    return std::string(trim(std::string_view(*text).substr(0, end)));
}

bool SysRoot::for_each_line(std::string_view absolute,
                            const std::function<bool(std::string_view)>& line) const {
    std::ifstream in(resolve(absolute));
    if (!in) {
        return false;
    }
    std::string text;
    while (std::getline(in, text)) {
        if (!line(text)) {
            break;
        }
    }
    return true;
}

std::vector<std::string> SysRoot::list(std::string_view absolute) const {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(resolve(absolute), ec), end; !ec && it != end;
         it.increment(ec)) {
        names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace ppsbench::sysinfo::detail
