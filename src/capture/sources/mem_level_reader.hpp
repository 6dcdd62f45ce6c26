// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: a pin's level as one bit of a memory-mapped GPIO register, read through a
// gpiomem-class device (/dev/gpiomem on a Pi 1–4, /dev/gpiomem0..4 on a Pi 5). It reads the
// pin pps-gpio holds without claiming it. Only gpiomem devices are accepted: they expose the
// GPIO blocks alone, while arbitrary MMIO (/dev/mem) can hold read-to-clear registers that one
// stray read would disturb.

#include <cstddef>
#include <cstdint>
#include <string>

#include "level_reader.hpp"

namespace ppsbench::capture::detail {

class MemLevelReader final : public LevelReader {
  public:
    // Whether the device may be anything: only tests pass `any_file` (a regular temporary file
    // standing in for the device); no spec on the command line reaches it.
    enum class Devices { gpiomem_only, any_file_for_tests };

    // Throws core::InputError naming `spec` for no such device, no permission (with the udev
    // rule's fix), a device that is not gpiomem, or an offset beyond what it maps.
    MemLevelReader(const std::string& spec, const std::string& device, std::uint64_t offset,
                   unsigned bit, Devices devices = Devices::gpiomem_only);
    ~MemLevelReader() override;
    bool level() override;

  private:
    void* map_ = nullptr;
    std::size_t map_length_ = 0;
    const volatile std::uint32_t* word_ = nullptr;
    std::uint32_t mask_ = 0;
};

// True for a path whose resolved name is /dev/gpiomem or /dev/gpiomemN.
bool is_gpiomem_device(const std::string& path);

}  // namespace ppsbench::capture::detail
