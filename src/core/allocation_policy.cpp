// SPDX-License-Identifier: GPL-2.0-or-later
// The program's memory policy: big buffers on transparent huge pages (its operator new and
// delete), and freed memory kept for the next buffer rather than handed back at once.
//
// `report` on 10 M pulses touches about 180 MB of fresh buffers (timestamps, phase, grid), and
// each 4 KiB page is a fault: 39 000 of them, 0.28 s of system time against 0.9 s of user time
// on the project's virtual machines (faults there cost 7-20 µs). Debian's kernels give huge
// pages only where asked (transparent_hugepage=madvise), and glibc asks only when started with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a program cannot set for itself. So an
// allocation of 4 MiB or more is aligned to 2 MiB and marked MADV_HUGEPAGE: one fault a 2 MiB
// page. Everything else is glibc's malloc, and everything is freed by free(). Where the kernel
// has no huge pages, madvise fails and nothing changes. A sanitizer build keeps the
// sanitizer's own operator new, which checks what this one cannot (new/delete mismatches).
//
// `report --join` reads 365 daily parts one after another, each into buffers of a few MB that
// glibc mapped and unmapped part by part (its mmap threshold, 128 KiB to start) and trimmed
// from the heap: 177 000 faults, 3 s of system time for a year. Buffers under 32 MiB now come
// from the heap, and up to 256 MiB of freed heap is kept: 8 700 faults, 0.6 s. Peak memory is
// the same within 4 % (a year of pulses: 567 -> 591 MB; 10 M: 186 -> 187 MB).

#include <malloc.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <limits>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define PPSBENCH_OWN_OPERATOR_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PPSBENCH_OWN_OPERATOR_NEW 0
#endif
#endif
#ifndef PPSBENCH_OWN_OPERATOR_NEW
#define PPSBENCH_OWN_OPERATOR_NEW 1
#endif

namespace {

// Before main(), so that no buffer is allocated under the defaults first. Memory glibc keeps is
// still reused by the next allocation; only its return to the kernel waits.
[[gnu::constructor]] void keep_freed_memory() {
    (void)::mallopt(M_MMAP_THRESHOLD, 32 << 20);
    (void)::mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

}  // namespace

#if PPSBENCH_OWN_OPERATOR_NEW

namespace {

constexpr std::size_t huge_page_size = std::size_t{2} << 20;
// Below this a buffer is at most two huge pages, and rounding it up to whole pages could
// double it; above it the rounding costs under half.
constexpr std::size_t huge_buffer_bytes = std::size_t{4} << 20;

void* try_allocate(std::size_t bytes) noexcept {
    if (bytes < huge_buffer_bytes) {
        return std::malloc(bytes == 0 ? 1 : bytes);
    }
    if (bytes > std::numeric_limits<std::size_t>::max() - huge_page_size) {
        return nullptr;
    }
    const std::size_t rounded = (bytes + huge_page_size - 1) / huge_page_size * huge_page_size;
    void* p = std::aligned_alloc(huge_page_size, rounded);
    if (p != nullptr) {
        (void)::madvise(p, rounded, MADV_HUGEPAGE);
    }
    return p;
}

// What the standard asks of operator new: the new-handler is called until it frees memory or
// gives up, and then std::bad_alloc.
void* allocate(std::size_t bytes) {
    for (;;) {
        if (void* p = try_allocate(bytes)) {
            return p;
        }
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) {
            throw std::bad_alloc();
        }
        handler();
    }
}

void* allocate_or_null(std::size_t bytes) noexcept {
    try {
        return allocate(bytes);
    } catch (...) {
        return nullptr;
    }
}

}  // namespace

void* operator new(std::size_t bytes) {
    return allocate(bytes);
}
void* operator new[](std::size_t bytes) {
    return allocate(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    return allocate_or_null(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
    return allocate_or_null(bytes);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

#endif
