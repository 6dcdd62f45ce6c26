// SPDX-License-Identifier: GPL-2.0-or-later
// PackedPulses keeps a capture's pulses in 8 bytes and a bit each, its sequence numbers as runs
// (issue 26), and gives back exactly the Pulse values it was given, whatever their sequence
// numbers and timestamps, in whatever order they are read.
#include "ppsbench/core/packed_pulses.hpp"

#include <gtest/gtest.h>

#include "core/stamp_split.hpp"
#include "ppsbench/core/simd_target.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <thread>
#include <vector>

namespace ppsbench::core {
namespace {

std::vector<Pulse> read_back(const PackedPulses& packed) {
    std::vector<Pulse> out;
    for (const Pulse p : packed) {
        out.push_back(p);
    }
    return out;
}

void expect_exact(const std::vector<Pulse>& pulses) {
    const PackedPulses packed(pulses);
    ASSERT_EQ(packed.size(), pulses.size());
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        ASSERT_EQ(packed[i], pulses[i]) << "pulse " << i;
        ASSERT_EQ(packed.timestamp_ns(i), pulses[i].timestamp_ns);
        ASSERT_EQ(packed.sequence(i), pulses[i].sequence);
        ASSERT_EQ(packed.edge(i), pulses[i].edge);
    }
    EXPECT_EQ(packed.unpack(), pulses);
    EXPECT_EQ(read_back(packed), pulses);
    // Read in a random order, and back and forth between neighbours, as the analysis does.
    std::vector<std::size_t> order(pulses.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(pulses.size()));
    PackedPulses::SequenceCursor shuffled = packed.sequence_cursor();
    for (const std::size_t i : order) {
        ASSERT_EQ(packed.sequence(i), pulses[i].sequence) << "pulse " << i << ", shuffled";
        ASSERT_EQ(shuffled(i), pulses[i].sequence) << "pulse " << i << ", shuffled cursor";
    }
    PackedPulses::SequenceCursor pairs = packed.sequence_cursor();
    for (std::size_t i = 1; i < pulses.size(); ++i) {
        ASSERT_EQ(pairs(i), pulses[i].sequence) << "pulse " << i;
        ASSERT_EQ(pairs(i - 1), pulses[i - 1].sequence) << "pulse " << i - 1;
    }
    PackedPulses::SequenceCursor backwards = packed.sequence_cursor();
    for (std::size_t i = pulses.size(); i-- > 0;) {
        ASSERT_EQ(backwards(i), pulses[i].sequence) << "pulse " << i << ", backwards";
    }
    const bool one_edge = std::all_of(pulses.begin(), pulses.end(),
                                      [&](const Pulse& p) { return p.edge == pulses[0].edge; });
    EXPECT_EQ(packed.one_edge(), one_edge);
}

TEST(PackedPulses, GivesBackTheUsualCaptureExactlyIn12BytesAndABitAPulse) {
    std::vector<Pulse> pulses;
    for (std::uint64_t s = 1; s <= 1000; ++s) {
        pulses.push_back({s + (s > 500 ? 3 : 0),
                          1'767'225'600'000'000'000 + 1'000'000'000 * static_cast<std::int64_t>(s),
                          s % 2 == 0 ? Edge::clear_edge : Edge::assert_edge});
    }
    expect_exact(pulses);
    PackedPulses packed(pulses);
    // 8 for the timestamp, a bit for the edge (in 64-bit words), and two runs of sequence numbers.
    EXPECT_TRUE(packed.sequences_as_runs());
    EXPECT_LE(packed.capacity_bytes(), 8 * pulses.size() + pulses.size() / 8 + 8 + 2 * 16);
}

// A log without sequence numbers (all 0), or one whose numbers skip all the time, would need a
// run a pulse: those keep one number a pulse, never more than the 4 bytes of an offset (or 8 past
// 2^32), also when the skipping starts late in a long capture.
TEST(PackedPulses, SequenceNumbersThatSkipOftenAreKeptPerPulse) {
    std::vector<Pulse> zeros(5000, Pulse{0, 0, Edge::assert_edge});
    for (std::size_t i = 0; i < zeros.size(); ++i) {
        zeros[i].timestamp_ns = static_cast<std::int64_t>(i) * 1'000'000'000;
    }
    expect_exact(zeros);
    const PackedPulses packed(zeros);
    EXPECT_FALSE(packed.sequences_as_runs());
    EXPECT_LE(packed.capacity_bytes(), 12 * zeros.size() + zeros.size() / 8 + 8);

    std::mt19937_64 random(8);
    std::vector<Pulse> late(20000);
    std::uint64_t sequence = 7;
    for (std::size_t i = 0; i < late.size(); ++i) {
        sequence += i < 15000 ? 1 : 1 + random() % 3;
        late[i] = {sequence, static_cast<std::int64_t>(i), Edge::assert_edge};
    }
    expect_exact(late);
    EXPECT_FALSE(PackedPulses(late).sequences_as_runs());
    late.resize(15000);  // before the skipping: one run
    EXPECT_TRUE(PackedPulses(late).sequences_as_runs());
}

// counting_up_until() tells a scan how far each sequence number is the one before plus one
// (without passing 2^64 − 1): exactly, from the runs; one pulse at a time where the numbers are
// kept per pulse. Runs that skip, restart, repeat and wrap, read from every pulse.
TEST(PackedPulses, CountingUpUntilEndsWhereTheNumbersStopCountingUp) {
    std::mt19937_64 random(9);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<Pulse> pulses(1 + random() % 400);
        std::uint64_t sequence = trial % 3 == 0 ? ~std::uint64_t{0} - random() % 300 : 40;
        for (std::size_t i = 0; i < pulses.size(); ++i) {
            const auto r = random() % 100;
            sequence += r < (trial % 2 == 0 ? 2U : 30U) ? random() % 4 : 1;  // repeats, skips
            sequence = r == 99 ? random() % 10 : sequence;                   // restarts
            pulses[i] = {sequence, static_cast<std::int64_t>(i), Edge::assert_edge};
        }
        const PackedPulses packed(pulses);
        for (std::size_t i = 0; i < pulses.size(); ++i) {
            std::size_t end = i + 1;
            while (end < pulses.size() && pulses[end].sequence == pulses[end - 1].sequence + 1 &&
                   pulses[end].sequence > pulses[end - 1].sequence) {
                ++end;
            }
            const std::size_t got = packed.counting_up_until(i);
            if (packed.sequences_as_runs()) {
                ASSERT_EQ(got, end) << "trial " << trial << ", pulse " << i;
            } else {
                ASSERT_EQ(got, i + 1) << "trial " << trial << ", pulse " << i;
            }
        }
        EXPECT_EQ(packed.counting_up_until(pulses.size()), pulses.size());
    }
}

