// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo/boot_files.hpp"

#include <cctype>
#include <filesystem>
#include <map>

#include "sysinfo/parse.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// The firmware nests includes; a loop in them must not hang the doctor.
constexpr int kMaxIncludeDepth = 8;

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        lines.push_back(text.substr(0, eol));
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    }
    return lines;
}

using ReadFile = std::function<std::optional<std::string>(const std::string&)>;

struct ConfigTxtReader {
    explicit ConfigTxtReader(const ReadFile& read) : read_include(read) {}

    const ReadFile& read_include;
    std::string section = "all";
    std::vector<DtOverlay> overlays;

    void read(std::string_view text, const std::string& file, int depth) {
        int number = 0;
        for (auto line : lines_of(text)) {
            ++number;
            line = trim(line.substr(0, line.find('#')));
            if (line.empty()) {
                continue;
            }
            if (line.front() == '[' && line.back() == ']') {
                section = std::string(line.substr(1, line.size() - 2));
                continue;
            }
            if (line.starts_with("include ") || line.starts_with("include\t")) {
                const auto name = std::string(trim(line.substr(8)));
                const auto dir = std::filesystem::path(file).parent_path();
                if (depth < kMaxIncludeDepth) {
                    const auto path = (dir / name).string();
                    if (const auto included = read_include(path)) {
                        read(*included, path, depth + 1);
                    }
                }
                continue;
            }
            add_directive(line, file, number);
        }
    }

    void add_directive(std::string_view line, const std::string& file, int number) {
        const auto equals = line.find('=');
        if (equals == std::string_view::npos) {
            return;
        }
        const auto key = trim(line.substr(0, equals));
        const auto value = std::string(trim(line.substr(equals + 1)));
        if (key == "dtoverlay") {
            if (value.empty()) {
                return;  // "dtoverlay=" ends the parameters of the last overlay
            }
            overlays.push_back({file, number, value, value.substr(0, value.find(',')), section});
        } else if (key == "dtparam" && !overlays.empty() && overlays.back().file == file &&
                   overlays.back().section == section) {
            overlays.back().text += "," + value;
        }
    }
};

// One shell word of an assignment's value: quotes removed, $VAR and ${VAR} expanded.
std::string expand(std::string_view value, const std::map<std::string, std::string>& vars) {
    std::string out;
    char quote = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const char c = value[i];
        if (quote == 0 && (c == '"' || c == '\'')) {
            quote = c;
        } else if (c == quote) {
            quote = 0;
        } else if (c == '$' && quote != '\'' && i + 1 < value.size()) {
            const bool braced = value[i + 1] == '{';
            const auto start = i + (braced ? 2 : 1);
            auto end = start;
            while (end < value.size() &&
                   (std::isalnum(static_cast<unsigned char>(value[end])) || value[end] == '_')) {
                ++end;
            }
            const auto it = vars.find(std::string(value.substr(start, end - start)));
            if (it != vars.end()) {
                out += it->second;
            }
            i = (braced && end < value.size() && value[end] == '}' ? end : end - 1);
        } else if (quote == 0 && (c == ' ' || c == '\t' || c == '#')) {
            break;  // the end of the word (a comment, or a command after it)
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<std::string> read_first(const SysRoot& root, const std::vector<std::string>& paths,
                                      std::string& found) {
    for (const auto& path : paths) {
        if (auto text = root.read(path, 64U << 10)) {
            found = path;
            return text;
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<DtOverlay> parse_config_txt(
    std::string_view text, const std::string& file,
    const std::function<std::optional<std::string>(const std::string&)>& read_include) {
    ConfigTxtReader reader(read_include);
    reader.read(text, file, 0);
    return std::move(reader.overlays);
}

std::optional<std::string> grub_cmdline(const std::vector<std::string>& texts) {
    std::map<std::string, std::string> vars;
    for (const auto& text : texts) {
        for (auto line : lines_of(text)) {
            line = trim(line);
            if (line.starts_with("export ")) {
                line = trim(line.substr(7));
            }
            const auto equals = line.find('=');
            if (equals == std::string_view::npos || line.starts_with("#")) {
                continue;
            }
            const auto name = std::string(line.substr(0, equals));
            if (name.starts_with("GRUB_CMDLINE_LINUX")) {
                vars[name] = expand(line.substr(equals + 1), vars);
            }
        }
    }
    const auto linux_it = vars.find("GRUB_CMDLINE_LINUX");
    const auto default_it = vars.find("GRUB_CMDLINE_LINUX_DEFAULT");
    if (linux_it == vars.end() && default_it == vars.end()) {
        return std::nullopt;
    }
    std::string cmdline = linux_it == vars.end() ? "" : linux_it->second;
    if (default_it != vars.end() && !default_it->second.empty()) {
        cmdline += (cmdline.empty() ? "" : " ") + default_it->second;
    }
    return cmdline;
}

BootConfig read_boot_config(const SysRoot& root) {
    BootConfig boot;
    const std::vector<std::string> dirs{"/boot/firmware/", "/boot/", "/"};
    std::vector<std::string> cmdline_files;
    std::vector<std::string> config_files;
    for (const auto& dir : dirs) {
        cmdline_files.push_back(dir + "cmdline.txt");
        config_files.push_back(dir + "config.txt");
    }
    if (const auto text = read_first(root, cmdline_files, boot.cmdline_file)) {
        boot.cmdline = std::string(trim(std::string_view(*text).substr(0, text->find('\n'))));
    } else if (const auto grub = root.read("/etc/default/grub", 64U << 10)) {
        std::vector<std::string> texts{*grub};
        boot.cmdline_file = "/etc/default/grub";
        for (const auto& name : root.list("/etc/default/grub.d")) {  // sorted, as grub reads
            if (name.ends_with(".cfg")) {
                if (auto extra = root.read("/etc/default/grub.d/" + name, 64U << 10)) {
                    texts.push_back(std::move(*extra));
                }
            }
        }
        if (auto cmdline = grub_cmdline(texts)) {
            boot.cmdline = std::move(*cmdline);
        }
    }
    if (const auto text = read_first(root, config_files, boot.config_file)) {
        boot.overlays = parse_config_txt(*text, boot.config_file, [&root](const std::string& path) {
            return root.read(path, 64U << 10);
        });
    }
    for (const auto& name : root.list("/lib/modules")) {
        std::error_code ec;
        if (std::filesystem::is_directory(root.resolve("/lib/modules/" + name), ec)) {
            boot.kernels.push_back(name);
        }
    }
    return boot;
}

}  // namespace ppsbench::sysinfo::detail
