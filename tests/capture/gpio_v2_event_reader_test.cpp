// SPDX-License-Identifier: GPL-2.0-or-later
// The uAPI v2 event reader (libgpiod 2's line requests) fed real `struct gpio_v2_line_event`
// records through a pipe, as the v1 reader is in gpio_event_reader_test.cpp: built and run on
// every release, whichever libgpiod backend is built. The sequence numbers are the kernel's
// per-line counter, so what a gap means is tested here, without a chip.
#include "../../src/capture/sources/gpio_v2_event_reader.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <array>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ppsbench::capture {
namespace {

using namespace std::chrono_literals;
constexpr auto rising = GPIO_V2_LINE_EVENT_RISING_EDGE;
constexpr auto falling = GPIO_V2_LINE_EVENT_FALLING_EDGE;
constexpr core::Edge assert_edge = core::Edge::assert_edge;
constexpr core::Edge clear_edge = core::Edge::clear_edge;

// A line request's fd stood in for by a pipe: the kernel writes whole records, so does this.
class V2EventPipe {
  public:
    V2EventPipe() {
        if (::pipe2(fds_, O_CLOEXEC) != 0) {
            throw std::runtime_error("pipe2");
        }
    }
    ~V2EventPipe() {
        ::close(fds_[0]);
        ::close(fds_[1]);
    }
    int reader() const { return fds_[0]; }
    void send(std::uint64_t timestamp_ns, std::uint32_t id, std::uint32_t line_seqno) {
        gpio_v2_line_event event{};
        event.timestamp_ns = timestamp_ns;
        event.id = id;
        event.offset = 17;
        event.seqno = line_seqno;  // one line per request: the request's counter is the line's
        event.line_seqno = line_seqno;
        ASSERT_EQ(::write(fds_[1], &event, sizeof event), static_cast<ssize_t>(sizeof event));
    }

  private:
    int fds_[2]{-1, -1};
};

TEST(GpioV2EventReader, ReadsTheKernelsStampsAndSequenceNumbers) {
    V2EventPipe pipe;
    GpioV2EventReader reader(pipe.reader(), core::EdgeSelection::assert_only);
    pipe.send(1'780'000'000'000'000'100, rising, 1);
    pipe.send(1'780'000'001'000'000'090, rising, 2);
    ASSERT_EQ(reader.wait(1s), WaitResult::ready);
    std::array<core::Pulse, 64> out{};
    ASSERT_EQ(reader.read(out, "gpio:test"), 2U);
    EXPECT_EQ(out[0], (core::Pulse{1, 1'780'000'000'000'000'100, assert_edge}));
    EXPECT_EQ(out[1], (core::Pulse{2, 1'780'000'001'000'000'090, assert_edge}));
}

TEST(GpioV2EventReader, OneEdgeKeepsTheKernelsGapsAsMissedPulses) {
    // Events 3 and 4 were dropped from the kernel's full buffer: the gap says two pulses were
    // seen and never read, as a PPS device's sequence numbers would.
    V2EventPipe pipe;
    GpioV2EventReader reader(pipe.reader(), core::EdgeSelection::clear_only);
    pipe.send(10, falling, 1);
    pipe.send(20, falling, 2);
    pipe.send(50, falling, 5);
    std::array<core::Pulse, 64> out{};
    ASSERT_EQ(reader.read(out, "gpio:test"), 3U);
    EXPECT_EQ(out[2], (core::Pulse{5, 50, clear_edge}));
}

TEST(GpioV2EventReader, ReadsInBatchesNoBiggerThanTheCallersBuffer) {
    V2EventPipe pipe;
    GpioV2EventReader reader(pipe.reader(), core::EdgeSelection::assert_only);
    for (std::uint32_t i = 1; i <= 5; ++i) {
        pipe.send(i * 1'000, rising, i);
    }
    std::array<core::Pulse, 3> small{};
    ASSERT_EQ(reader.read(small, "gpio:test"), 3U);
    ASSERT_EQ(reader.read(small, "gpio:test"), 2U);
    EXPECT_EQ(small[1].sequence, 5U);
}

TEST(GpioV2EventReader, TimesOutWhenTheLineIsQuiet) {
    V2EventPipe pipe;
    GpioV2EventReader reader(pipe.reader(), core::EdgeSelection::both);
    EXPECT_EQ(reader.wait(20ms), WaitResult::timeout);
}

// Both edges: line_seqno counts the events of both; each edge gets its own sequence.
std::vector<std::uint64_t> sequences_of(
    std::initializer_list<std::pair<core::Edge, std::uint32_t>> events) {
    EdgeSequences sequences(core::EdgeSelection::both);
    std::vector<std::uint64_t> out;
    for (const auto& [edge, line_seqno] : events) {
        out.push_back(sequences.next(edge, line_seqno));
    }
    return out;
}

TEST(EdgeSequences, BothEdgesAlternatingCountEachEdgeFromOne) {
    EXPECT_EQ(sequences_of({{assert_edge, 1}, {clear_edge, 2}, {assert_edge, 3}, {clear_edge, 4}}),
              (std::vector<std::uint64_t>{1, 1, 2, 2}));
}

TEST(EdgeSequences, UnreadEventsAreGivenToTheEdgesByAlternation) {
    // 4 (clear) and 5 (assert) were dropped: the next clear edge is its 3rd and the next assert
    // edge its 4th, so each edge's sequence shows the one pulse it missed.
    EXPECT_EQ(sequences_of({{assert_edge, 1},
                            {clear_edge, 2},
                            {assert_edge, 3},
                            {clear_edge, 6},
                            {assert_edge, 7}}),
              (std::vector<std::uint64_t>{1, 1, 2, 3, 4}));
}

TEST(EdgeSequences, EventsBeforeTheFirstReadCountToo) {
    // The reader started late: events 1-4 were dropped; the first read is the 3rd clear edge.
    EXPECT_EQ(sequences_of({{clear_edge, 5}, {assert_edge, 6}}),
              (std::vector<std::uint64_t>{3, 3}));
}

TEST(EdgeSequences, AGlitchOfTwoLikeEdgesIsCountedAsTheKernelReportedIt) {
    // The kernel reported two rising edges in a row (it missed the falling one in between): all
    // were read, so each edge's count is exact, and the assert edge shows no gap.
    EXPECT_EQ(sequences_of({{assert_edge, 1}, {assert_edge, 2}, {clear_edge, 3}}),
              (std::vector<std::uint64_t>{1, 2, 1}));
}

TEST(EdgeSequences, TheCounterWrapsWithoutAGap) {
    EdgeSequences sequences(core::EdgeSelection::both);
    sequences.next(assert_edge, 0xFFFF'FFFE);
    sequences.next(clear_edge, 0xFFFF'FFFF);
    const std::uint64_t before = sequences.next(assert_edge, 0);
    EXPECT_EQ(sequences.next(assert_edge, 2), before + 1) << "0 and 2: one clear edge between";
}

TEST(EdgeSequences, OneEdgeRequestedIsTheKernelsNumberAsItIs) {
    EdgeSequences sequences(core::EdgeSelection::assert_only);
    EXPECT_EQ(sequences.next(assert_edge, 41), 41U);
    EXPECT_EQ(sequences.next(assert_edge, 44), 44U);
}

}  // namespace
}  // namespace ppsbench::capture