// Threads reading the same pulses at once (the analysis reads them on two), each with its own
// cursor or none, each get every sequence number right.
TEST(PackedPulses, ThreadsReadingAtOnceGetEverySequenceNumber) {
    std::vector<Pulse> pulses(200000);
    std::uint64_t sequence = 1;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        sequence += i % 97 == 0 ? 3 : 1;  // a skip every 97 pulses: about 2 000 runs
        pulses[i] = {sequence, static_cast<std::int64_t>(i), Edge::assert_edge};
    }
    const PackedPulses packed(pulses);
    ASSERT_TRUE(packed.sequences_as_runs());
    std::size_t wrong[2] = {0, 0};
    auto read = [&](int thread) {
        PackedPulses::SequenceCursor cursor = packed.sequence_cursor();
        for (int pass = 0; pass < 5; ++pass) {
            for (std::size_t k = 0; k < pulses.size(); ++k) {
                const std::size_t i = thread == 0 ? k : pulses.size() - 1 - k;
                wrong[thread] += packed.sequence(i) != pulses[i].sequence;
                wrong[thread] += cursor(i) != pulses[i].sequence;
            }
        }
    };
    std::thread forwards(read, 0);
    std::thread backwards(read, 1);
    forwards.join();
    backwards.join();
    EXPECT_EQ(wrong[0], 0U);
    EXPECT_EQ(wrong[1], 0U);
}

