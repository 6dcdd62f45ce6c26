// SPDX-License-Identifier: GPL-2.0-or-later
// A chip by label, through libgpiod 2 (built with the other *_v2.cpp backend files): its
// gpiod_chip_open() takes a path only, where 1.6's gpiod_chip_open_lookup() also took a name, a
// number or a label. Apart from the gpio: source so that latency's drive line, and the fuzz
// build that links latency alone, use it without the source.
#include <gpiod.h>
#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <vector>

#include "ppsbench/capture/gpio_chip.hpp"

namespace ppsbench::capture {

namespace {

struct LookupChipClose {
    void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
struct LookupChipInfoFree {
    void operator()(gpiod_chip_info* info) const { gpiod_chip_info_free(info); }
};

// The chips' nodes, in name order: /dev/gpiochip0, /dev/gpiochip1, …
std::vector<std::string> gpiochip_nodes() {
    std::vector<std::string> nodes;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/dev", ec)) {
        if (entry.path().filename().string().starts_with("gpiochip")) {
            nodes.push_back(entry.path().string());
        }
    }
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

}  // namespace

GpioChipLookup find_gpio_chip(std::string_view chip) {
    if (auto node = gpio_chip_node(chip)) {
        return {std::move(*node), 0};
    }
    // A label: ask each chip for its own. A chip this user may not open cannot answer, which
    // is then the error to report, not "no such chip".
    int error = ENOENT;
    for (const std::string& node : gpiochip_nodes()) {
        if (!gpiod_is_gpiochip_device(node.c_str())) {
            continue;
        }
        const std::unique_ptr<gpiod_chip, LookupChipClose> open(gpiod_chip_open(node.c_str()));
        if (!open) {
            error = errno == EACCES || errno == EPERM ? errno : error;
            continue;
        }
        const std::unique_ptr<gpiod_chip_info, LookupChipInfoFree> info(
            gpiod_chip_get_info(open.get()));
        if (info && chip == gpiod_chip_info_get_label(info.get())) {
            return {node, 0};
        }
    }
    return {"", error};
}

}  // namespace ppsbench::capture
