// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// How a GPIO chip and line are named on the command line (gpio:CHIP:LINE, poll:CHIP:LINE,
// latency's --drive CHIP:LINE), shared by the libgpiod backends of capture and latency. No
// libgpiod type here: only the backend files include <gpiod.h> / <gpiod.hpp>.

#include <optional>
#include <string>
#include <string_view>

namespace ppsbench::capture {

// The device node a chip's name gives without asking any chip: "gpiochip0" and "0" give
// "/dev/gpiochip0", a path is kept as it is. Nullopt for anything else, which is a chip label
// ("pinctrl-bcm2711"): only the chips themselves know their labels.
std::optional<std::string> gpio_chip_node(std::string_view chip);

// The offset a line's name gives when it is a number ("17"); nullopt for a line name ("GPIO17").
std::optional<unsigned int> gpio_line_offset(std::string_view line);

// Where a chip named in any accepted form is: gpio_chip_node's answer, or the /dev/gpiochip*
// whose label is `chip`. libgpiod 2 opens chips by path only, where 1.6 looked names and labels
// up itself (gpiod_chip_open_lookup), so this is defined by the libgpiod 2 backend alone.
struct GpioChipLookup {
    std::string node;  // empty when no chip answers to the name
    int error = 0;     // the errno that explains an empty node (ENOENT, or EACCES on a chip)
};
GpioChipLookup find_gpio_chip(std::string_view chip);

}  // namespace ppsbench::capture
