// SPDX-License-Identifier: GPL-2.0-or-later
// No GPIO chip exists on CI machines, so the event reader is fed real uAPI v1 records through a
// pipe: the same read(2) of whole `struct gpioevent_data` records the kernel's line fd gives.
// The libgpiod line request itself is exercised in the real-kernel lab (docs/lab.md).
#include "../../src/capture/sources/gpio_event_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace ppsbench::capture {
namespace {

using namespace std::chrono_literals;

class Pipe {
  public:
    Pipe() {
        if (::pipe2(fds_, O_CLOEXEC) != 0) {
            throw std::runtime_error("pipe2");
        }
    }
    ~Pipe() {
        close_writer();
        ::close(fds_[0]);
    }
    int reader() const { return fds_[0]; }
    void send(std::uint64_t timestamp, std::uint32_t id) {
        const gpioevent_data event{timestamp, id};
        ASSERT_EQ(::write(fds_[1], &event, sizeof event), static_cast<ssize_t>(sizeof event));
    }
    void close_writer() {
        if (fds_[1] >= 0) {
            ::close(fds_[1]);
            fds_[1] = -1;
        }
    }

  private:
    int fds_[2]{-1, -1};
};

TEST(GpioEventReader, ReadsABatchOfEventsIntoPulses) {
    Pipe pipe;
    GpioEventReader reader(pipe.reader(), core::EdgeSelection::both);
    pipe.send(1'000'000'000, GPIOEVENT_EVENT_RISING_EDGE);
    pipe.send(1'100'000'000, GPIOEVENT_EVENT_FALLING_EDGE);
    pipe.send(2'000'000'000, GPIOEVENT_EVENT_RISING_EDGE);
    ASSERT_EQ(reader.wait(1s), WaitResult::ready);
    std::array<core::Pulse, 64> out{};
    ASSERT_EQ(reader.read(out, "gpio:test"), 3U);
    EXPECT_EQ(out[0], (core::Pulse{1, 1'000'000'000, core::Edge::assert_edge}));
    EXPECT_EQ(out[1], (core::Pulse{1, 1'100'000'000, core::Edge::clear_edge}));
    EXPECT_EQ(out[2], (core::Pulse{2, 2'000'000'000, core::Edge::assert_edge}));
}

TEST(GpioEventReader, KeepsOnlyTheRequestedEdgeButCountsBoth) {
    Pipe pipe;
    GpioEventReader reader(pipe.reader(), core::EdgeSelection::assert_only);
    pipe.send(10, GPIOEVENT_EVENT_RISING_EDGE);
    pipe.send(20, GPIOEVENT_EVENT_FALLING_EDGE);
    pipe.send(30, GPIOEVENT_EVENT_RISING_EDGE);
    std::array<core::Pulse, 64> out{};
    ASSERT_EQ(reader.read(out, "gpio:test"), 2U);
    EXPECT_EQ(out[1].timestamp_ns, 30);
    EXPECT_EQ(out[1].sequence, 2U);
    EXPECT_EQ(reader.events_read(), 3U);
}

TEST(GpioEventReader, KeepsUpWithAKilohertzSignalInBatchesOfSixtyFour) {
    // 10 000 edges queued (10 s of a 1 kHz signal, as the kernel would buffer them while the
    // reader was descheduled), then drained: nothing lost, nothing reordered.
    Pipe pipe;
    ::fcntl(pipe.reader(), F_SETPIPE_SZ, 1 << 20);
    GpioEventReader reader(pipe.reader(), core::EdgeSelection::assert_only);
    constexpr std::uint64_t edges = 10'000;
    for (std::uint64_t i = 0; i < edges; ++i) {
        pipe.send(i * 1'000'000, GPIOEVENT_EVENT_RISING_EDGE);
    }
    pipe.close_writer();
    std::array<core::Pulse, 64> out{};
    std::uint64_t seen = 0;
    std::size_t batches = 0;
    while (reader.wait(100ms) == WaitResult::ready) {
        const std::size_t n = reader.read(out, "gpio:test");
        if (n == 0) {
            break;
        }
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(out[i].timestamp_ns, static_cast<std::int64_t>(seen * 1'000'000));
            ++seen;
        }
        ++batches;
    }
    EXPECT_EQ(seen, edges);
    EXPECT_LE(batches, edges / 64 + 1);
}

TEST(GpioEventReader, TimesOutWhenTheLineIsQuiet) {
    Pipe pipe;
    GpioEventReader reader(pipe.reader(), core::EdgeSelection::both);
    EXPECT_EQ(reader.wait(20ms), WaitResult::timeout);
}

}  // namespace
}  // namespace ppsbench::capture
