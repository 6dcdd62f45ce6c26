// SPDX-License-Identifier: GPL-2.0-or-later
// The program's memory policy (src/core/allocation_policy.cpp): a buffer of 4 MiB or more
// starts on a 2 MiB boundary and its mapping is marked for transparent huge pages (the "hg"
// flag in /proc/self/smaps), so a big buffer costs a page fault per 2 MiB, not per 4 KiB;
// smaller ones are glibc's as before; every size, zero and failures behave as the standard's;
// and a buffer under 32 MiB comes from the heap, not a mapping of its own that is unmapped (and
// faulted in again) buffer after buffer.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench::core {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool own_operator_new = false;  // the sanitizer's operator new is kept
#else
constexpr bool own_operator_new = true;
#endif

constexpr std::uintptr_t two_mib = std::uintptr_t{2} << 20;

// The VmFlags of the mapping that holds `p` in /proc/self/smaps (its first line in `name`).
std::string mapping_flags(const void* p, std::string* name = nullptr) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        unsigned long begin = 0;
        unsigned long end = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= at && at < end;
            if (inside && name != nullptr) {
                *name = line;
            }
        } else if (inside && line.starts_with("VmFlags:")) {
            return line;
        }
    }
    return {};
}

TEST(AllocationPolicy, ABigBufferStartsOnAHugePageAndAsksForHugePages) {
    if (!own_operator_new) {
        GTEST_SKIP() << "a sanitizer build keeps the sanitizer's operator new";
    }
    std::vector<double> phase(std::size_t{10} << 20);  // 80 MiB, as 10 M pulses' phase
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(phase.data()) % two_mib, 0U);
    const std::string flags = mapping_flags(phase.data());
    ASSERT_FALSE(flags.empty()) << "no mapping in /proc/self/smaps holds the buffer";
    if (ppsbench::testing::under_emulator() && flags.find(" hg") == std::string::npos) {
        GTEST_SKIP() << "qemu-user does not pass madvise(MADV_HUGEPAGE) on to the kernel, and "
                        "its /proc/self/smaps shows its own flags: "
                     << flags;
    }
    EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

TEST(AllocationPolicy, ASmallBufferIsAnOrdinaryOne) {
    const auto small = std::make_unique<char[]>(1000);
    EXPECT_EQ(mapping_flags(small.get()).find(" hg"), std::string::npos);
}

TEST(AllocationPolicy, EverySizeIsUsableAndFreedWhateverTheOperatorForm) {
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, (std::size_t{4} << 20) - 1,
                                    std::size_t{4} << 20, (std::size_t{6} << 20) + 3}) {
        char* one = static_cast<char*>(::operator new(bytes));
        if (bytes > 0) {
            one[0] = 1;
            one[bytes - 1] = 2;
        }
        ::operator delete(one, bytes);
        char* array = new char[bytes + 1];
        array[bytes] = 3;
        delete[] array;
        void* quiet = ::operator new(bytes, std::nothrow);
        EXPECT_NE(quiet, nullptr);
        ::operator delete(quiet);
    }
}

TEST(AllocationPolicy, ABufferOfAFewMegabytesComesFromTheHeap) {
    if (!own_operator_new) {
        GTEST_SKIP() << "the sanitizer's allocator has its own policy";
    }
    const auto part = std::make_unique<char[]>(std::size_t{3} << 20);  // a day of pulses' text
    std::string name;
    ASSERT_FALSE(mapping_flags(part.get(), &name).empty());
    if (ppsbench::testing::under_emulator() && !name.ends_with("[heap]")) {
        GTEST_SKIP() << "qemu-user emulates brk() in a mapping of its own, which the kernel "
                        "does not name [heap]: "
                     << name;
    }
    EXPECT_TRUE(name.ends_with("[heap]")) << name;
}

TEST(AllocationPolicy, AnImpossibleSizeIsBadAllocOrNull) {
    if (!own_operator_new) {
        GTEST_SKIP() << "AddressSanitizer stops the program at such a size";
    }
    // volatile: the compiler would refuse the size it can see.
    volatile std::size_t impossible = std::numeric_limits<std::size_t>::max() - 100;
    const std::size_t huge = impossible;
    EXPECT_THROW((void)::operator new(huge), std::bad_alloc);
    EXPECT_EQ(::operator new(huge, std::nothrow), nullptr);
}

}  // namespace
}  // namespace ppsbench::core
