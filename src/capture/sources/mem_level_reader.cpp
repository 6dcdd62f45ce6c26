// SPDX-License-Identifier: GPL-2.0-or-later
#include "mem_level_reader.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <filesystem>
#include <regex>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::capture::detail {

namespace {

std::string open_error(const std::string& spec, const std::string& device, int err) {
    if (err == EACCES || err == EPERM) {
        return fmt::format(
            "{}: permission denied on {}; run as root, or install ppsbench's udev rule, which "
            "gives the 'gpio' group /dev/gpiomem* (docs/install.md), and join that group",
            spec, device);
    }
    if (err == ENOENT) {
        return fmt::format(
            "{}: no such device {}; poll:bcm2835: needs a Pi 1–4 (/dev/gpiomem), poll:rp1: a "
            "Pi 5 (/dev/gpiomem0); 'ls /dev/gpiomem*' lists this system's",
            spec, device);
    }
    return fmt::format("{}: cannot open {}: {}", spec, device, core::errno_message(err));
}

}  // namespace

bool is_gpiomem_device(const std::string& path) {
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(path, ec);
    static const std::regex gpiomem("/dev/gpiomem[0-9]*");
    return !ec && std::regex_match(resolved.string(), gpiomem);
}

MemLevelReader::MemLevelReader(const std::string& spec, const std::string& device,
                               std::uint64_t offset, unsigned bit, Devices devices)
    : mask_(std::uint32_t{1} << bit) {
    core::UniqueFd fd(::open(device.c_str(), O_RDONLY | O_SYNC | O_CLOEXEC));
    if (fd.get() < 0) {
        throw core::InputError(open_error(spec, device, errno));
    }
    struct stat st {};
    if (devices == Devices::gpiomem_only &&
        (fstat(fd.get(), &st) != 0 || !S_ISCHR(st.st_mode) || !is_gpiomem_device(device))) {
        throw core::InputError(fmt::format(
            "{}: {} is not a gpiomem device; poll:mem: reads only /dev/gpiomem*, which expose "
            "the GPIO blocks alone (other MMIO can hold registers that a read clears)",
            spec, device));
    }
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t page_offset = offset - offset % page;
    map_length_ = static_cast<std::size_t>(page);
    map_ = mmap(nullptr, map_length_, PROT_READ, MAP_SHARED, fd.get(),
                static_cast<off_t>(page_offset));
    if (map_ == MAP_FAILED) {
        const int err = errno;
        map_ = nullptr;
        throw core::InputError(fmt::format(
            "{}: cannot map offset {:#x} of {} ({}); the register must lie within what the "
            "device maps (a gpiomem device maps its GPIO block only)",
            spec, offset, device, core::errno_message(err)));
    }
    word_ = reinterpret_cast<const volatile std::uint32_t*>(static_cast<const char*>(map_) +
                                                            (offset - page_offset));
}

MemLevelReader::~MemLevelReader() {
    if (map_ != nullptr) {
        munmap(map_, map_length_);
    }
}

bool MemLevelReader::level() {
    return (*word_ & mask_) != 0;
}

}  // namespace ppsbench::capture::detail
