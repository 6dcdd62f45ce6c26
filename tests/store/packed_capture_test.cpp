// SPDX-License-Identifier: GPL-2.0-or-later
// read_packed_capture, the reader behind report/compare/gate's analysis (issue 26), reads what
// read_capture_file reads: the same pulses, notes, warnings and errors; only where the pulses
// are kept differs.
#include <gtest/gtest.h>

#include <fstream>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"

namespace ppsbench::store {
namespace {

using core::Edge;
using core::Pulse;
using testing::TempDir;

void expect_same_reading(const std::string& path) {
    const CaptureFile plain = read_capture_file(path);
    const PackedCapture packed = read_packed_capture(path);
    EXPECT_TRUE(packed.file.pulses.empty());
    EXPECT_EQ(packed.pulses.unpack(), plain.pulses);
    EXPECT_EQ(packed.file.meta, plain.meta);
    EXPECT_EQ(packed.file.warnings, plain.warnings);
    ASSERT_EQ(packed.file.notes.size(), plain.notes.size());
    for (std::size_t i = 0; i < plain.notes.size(); ++i) {
        EXPECT_EQ(packed.file.notes[i].tag, plain.notes[i].tag);
        EXPECT_EQ(packed.file.notes[i].after_pulses, plain.notes[i].after_pulses);
    }
}

TEST(PackedCapture, ReadsTheSamePulsesNotesAndWarnings) {
    TempDir dir;
    const auto path = dir.file("run.csv");
    std::vector<Pulse> pulses;
    for (std::uint64_t i = 0; i < 5000; ++i) {
        // Both edges, a missed pulse, a counter restart.
        const std::uint64_t sequence = i < 4000 ? i + 1 + (i > 100 ? 1 : 0) : i - 4000;
        pulses.push_back(
            {sequence, 1'767'225'600'000'000'000LL + static_cast<std::int64_t>(i) * 500'000'000LL,
             i % 2 == 0 ? Edge::assert_edge : Edge::clear_edge});
    }
    {
        CaptureWriter writer(path, {{"label", "packed"}}, false);
        writer.write(std::span(pulses).first(1234));
        writer.write_note("chrony", {{"rms_offset_ns", 440}});
        writer.write(std::span(pulses).subspan(1234));
        writer.write_note("end", {{"stop_reason", "count"}});
        writer.close();
    }
    expect_same_reading(path);
    EXPECT_EQ(read_packed_capture(path).pulses.unpack(), pulses);
    // A torn last line is a warning in both.
    std::ofstream(path, std::ios::app) << "5001,assert,17672256";
    expect_same_reading(path);
    EXPECT_EQ(read_packed_capture(path).file.warnings.size(), 1u);
}

TEST(PackedCapture, RefusesAMalformedLineWithItsNumberAsTheOtherReaderDoes) {
    TempDir dir;
    const auto path = dir.file("bad.csv");
    {
        CaptureWriter writer(path, {{"label", "bad"}}, false);
        writer.write(std::vector<Pulse>{{1, 1'000'000'000, Edge::assert_edge}});
        writer.close();
    }
    std::ofstream(path, std::ios::app) << "2,sideways,2000000000\n";
    std::string plain;
    std::string packed;
    try {
        (void)read_capture_file(path);
    } catch (const core::InputError& e) {
        plain = e.what();
    }
    try {
        (void)read_packed_capture(path);
    } catch (const core::InputError& e) {
        packed = e.what();
    }
    EXPECT_NE(plain.find("sideways"), std::string::npos) << plain;
    EXPECT_EQ(packed, plain);
    EXPECT_THROW((void)read_packed_capture(dir.file("missing.csv")), core::InputError);
}

}  // namespace
}  // namespace ppsbench::store
