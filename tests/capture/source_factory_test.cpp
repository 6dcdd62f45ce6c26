// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/capture/source_factory.hpp"

#include <gtest/gtest.h>

#include "cli.hpp"
#include "fake_source.hpp"
#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::capture {
namespace {

std::string open_error_of(const std::string& spec) {
    try {
        open_source(spec, {});
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SourceFactory, UnknownOrMissingSchemesListTheKnownOnes) {
    EXPECT_NE(open_error_of("shm:0").find("unknown scheme 'shm'; use one of pps:/dev/pps0, "
                                          "gpio:gpiochip0:17, ptp:/dev/ptp0"),
              std::string::npos);
    EXPECT_NE(open_error_of("stock.csv").find("missing scheme"), std::string::npos);
    EXPECT_NE(open_error_of("pps:").find("nothing after 'pps:'"), std::string::npos);
}

TEST(PpsDeviceSource, ANonexistentDeviceSaysHowToFindOne) {
    const auto message = open_error_of("pps:/dev/pps-does-not-exist");
    EXPECT_NE(message.find("/dev/pps-does-not-exist: no such PPS device"), std::string::npos)
        << message;
    EXPECT_NE(message.find("/sys/class/pps"), std::string::npos) << message;
}

TEST(PpsDeviceSource, ABarePathIsTakenAsAPpsDevice) {
    EXPECT_NE(open_error_of("/dev/pps-does-not-exist").find("no such PPS device"),
              std::string::npos);
}

TEST(PpsDeviceSource, AFileThatIsNotAPpsDeviceIsNamed) {
    EXPECT_NE(open_error_of("pps:/dev/null").find("/dev/null: not a PPS device"),
              std::string::npos);
    testing::TempDir dir;
    testing::write_text(dir.file("plain"), "x");
    EXPECT_NE(open_error_of("pps:" + dir.file("plain")).find("not a PPS device"),
              std::string::npos);
}

TEST(ReplaySource, AMissingFileIsAnInputError) {
    EXPECT_THROW(open_source("replay:/nonexistent.csv", {}), core::InputError);
}

// Each row of the source table declares the options its source reads (as chrony's refclock
// drivers list theirs); `run` refuses the others.
TEST(SourceTable, EachSourceDeclaresTheOptionsItReads) {
    for (const char* spec : {"pps:/dev/pps0", "gpio:gpiochip0:17", "ptp:/dev/ptp0",
                             "poll:gpiochip0:18", "replay:a.csv", "sim:threaded"}) {
        EXPECT_TRUE(source_reads(spec, "edge")) << spec;
        EXPECT_TRUE(source_reads(spec, "period")) << spec;
    }
    EXPECT_EQ(sources_reading("bias"), "gpio:");
    EXPECT_EQ(sources_reading("seed"), "sim:");
    EXPECT_EQ(sources_reading("pace"), "replay: and sim:");
    EXPECT_EQ(sources_reading("edge"), "pps:, gpio:, ptp:, poll:, replay: and sim:");
    EXPECT_FALSE(source_reads("poll:gpiochip0:18", "bias")) << "a polled line keeps its bias";
    EXPECT_FALSE(source_reads("sim:threaded", "bias"));
    EXPECT_FALSE(source_reads("/dev/pps0", "seed")) << "a bare device path is a pps: source";
    EXPECT_TRUE(source_reads("shm:0", "bias"))
        << "no known scheme: open_source says so, not a complaint about --bias";
}

std::vector<core::Pulse> first_pulses(const std::string& spec, const SourceOptions& options) {
    auto source = open_source(spec, options);
    fakes::VectorSink sink;
    CaptureLimits limits;
    limits.count = 200;
    run_capture(*source, sink, limits, nullptr);
    return sink.pulses_;
}

// Metamorphic: an option a source does not declare changes none of its pulses, and one it
// declares does, so the table says what the sources really do.
TEST(SourceTable, WhatASourceDoesNotDeclareChangesNothingAndWhatItDeclaresDoes) {
    SourceOptions other;
    other.bias = "pull-up";
    other.seed = 99;
    const auto sim = first_pulses("sim:threaded", {});
    SourceOptions bias_only;
    bias_only.bias = "pull-up";
    EXPECT_EQ(first_pulses("sim:threaded", bias_only), sim) << "sim: does not read --bias";
    EXPECT_NE(first_pulses("sim:threaded", other), sim) << "sim: reads --seed";

    testing::TempDir dir;
    const auto file = dir.file("replayed.csv");
    {
        store::RunMeta meta;
        meta.source = "sim:threaded";
        store::CaptureWriter writer(file, meta, false);
        writer.write(sim);
        writer.write_end(store::EndRecord{});
        writer.close();
    }
    EXPECT_EQ(first_pulses("replay:" + file, other), first_pulses("replay:" + file, {}))
        << "replay: reads neither --bias nor --seed";
}

}  // namespace
}  // namespace ppsbench::capture
