#include "sysinfo/chrony_config.hpp"

#include <fnmatch.h>
#include <algorithm>

#include "sysinfo/parse.hpp"

namespace ppsbench::sysinfo::detail {

namespace {

// Guards against include loops in a broken configuration.
constexpr int kMaxIncludeDepth = 8;

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return text;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Files matching a pattern whose last component may hold wildcards ("/etc/chrony/conf.d/*.conf").
std::vector<std::string> expand(const SysRoot& root, const std::string& pattern) {
    const std::filesystem::path path(pattern);
    const auto name = path.filename().string();
    if (name.find_first_of("*?[") == std::string::npos) {
        return {pattern};
    }
    std::vector<std::string> files;
    const auto dir = path.parent_path().string();
    for (const auto& entry : root.list(dir)) {
        if (fnmatch(name.c_str(), entry.c_str(), 0) == 0) {
            files.push_back(dir + "/" + entry);
        }
    }
    return files;
}

class Reader {
  public:
    Reader(const SysRoot& root, const std::string& pps_id, const std::string& dev_path)
        : root_(root), pps_id_(pps_id), dev_path_(dev_path) {}

    void read_file(const std::string& file, int depth) {
        if (depth > kMaxIncludeDepth ||
            std::find(config_.files.begin(), config_.files.end(), file) != config_.files.end()) {
            return;
        }
        const auto text = root_.read(file);
        if (!text) {
            return;
        }
        config_.files.push_back(file);
        for (const auto& directive : parse_chrony_config(*text)) {
            const auto keyword = lower(directive.words.front());
            if (keyword == "refclock" && directive.words.size() >= 3) {
                RefclockLine refclock;
                refclock.file = file;
                refclock.line = directive.line;
                refclock.text = directive.text;
                refclock.driver = upper(directive.words[1]);
                refclock.parameter = directive.words[2];
                refclock.uses_device = refclock_uses_device(refclock, root_, pps_id_, dev_path_);
                config_.refclocks.push_back(std::move(refclock));
            } else if (keyword == "include" && directive.words.size() >= 2) {
                for (const auto& included : expand(root_, directive.words[1])) {
                    read_file(included, depth + 1);
                }
            } else if (keyword == "confdir") {
                // Every *.conf in the directories, by file name (chrony merges same-named
                // files from several directories, taking the first; rare enough to ignore).
                for (std::size_t i = 1; i < directive.words.size(); ++i) {
                    for (const auto& included : expand(root_, directive.words[i] + "/*.conf")) {
                        read_file(included, depth + 1);
                    }
                }
            }
        }
    }

    ChronyConfig take() { return std::move(config_); }

  private:
    const SysRoot& root_;
    const std::string& pps_id_;
    const std::string& dev_path_;
    ChronyConfig config_;
};

}  // namespace

bool refclock_uses_device(const RefclockLine& refclock, const SysRoot& root,
                          const std::string& pps_id, const std::string& dev_path) {
    if (pps_id.empty()) {
        return false;
    }
    // Options follow the device after ':' for some drivers ("/dev/pps0:clear").
    const auto parameter = refclock.parameter.substr(0, refclock.parameter.find(':'));
    if (refclock.driver == "PPS") {
        if (parameter == dev_path) {
            return true;
        }
        // A udev symlink (/dev/gpspps0 -> pps0).
        std::error_code ec;
        const auto resolved = root.resolve(parameter);
        if (std::filesystem::is_symlink(resolved, ec)) {
            return std::filesystem::read_symlink(resolved, ec).filename() == pps_id;
        }
        return false;
    }
    if (refclock.driver == "SOCK") {
        // gpsd hands PPS samples from /dev/ppsN to chrony over /run/chrony.ppsN.sock.
        return std::filesystem::path(parameter).filename() == "chrony." + pps_id + ".sock";
    }
    return false;
}

ChronyConfig read_chrony_config(const SysRoot& root, const std::string& config_file,
                                const std::string& pps_id, const std::string& dev_path) {
    Reader reader(root, pps_id, dev_path);
    if (!config_file.empty() && config_file.front() == '/') {
        reader.read_file(config_file, 0);
        return reader.take();
    }
    for (const char* main_file : {"/etc/chrony/chrony.conf", "/etc/chrony.conf"}) {
        if (root.exists(main_file)) {
            reader.read_file(main_file, 0);
            break;
        }
    }
    return reader.take();
}

}  // namespace ppsbench::sysinfo::detail