// The extremes of each field: the int64 timestamps at both ends, sequence numbers from 0 to 2^64 -
// 1, below the first one (a counter that restarts) and more than 2^32 above it, where every pulse
// keeps its uint64 from then on.
TEST(PackedPulses, GivesBackEveryFieldAtItsExtremes) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const std::int64_t low = std::numeric_limits<std::int64_t>::min();
    expect_exact({{5, big, Edge::clear_edge},
                  {6, low, Edge::assert_edge},
                  {7, 0, Edge::clear_edge},
                  {8, -1, Edge::assert_edge}});
    expect_exact({{0, 1, Edge::assert_edge}, {~std::uint64_t{0}, 2, Edge::clear_edge}});
    expect_exact(
        {{1000, 1, Edge::assert_edge}, {999, 2, Edge::assert_edge}, {1001, 3, Edge::assert_edge}});
    expect_exact({{10, 1, Edge::assert_edge},
                  {10 + (std::uint64_t{1} << 32) - 1, 2, Edge::assert_edge},
                  {10 + (std::uint64_t{1} << 32), 3, Edge::clear_edge},
                  {11, 4, Edge::assert_edge}});
    expect_exact({});
    // One edge over whole words of edge bits and a part word, then a different last edge.
    for (const Edge edge : {Edge::assert_edge, Edge::clear_edge}) {
        std::vector<Pulse> same(130, Pulse{1, 2, edge});
        expect_exact(same);
        same.back().edge = edge == Edge::clear_edge ? Edge::assert_edge : Edge::clear_edge;
        expect_exact(same);
        same[127].edge = same.back().edge;
        same.back().edge = edge;
        expect_exact(same);
    }
}

// Random pulses of every kind round-trip, and pushing one at a time equals packing a span.
TEST(PackedPulses, RandomPulsesRoundTrip) {
    std::mt19937_64 random(26);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<Pulse> pulses(random() % 300);
        const std::uint64_t spread = trial % 3 == 0 ? ~std::uint64_t{0} : 1000;
        std::uint64_t sequence = random();
        for (Pulse& p : pulses) {
            sequence += random() % 4 == 0 ? random() % spread : 1;
            p.sequence = sequence;
            p.timestamp_ns = static_cast<std::int64_t>(random());
            p.edge = random() % 2 == 0 ? Edge::assert_edge : Edge::clear_edge;
        }
        expect_exact(pulses);
        PackedPulses one_by_one;
        for (const Pulse& p : pulses) {
            one_by_one.push_back(p);
        }
        ASSERT_EQ(one_by_one.unpack(), pulses);
    }
}

// The capture reader's bulk append: pulses handed over a block at a time, as timestamps with the
// edge in bit 63 and the sequence numbers as runs, give the same pulses, the same choice of runs
// or numbers per pulse and the same one-edge flag as pushing them one by one.
// Random pulses of one of several kinds by `trial`: sequence numbers counting up with a skip
// now and then, skipping often, wide, or all 0; both edges, one edge, or (every 7th) all clear.
std::vector<Pulse> random_pulses(std::mt19937_64& random, int trial, std::size_t most) {
    std::vector<Pulse> pulses(random() % most);
    const int kind = trial % 5;  // counting up, skipping often, wide, one edge, zeros
    std::uint64_t sequence = kind == 2 ? random() : random() % 100;
    for (Pulse& p : pulses) {
        const bool skip = kind == 1 ? random() % 3 == 0 : random() % 200 == 0;
        sequence = kind == 4 ? 0 : sequence + (skip ? random() % (kind == 2 ? ~0ULL : 50) : 1);
        p.sequence = sequence;
        p.timestamp_ns = static_cast<std::int64_t>(random() >> 2);  // up to 2^62 - 1
        p.edge = kind == 3 || random() % 4 != 0 ? Edge::assert_edge : Edge::clear_edge;
    }
    if (trial % 7 == 0 && !pulses.empty()) {
        for (Pulse& p : pulses) {
            p.edge = Edge::clear_edge;
        }
    }
    return pulses;
}

PackedPulses pushed_one_by_one(std::span<const Pulse> pulses) {
    PackedPulses pushed;
    for (const Pulse& p : pulses) {
        pushed.push_back(p);
    }
    return pushed;
}

// Everything a reader can ask of `packed`, against the same pulses pushed one by one.
void expect_same(const PackedPulses& packed, const PackedPulses& pushed, int trial) {
    ASSERT_EQ(packed.unpack(), pushed.unpack()) << "trial " << trial;
    EXPECT_EQ(packed.sequences_as_runs(), pushed.sequences_as_runs()) << "trial " << trial;
    EXPECT_EQ(packed.one_edge(), pushed.one_edge()) << "trial " << trial;
    PackedPulses::SequenceCursor cursor = packed.sequence_cursor();
    for (std::size_t i = 0; i < pushed.size(); ++i) {
        ASSERT_EQ(packed[i], pushed[i]) << "trial " << trial << ", pulse " << i;
        ASSERT_EQ(cursor(i), pushed.sequence(i)) << "trial " << trial << ", pulse " << i;
        ASSERT_EQ(packed.counting_up_until(i), pushed.counting_up_until(i))
            << "trial " << trial << ", pulse " << i;
    }
}

