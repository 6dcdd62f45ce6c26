// SPDX-License-Identifier: GPL-2.0-or-later
// The capture loop must not allocate per pulse: an allocation can page-fault or take a lock at
// the worst moment. Counted by replacing the global allocator for this test program.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <atomic>
#include <cstdlib>
#include <new>
#include <type_traits>

#include "../../src/capture/sources/gpio_event_reader.hpp"
#include "../../src/capture/sources/gpio_v2_event_reader.hpp"
#include "../../src/capture/sources/ptp_source.hpp"
#include "cli.hpp"
#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/capture_path.hpp"
#include "ppsbench/session/live_metrics.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/run_record.hpp"

// GCC cannot see that these replace the global pair, and warns that malloc/free mismatch.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<std::size_t> allocations{0};
}

void* operator new(std::size_t size) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
// The nothrow pair too: what is not replaced stays the sanitizer's, and GoogleTest 1.16
// (Debian 13) frees with plain delete what it made with new(std::nothrow): ASan then saw its
// own allocation freed by this free() (alloc-dealloc-mismatch).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

namespace ppsbench::capture {
namespace {

// Allocations made by a whole sim → capture-file run of `count` pulses.
std::size_t allocations_for(std::uint64_t count) {
    testing::TempDir dir;
    auto source = open_source("sim:threaded,missed=0.01,outliers=0.01", SourceOptions{});
    store::CaptureWriter writer(dir.file("run.csv"), {{"label", "alloc"}}, false);
    CaptureLimits limits;
    limits.count = count;
    std::uint64_t seen = 0;
    const std::size_t before = allocations.load();
    run_capture(
        *source, writer, limits, nullptr,
        [&](std::span<const core::Pulse> batch, const CaptureProgress&) { seen += batch.size(); });
    const std::size_t used = allocations.load() - before;
    EXPECT_EQ(seen, count);
    return used;
}

TEST(CaptureLoop, AllocatesNothingPerPulse) {
    const std::size_t small = allocations_for(1'000);
    const std::size_t large = allocations_for(100'000);
    EXPECT_EQ(small, large) << "allocations grew with the number of pulses";
}

// The same through what `run` uses when left alone: the capture files (rotation armed, its seam
// up to a day away) and the live metrics fed after every batch.
std::size_t monitored_allocations_for(std::uint64_t count) {
    testing::TempDir dir;
    auto source = open_source("sim:threaded,missed=0.01,outliers=0.01", SourceOptions{});
    store::RunMeta meta;
    meta.label = "alloc";
    session::CaptureFiles files(dir.file("run-%H%M%S.csv"), meta, false, std::chrono::hours{24});
    session::LiveMetrics live(session::LiveMetricsOptions{}, source->info());
    CaptureLimits limits;
    limits.count = count;
    const std::size_t before = allocations.load();
    run_capture(*source, files, limits, nullptr,
                [&](std::span<const core::Pulse> batch, const CaptureProgress& progress) {
                    live.update(batch, progress);
                });
    return allocations.load() - before;
}

TEST(CaptureLoop, AllocatesNothingPerPulseWithRotationAndLiveMetrics) {
    const std::size_t small = monitored_allocations_for(1'000);
    const std::size_t large = monitored_allocations_for(100'000);
    EXPECT_EQ(small, large) << "allocations grew with the number of pulses";
}

// The same through one path of a two-path run (session::CapturePath): its files with per-pulse
// columns and rotation armed, its status line's running figures, and the live metrics of both
// paths, fed for path A after every batch.
std::size_t path_allocations_for(std::uint64_t count) {
    testing::TempDir dir;
    session::CapturePath path("A", "sim:threaded,missed=0.01,outliers=0.01", SourceOptions{});
    const auto peer = open_source("sim:hardirq", SourceOptions{});
    store::RunMeta meta;
    meta.label = "alloc";
    path.create_files(dir.file("run-%H%M%S-1.csv"), meta, false, std::chrono::hours{24}, true);
    CaptureLimits limits;
    limits.count = count;
    path.start_status_line(nullptr, limits, nullptr, 0);
    session::LiveMetrics live(session::LiveMetricsOptions{},
                              {{.name = "A", .label = "alloc", .source = &path.info()},
                               {.name = "B", .label = "alloc", .source = &peer->info()}});
    const std::size_t before = allocations.load();
    run_capture(path.source(), path.sink(), limits, nullptr,
                [&](std::span<const core::Pulse> batch, const CaptureProgress& progress) {
                    path.observe(batch, progress, &live, 0);
                });
    return allocations.load() - before;
}

TEST(CaptureLoop, AllocatesNothingPerPulseOnAPathOfATwoPathRun) {
    const std::size_t small = path_allocations_for(1'000);
    const std::size_t large = path_allocations_for(100'000);
    EXPECT_EQ(small, large) << "allocations grew with the number of pulses";
}

// A PHC giving one edge a second and an EXTENDED2 sample 200 µs after it, computed on the fly
// (a scripted device would allocate for its script, hiding the source's own allocations).
class EndlessPhc final : public PhcDevice {
  public:
    int capabilities(ptp_clock_caps& caps) override {
        caps.n_ext_ts = 1;
        return 0;
    }
    int pin_function(ptp_pin_desc& /*pin*/) override { return EINVAL; }
    int set_pin_function(const ptp_pin_desc& /*pin*/) override { return EINVAL; }
    int request_extts(const ptp_extts_request& /*request*/) override { return 0; }
    int precise_offset(ptp_sys_offset_precise& /*sample*/) override { return EOPNOTSUPP; }
    int extended_offset(ptp_sys_offset_extended& sample) override {
        const std::int64_t t = edge_ns() + 200'000;
        sample.n_samples = 1;
        sample.ts[0][0] = time(t - 300);
        sample.ts[0][1] = time(t + phc_ahead_ns);
        sample.ts[0][2] = time(t + 300);
        return 0;
    }
    int basic_offset(ptp_sys_offset& /*sample*/) override { return EOPNOTSUPP; }
    WaitResult wait(core::Duration /*timeout*/) override { return WaitResult::ready; }
    long read_events(std::span<ptp_extts_event> out) override {
        ++edges_;
        out[0] = ptp_extts_event{};
        out[0].t = time(edge_ns() + phc_ahead_ns);
        return 1;
    }

  private:
    static constexpr std::int64_t phc_ahead_ns = 37'000'000'000;
    static ptp_clock_time time(std::int64_t ns) {
        return {ns / 1'000'000'000, static_cast<std::uint32_t>(ns % 1'000'000'000), 0};
    }
    std::int64_t edge_ns() const { return 1'780'000'000'000'000'000 + edges_ * 1'000'000'000; }
    std::int64_t edges_ = 0;
};

std::size_t ptp_allocations_for(std::uint64_t count) {
    testing::TempDir dir;
    PtpSource source("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, SourceOptions{},
                     std::make_unique<EndlessPhc>(), {});
    store::CaptureWriter writer(dir.file("ptp.csv"), {{"label", "alloc"}}, false);
    CaptureLimits limits;
    limits.count = count;
    const std::size_t before = allocations.load();
    run_capture(source, writer, limits, nullptr, {});
    return allocations.load() - before;
}

TEST(CaptureLoop, ThePtpSourceAllocatesNothingPerPulse) {
    const std::size_t small = ptp_allocations_for(1'000);
    const std::size_t large = ptp_allocations_for(20'000);
    EXPECT_EQ(small, large) << "allocations grew with the number of pulses";
}

// A GPIO line's event fd stood in for by a pipe that each wait() refills with eight rising
// edges, one a second, as uAPI v1 or v2 records made on the fly: the gpio: source's reader of
// either libgpiod backend, in the capture loop, without a chip.
template <typename Record>
Record line_event(std::uint64_t edge) {
    const std::uint64_t stamp = 1'780'000'000'000'000'000 + edge * 1'000'000'000;
    Record event{};
    if constexpr (std::is_same_v<Record, gpioevent_data>) {
        event.timestamp = stamp;
        event.id = GPIOEVENT_EVENT_RISING_EDGE;
    } else {
        event.timestamp_ns = stamp;
        event.id = GPIO_V2_LINE_EVENT_RISING_EDGE;
        event.seqno = static_cast<std::uint32_t>(edge);
        event.line_seqno = static_cast<std::uint32_t>(edge);
    }
    return event;
}

template <typename Reader, typename Record>
class PipedGpioLine final : public PulseSource {
  public:
    PipedGpioLine() : fds_(open_pipe()), reader_(fds_[0], core::EdgeSelection::assert_only) {
        info_.spec = "gpio:pipe:0";
        info_.kind = "gpio";
    }
    ~PipedGpioLine() override {
        ::close(fds_[0]);
        ::close(fds_[1]);
    }
    WaitResult wait(core::Duration timeout) override {
        std::array<Record, 8> batch{};
        for (Record& record : batch) {
            record = line_event<Record>(++edges_);
        }
        EXPECT_EQ(::write(fds_[1], batch.data(), sizeof batch), static_cast<ssize_t>(sizeof batch));
        return reader_.wait(timeout);
    }
    std::size_t read(std::span<core::Pulse> out) override { return reader_.read(out, info_.spec); }
    const SourceInfo& info() const override { return info_; }

  private:
    static std::array<int, 2> open_pipe() {
        std::array<int, 2> fds{-1, -1};
        if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
            throw std::runtime_error("pipe2");
        }
        return fds;
    }
    std::array<int, 2> fds_;
    Reader reader_;
    SourceInfo info_;
    std::uint64_t edges_ = 0;
};

template <typename Line>
std::size_t gpio_allocations_for(std::uint64_t count) {
    testing::TempDir dir;
    Line source;
    store::CaptureWriter writer(dir.file("gpio.csv"), {{"label", "alloc"}}, false);
    CaptureLimits limits;
    limits.count = count;
    const std::size_t before = allocations.load();
    run_capture(source, writer, limits, nullptr, {});
    return allocations.load() - before;
}

TEST(CaptureLoop, TheGpioEventReadersAllocateNothingPerPulse) {
    using V1Line = PipedGpioLine<GpioEventReader, gpioevent_data>;
    using V2Line = PipedGpioLine<GpioV2EventReader, gpio_v2_line_event>;
    EXPECT_EQ(gpio_allocations_for<V1Line>(1'000), gpio_allocations_for<V1Line>(20'000))
        << "uAPI v1 (libgpiod 1.6): allocations grew with the number of pulses";
    EXPECT_EQ(gpio_allocations_for<V2Line>(1'000), gpio_allocations_for<V2Line>(20'000))
        << "uAPI v2 (libgpiod 2): allocations grew with the number of pulses";
}

}  // namespace
}  // namespace ppsbench::capture
