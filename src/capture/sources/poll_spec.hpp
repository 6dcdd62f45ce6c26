// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: what "poll:…" names (docs/latency.md "Bias against a polled pin").

#include <cstdint>
#include <string>
#include <string_view>

#include "ppsbench/core/duration.hpp"

namespace ppsbench::capture {

struct PollSpec {
    enum class Backend { gpio_line, memory };
    Backend backend = Backend::gpio_line;
    // gpio_line: the chip and line, as gpio: takes them.
    std::string chip;
    std::string line;
    // memory: the device, the register's byte offset in it and the level's bit.
    std::string device;
    std::uint64_t offset = 0;
    unsigned bit = 0;
    std::string preset;  // "bcm2835", "rp1" or empty: recorded in the metadata
    // Periods polled, as 1s and 0s ("10": alternate), and the window's half-width around each
    // predicted edge.
    std::string pattern = "10";
    core::Duration window = std::chrono::microseconds{200};
};

// Parses what follows "poll:": "gpiochip0:18", "mem:/dev/gpiomem0,offset=0x1000c,bit=18",
// "bcm2835:18", "rp1:18", each with ",pattern=10" and ",window=200us". Throws core::UsageError
// naming the part and the accepted forms; a pin outside its preset's register is refused here.
PollSpec parse_poll_spec(std::string_view rest);

}  // namespace ppsbench::capture