TEST(PackedPulses, AppendingBlocksEqualsPushingEachPulse) {
    std::mt19937_64 random(32);
    for (int trial = 0; trial < 400; ++trial) {
        const std::vector<Pulse> pulses = random_pulses(random, trial, 2000);
        const PackedPulses pushed = pushed_one_by_one(pulses);
        PackedPulses appended;
        for (std::size_t first = 0; first < pulses.size();) {
            const std::size_t n = std::min<std::size_t>(1 + random() % 150, pulses.size() - first);
            std::vector<std::uint64_t> stamps;
            std::vector<SequenceRun> runs;
            for (std::size_t j = 0; j < n; ++j) {
                const Pulse& p = pulses[first + j];
                stamps.push_back(static_cast<std::uint64_t>(p.timestamp_ns) |
                                 (p.edge == Edge::clear_edge ? clear_stamp_bit : 0));
                // A run starts at each skip, at the block's start, and now and then without one.
                if (j == 0 || p.sequence != pulses[first + j - 1].sequence + 1 ||
                    random() % 50 == 0) {
                    runs.push_back({j, p.sequence});
                }
            }
            appended.append({stamps, runs});
            first += n;
        }
        ASSERT_EQ(appended.unpack(), pulses) << "trial " << trial;
        expect_same(appended, pushed, trial);
    }
}

// The joined parts of a rotated run: pulses cut anywhere (at word boundaries of the edge bits
// and between them, into empty parts too), each part packed on its own, appended in order, give
// what pushing every pulse gives, whatever the parts' sequence numbers and edges.
TEST(PackedPulses, AppendingPackedPartsEqualsPushingEachPulse) {
    std::mt19937_64 random(25);
    for (int trial = 0; trial < 600; ++trial) {
        std::vector<Pulse> pulses = random_pulses(random, trial, 3000);
        if (trial % 11 == 3) {
            // A part whose numbers are kept per pulse between parts that count up.
            for (std::size_t i = pulses.size() / 3; i < pulses.size() / 2; ++i) {
                pulses[i].sequence = random() % 5;
            }
        }
        std::vector<std::size_t> cuts{0, pulses.size()};
        const std::size_t parts = 1 + random() % 6;
        while (cuts.size() < parts + 1) {
            const std::size_t at = random() % 3 == 0 ? random() % (pulses.size() / 64 + 1) * 64
                                                     : random() % (pulses.size() + 1);
            cuts.push_back(std::min(at, pulses.size()));
        }
        std::sort(cuts.begin(), cuts.end());
        PackedPulses joined;
        for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
            const std::span<const Pulse> part(pulses.data() + cuts[p], cuts[p + 1] - cuts[p]);
            joined.append(pushed_one_by_one(part));
        }
        expect_same(joined, pushed_one_by_one(pulses), trial);
    }
}

// The stamps split two lanes at a time (SSE2) and one at a time give the same timestamps and
// edge words, at every length and alignment.
TEST(PackedPulses, TheStampSplitGivesTheSameOnEveryPath) {
    std::mt19937_64 random(63);
    for (std::size_t n = 0; n < 70; ++n) {
        for (std::size_t offset = 0; offset < 3; ++offset) {
            std::vector<std::uint64_t> stamps(n + offset);
            for (std::uint64_t& stamp : stamps) {
                stamp = random() >> (random() % 3);
            }
            std::vector<std::int64_t> one(n + offset, -1);
            const detail::StampEdges plain =
                detail::split_stamps_one_by_one(stamps.data() + offset, one.data() + offset, n);
            std::uint64_t any = 0;
            std::uint64_t all = ~std::uint64_t{0};
            for (std::size_t i = offset; i < n + offset; ++i) {
                ASSERT_EQ(one[i], static_cast<std::int64_t>(stamps[i] & ~clear_stamp_bit));
                any |= stamps[i];
                all &= stamps[i];
            }
            EXPECT_EQ(plain.any, any);
            EXPECT_EQ(plain.all, all);
#if PPSBENCH_HAVE_SSE2
            std::vector<std::int64_t> two(n + offset, -1);
            const detail::StampEdges lanes =
                detail::split_stamps_sse2(stamps.data() + offset, two.data() + offset, n);
            EXPECT_EQ(two, one) << n << " stamps";
            EXPECT_EQ(lanes.any, plain.any) << n << " stamps";
            EXPECT_EQ(lanes.all, plain.all) << n << " stamps";
#endif
        }
    }
}

}  // namespace
}  // namespace ppsbench::core
