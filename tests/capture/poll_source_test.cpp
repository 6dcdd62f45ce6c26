// SPDX-License-Identifier: GPL-2.0-or-later
// The polled-edge reference without hardware: a pin whose level flips at known times, read
// through a clock that advances a known amount per call, so every bracket can be checked
// against the true edge.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <vector>

#include "capture/sources/edge_finder.hpp"
#include "capture/sources/mem_level_reader.hpp"
#include "capture/sources/poll_source.hpp"
#include "capture/sources/poll_spec.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/random.hpp"

namespace ppsbench::capture {
namespace {

using namespace std::chrono_literals;
using detail::EdgeBracket;
using detail::WindowResult;

constexpr std::int64_t second = 1'000'000'000;
constexpr std::int64_t epoch = 1'767'225'600LL * second;

// Time moves only when the code under test reads the clock or the pin: `clock_cost` per clock
// read, `read_cost` per level read (the level is sampled half-way through it).
struct FakeTime final : detail::PollClock {
    std::int64_t t = epoch + second / 2;
    std::int64_t clock_cost = 30;
    std::int64_t now_ns() override {
        const std::int64_t now = t;
        t += clock_cost;
        return now;
    }
    bool sleep_until(std::int64_t realtime_ns) override {
        t = std::max(t, realtime_ns);
        return true;
    }
};

// A PPS pin: high for 100 ms from each edge, edges at epoch + k s + phase, except `missing`.
struct FakePin final : detail::LevelReader {
    FakeTime& time;
    std::int64_t phase_ns;
    std::int64_t read_cost = 400;
    std::set<std::int64_t> missing;
    std::int64_t reads = 0;
    FakePin(FakeTime& t, std::int64_t phase) : time(t), phase_ns(phase) {}
    std::int64_t edge(std::int64_t k) const { return epoch + k * second + phase_ns; }
    bool level() override {
        ++reads;
        time.t += read_cost / 2;
        const std::int64_t sample = time.t;
        time.t += read_cost - read_cost / 2;
        const std::int64_t k = (sample - epoch - phase_ns) / second;
        return !missing.contains(k) && sample >= edge(k) && sample < edge(k) + second / 10;
    }
};

TEST(PollWindow, BracketsTheEdgeAndHalvesTheBracketAsItsUncertainty) {
    core::Random random(3);
    for (int trial = 0; trial < 500; ++trial) {
        FakeTime time;
        FakePin pin(time, static_cast<std::int64_t>(random.uniform(0, 900'000)));
        pin.read_cost = 100 + static_cast<std::int64_t>(random.uniform(0, 2000));
        const std::int64_t edge = pin.edge(1);
        time.t = edge - static_cast<std::int64_t>(random.uniform(1'000, 100'000));
        const auto outcome = detail::poll_window(pin, time, true, edge + 200'000);
        ASSERT_EQ(outcome.result, WindowResult::found);
        const EdgeBracket& b = outcome.bracket;
        EXPECT_LE(b.before_ns, edge);
        EXPECT_GE(b.after_ns, edge);
        EXPECT_EQ(b.uncertainty_ns(), (b.after_ns - b.before_ns + 1) / 2);
        EXPECT_LE(std::abs(b.midpoint_ns() - edge), b.uncertainty_ns());
        // Two reads and their clock reads, at most: the old level's and the new one's.
        EXPECT_LE(b.after_ns - b.before_ns, 2 * (pin.read_cost + time.clock_cost));
        EXPECT_EQ(b.reads, pin.reads);
        EXPECT_EQ(b.read_interval_ns, pin.read_cost + time.clock_cost);
    }
}

TEST(PollWindow, SaysWhenItOpenedAfterTheEdgeOrClosedBeforeIt) {
    FakeTime time;
    FakePin pin(time, 5'000);
    time.t = pin.edge(1) + 1'000;  // already high
    EXPECT_EQ(detail::poll_window(pin, time, true, time.t + 200'000).result,
              WindowResult::already_new);
    time.t = pin.edge(2) - 500'000;
    EXPECT_EQ(detail::poll_window(pin, time, true, pin.edge(2) - 300'000).result,
              WindowResult::no_edge);
    // The falling edge (--edge clear) 100 ms later.
    time.t = pin.edge(3) + second / 10 - 20'000;
    const auto falling = detail::poll_window(pin, time, false, time.t + 100'000);
    ASSERT_EQ(falling.result, WindowResult::found);
    EXPECT_LE(falling.bracket.before_ns, pin.edge(3) + second / 10);
    EXPECT_GE(falling.bracket.after_ns, pin.edge(3) + second / 10);
}

TEST(PollPattern, PollsThePeriodsItNamesAndRefusesNonsense) {
    const detail::PollPattern alternate("10", "poll:x:1");
    EXPECT_TRUE(alternate.polled(0));
    EXPECT_FALSE(alternate.polled(1));
    EXPECT_EQ(alternate.next_after(0), 2U);
    const detail::PollPattern third("100", "poll:x:1");
    EXPECT_EQ(third.next_after(0), 3U);
    EXPECT_EQ(third.next_after(3), 6U);
    for (const char* bad : {"", "0", "00", "1x", "2"}) {
        EXPECT_THROW(detail::PollPattern(bad, "poll:x:1"), core::UsageError) << bad;
    }
}

struct Polled {
    std::vector<core::Pulse> pulses;
    std::vector<std::int64_t> uncertainty;
    std::vector<std::int64_t> read_interval;
    std::uint64_t missed = 0;
};

Polled run_poll(FakeTime& time, std::unique_ptr<FakePin> owned, const std::string& pattern,
                int waits) {
    PollSpec spec;
    spec.pattern = pattern;
    PollSource source("poll:fake:0", spec, {}, std::move(owned), time);
    EXPECT_TRUE(source.info().hardware_reference);
    EXPECT_EQ(source.info().clock, core::ClockId::realtime);
    EXPECT_EQ(source.extra_columns().size(), 2U);
    Polled polled;
    for (int i = 0; i < waits; ++i) {
        if (source.wait(1s) != WaitResult::ready) {
            continue;
        }
        core::Pulse pulse;
        EXPECT_EQ(source.read(std::span(&pulse, 1)), 1U);
        polled.pulses.push_back(pulse);
        polled.uncertainty.push_back(source.last_extras()[0]);
        polled.read_interval.push_back(source.last_extras()[1]);
    }
    polled.missed = source.missed_windows();
    return polled;
}

TEST(PollSource, SearchesOncePredictsThenPollsOnlyThePatternsPeriods) {
    for (const std::string pattern : {"10", "1", "100"}) {
        FakeTime time;
        auto pin = std::make_unique<FakePin>(time, 12'345);
        // The source owns (and destroys) the pin: keep what the checks need from it.
        const auto edge_of = [phase = pin->phase_ns](std::int64_t k) {
            return epoch + k * second + phase;
        };
        const std::int64_t read_cost = pin->read_cost;
        const auto polled = run_poll(time, std::move(pin), pattern, 40);
        ASSERT_GE(polled.pulses.size(), 10U) << pattern;
        const std::uint64_t step = pattern.size();
        for (std::size_t i = 0; i < polled.pulses.size(); ++i) {
            const auto& pulse = polled.pulses[i];
            EXPECT_EQ(pulse.sequence, 1 + i * step) << pattern << ": the pattern's periods";
            // The first edge found is period 0: one second after the search started.
            const std::int64_t edge = edge_of(static_cast<std::int64_t>(i * step) + 1);
            EXPECT_LE(std::abs(pulse.timestamp_ns - edge), polled.uncertainty[i]) << i;
            EXPECT_GT(polled.uncertainty[i], 0);
            EXPECT_EQ(polled.read_interval[i], read_cost + time.clock_cost);
        }
        EXPECT_EQ(polled.missed, 0U);
    }
}

TEST(PollSource, CountsAMissedWindowAndGoesOn) {
    FakeTime time;
    auto pin = std::make_unique<FakePin>(time, 70'000);
    pin->missing = {5, 6};  // periods 4 and 5 after the first edge: 4 is polled ("10")
    const auto polled = run_poll(time, std::move(pin), "10", 30);
    EXPECT_EQ(polled.missed, 1U);
    std::vector<std::uint64_t> sequences;
    for (const auto& p : polled.pulses) {
        sequences.push_back(p.sequence);
    }
    ASSERT_GE(sequences.size(), 5U);
    EXPECT_EQ(std::vector<std::uint64_t>(sequences.begin(), sequences.begin() + 5),
              (std::vector<std::uint64_t>{1, 3, 7, 9, 11}));
}

TEST(PollSource, FindsTheEdgeAgainAfterItWandersOutOfTheWindow) {
    FakeTime time;
    auto pin = std::make_unique<FakePin>(time, 100'000);
    FakePin& view = *pin;
    PollSpec spec;
    PollSource source("poll:fake:0", spec, {}, std::move(pin), time);
    std::vector<core::Pulse> pulses;
    for (int i = 0; i < 60; ++i) {
        if (i == 12) {
            view.phase_ns += 400'000;  // a 400 µs step: beyond the 200 µs window
        }
        if (source.wait(1s) == WaitResult::ready) {
            core::Pulse p;
            source.read(std::span(&p, 1));
            pulses.push_back(p);
        }
    }
    EXPECT_GE(source.missed_windows(), 3U);
    ASSERT_GE(pulses.size(), 8U);
    const auto& last = pulses.back();
    const std::int64_t k = (last.timestamp_ns - epoch - view.phase_ns + second / 2) / second;
    EXPECT_LE(std::abs(last.timestamp_ns - view.edge(k)), 2'000) << "locked on the new phase";
    EXPECT_EQ(last.sequence - pulses.front().sequence, static_cast<std::uint64_t>(k - 1))
        << "periods counted from the first edge across the search";
}

TEST(PollSpec, NamesTheRegisterOfEachPresetAndRefusesPinsOutsideIt) {
    const auto low = parse_poll_spec("bcm2835:18");
    EXPECT_EQ(low.device, "/dev/gpiomem");
    EXPECT_EQ(low.offset, 0x34U);
    EXPECT_EQ(low.bit, 18U);
    const auto high = parse_poll_spec("bcm2835:40");
    EXPECT_EQ(high.offset, 0x38U);
    EXPECT_EQ(high.bit, 8U);
    const auto pi5 = parse_poll_spec("rp1:27,pattern=100,window=50us");
    EXPECT_EQ(pi5.device, "/dev/gpiomem0");
    EXPECT_EQ(pi5.offset, 0x1000cU);
    EXPECT_EQ(pi5.bit, 27U);
    EXPECT_EQ(pi5.pattern, "100");
    EXPECT_EQ(pi5.window, 50us);
    const auto mem = parse_poll_spec("mem:/dev/gpiomem3,offset=0x1000c,bit=4");
    EXPECT_EQ(mem.offset, 0x1000cU);
    const auto line = parse_poll_spec("gpiochip0:18");
    EXPECT_EQ(line.backend, PollSpec::Backend::gpio_line);
    EXPECT_EQ(line.line, "18");
    for (const char* bad : {"bcm2835:54", "rp1:28", "rp1:x", "mem:/dev/gpiomem0,bit=3",
                            "mem:/dev/gpiomem0,offset=3,bit=1", "mem:/dev/gpiomem0,offset=0,bit=32",
                            "gpiochip0:18,colour=red", "gpiochip0", "bcm2835:4,offset=8",
                            "gpiochip0:18,window=1s", "gpiochip0:18,window=1ms,window=2ms"}) {
        try {
            parse_poll_spec(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const core::UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("--source poll:"), std::string::npos) << e.what();
        }
    }
}

// poll:mem: on a real mapping: a regular file standing in for /dev/gpiomem0, through the
// tests-only door; the same file through the command line's door is refused.
TEST(MemLevelReader, ReadsTheBitOfTheMappedRegisterAsItChanges) {
    const auto path =
        std::filesystem::temp_directory_path() / ("ppsbench-gpiomem-" + std::to_string(getpid()));
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, 0x11000), 0);
    const auto write_word = [&](std::uint32_t word) {
        ASSERT_EQ(pwrite(fd, &word, sizeof word, 0x1000c), static_cast<ssize_t>(sizeof word));
    };
    write_word(1U << 5);
    using detail::MemLevelReader;
    MemLevelReader bit5("poll:rp1:5", path, 0x1000c, 5,
                        MemLevelReader::Devices::any_file_for_tests);
    MemLevelReader bit4("poll:rp1:4", path, 0x1000c, 4,
                        MemLevelReader::Devices::any_file_for_tests);
    EXPECT_TRUE(bit5.level());
    EXPECT_FALSE(bit4.level());
    write_word(1U << 4);  // the shared mapping sees the change, as it sees the pin's
    EXPECT_FALSE(bit5.level());
    EXPECT_TRUE(bit4.level());
    try {
        MemLevelReader("poll:mem:x", path, 0x1000c, 5);
        ADD_FAILURE() << "a regular file was taken for a gpiomem device";
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("is not a gpiomem device"), std::string::npos)
            << e.what();
    }
    try {
        MemLevelReader("poll:rp1:5", "/nonexistent/gpiomem0", 0x1000c, 5);
        ADD_FAILURE();
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no such device"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(detail::is_gpiomem_device(path));
    ::close(fd);
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace ppsbench::capture
