// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/run_record.hpp"

#include <gtest/gtest.h>

namespace ppsbench::store {
namespace {

using namespace std::chrono_literals;

RunMeta live_run() {
    RunMeta meta;
    meta.label = "rt";
    meta.source = "gpio:gpiochip0:17";
    meta.source_kind = "gpio";
    meta.edges = core::EdgeSelection::both;
    meta.period = 500ms;
    meta.clock = core::ClockId::monotonic;
    meta.start_realtime_ns = 1'767'225'600'000'000'123;
    meta.host = "pi";
    meta.command_line = std::vector<std::string>{"--source", "gpio:gpiochip0:17"};
    meta.capture_process = CaptureProcess{
        .sched_fifo_priority = 80, .cpu = {}, .mlock = true, .cpu_dma_latency_us = {}};
    meta.planned_count = 600;
    meta.dual = DualLink{.path = "A",
                         .peer_source = "pps:/dev/pps0",
                         .peer_file = "d-2.csv",
                         .peer_is_reference = false,
                         .run_id = "0123456789abcdef0123456789abcdef"};
    return meta;
}

TEST(RunMeta, WritesTheKeysReadersKnow) {
    const auto json = to_json(live_run());
    EXPECT_EQ(json.at("period_ns"), 500'000'000);
    EXPECT_EQ(json.at("clock"), "monotonic");
    EXPECT_EQ(json.at("edge"), "both");
    EXPECT_EQ(json.at("start_time"), "2026-01-01T00:00:00.000000123Z");
    EXPECT_EQ(json.at("capture_process"),
              (nlohmann::json{{"sched_fifo_priority", 80}, {"mlock", true}}));
    EXPECT_EQ(json.at("dual").at("peer_file"), "d-2.csv");
    EXPECT_EQ(json.at("dual").at("run_id"), "0123456789abcdef0123456789abcdef");
    EXPECT_FALSE(json.contains("kind")) << "only a latency run says what kind it is";
    EXPECT_FALSE(json.contains("import"));
}

TEST(RunMeta, ReadsBackWhatItWrote) {
    const auto json = to_json(live_run());
    EXPECT_EQ(to_json(run_meta_from_json(json)), json);
    const auto back = run_meta_from_json(json);
    EXPECT_EQ(back.period, 500ms);
    EXPECT_EQ(back.clock, core::ClockId::monotonic);
    EXPECT_EQ(back.edges, core::EdgeSelection::both);
}

TEST(RunMeta, ACpuLatencyHoldIsRecordedOnlyWhenOneWasHeld) {
    RunMeta meta = live_run();
    EXPECT_FALSE(to_json(meta).at("capture_process").contains("cpu_dma_latency_us"));
    meta.capture_process->cpu_dma_latency_us = 0;  // 0 µs is a hold, not its absence
    const auto json = to_json(meta);
    EXPECT_EQ(json.at("capture_process").at("cpu_dma_latency_us"), 0);
    EXPECT_EQ(run_meta_from_json(json).capture_process->cpu_dma_latency_us, 0U);
    auto negative = json;
    negative["capture_process"]["cpu_dma_latency_us"] = -1;
    EXPECT_FALSE(run_meta_from_json(negative).capture_process->cpu_dma_latency_us)
        << "a value the kernel could not have held is not read as one";
}

TEST(RunMeta, AnImportShowsItsStartToTheSecond) {
    RunMeta meta;
    meta.start_realtime_ns = 1'767'225'600'400'000'000;
    meta.start_time_precision = core::UtcPrecision::seconds;
    meta.import = nlohmann::json{{"format", "chrony-refclocks"}};
    // As the importer writes it: chrony's log has no kernel sequence numbers.
    meta.sequences = core::SequenceEvidence::synthetic;
    const auto json = to_json(meta);
    EXPECT_EQ(json.at("start_time"), "2026-01-01T00:00:00Z");
    EXPECT_FALSE(json.contains("host"));
    EXPECT_EQ(to_json(run_meta_from_json(json)), json);
}

TEST(RunMeta, OldOrHandMadeMetadataKeepsTheDefaults) {
    const auto meta =
        run_meta_from_json({{"label", "x"}, {"period_ns", "one second"}, {"clock", "sundial"}});
    EXPECT_EQ(meta.label, "x");
    EXPECT_EQ(meta.period, 1s);
    EXPECT_EQ(meta.clock, core::ClockId::realtime);
    EXPECT_FALSE(meta.simulated);
}

// Found by fuzz/capture_reader_fuzz: a number the field's type cannot hold was cast (1.8e35 into
// an int64 is undefined behaviour; -1 into a count wrapped to 2^64 - 1). It is mistyped instead.
TEST(RunMeta, ANumberTheFieldCannotHoldKeepsTheDefault) {
    const auto meta = run_meta_from_json({{"label", "x"},
                                          {"start_realtime_ns", 1.796e35},
                                          {"period_ns", -1e300},
                                          {"planned_count", -1}});
    EXPECT_EQ(meta.start_realtime_ns, RunMeta{}.start_realtime_ns);
    EXPECT_EQ(meta.period, 1s);
    EXPECT_EQ(meta.planned_count, RunMeta{}.planned_count);
    EXPECT_EQ(run_meta_from_json({{"start_realtime_ns", 1.5e18}}).start_realtime_ns,
              1'500'000'000'000'000'000)
        << "a whole float in range is still read";
}

TEST(EndRecord, RoundTripsEveryVariant) {
    EndRecord run;
    run.stop_reason = StopReason::interrupted;
    run.pulses = 10;
    run.missed_pulses = 1;
    run.timeouts = 0;
    run.elapsed = 10s;
    run.end_realtime_ns = 1'767'225'600'000'000'000;
    run.end_time_precision = core::UtcPrecision::seconds;
    run.signal = 2;
    EndRecord latency;
    latency.latency = LatencyCounts{.edges_driven = 4, .cpu_idle_fraction = 0.5};
    EndRecord import;
    import.skipped_lines = 3;
    for (const auto& end : {run, latency, import}) {
        const auto json = to_json(end);
        EXPECT_EQ(to_json(end_record_from_json(json)), json) << json.dump();
    }
    EXPECT_EQ(to_json(run).at("end_time"), "2026-01-01T00:00:00Z");
    EXPECT_EQ(to_json(run).at("stop_reason"), "interrupted");
}

TEST(RunMeta, ARotatedFileNamesItsPlaceInTheChain) {
    RunMeta meta = live_run();
    meta.rotation = Rotation{.run_id = "0123456789abcdef0123456789abcdef",
                             .index = 2,
                             .interval = 1h,
                             .previous_file = "pps-0100.csv"};
    const auto json = to_json(meta);
    EXPECT_EQ(json.at("rotation"), (nlohmann::json{{"run_id", "0123456789abcdef0123456789abcdef"},
                                                   {"index", 2},
                                                   {"interval_ns", 3'600'000'000'000},
                                                   {"previous_file", "pps-0100.csv"}}));
    EXPECT_EQ(to_json(run_meta_from_json(json)), json);
    meta.rotation = Rotation{.run_id = {}, .index = 0, .interval = 1h, .previous_file = {}};
    EXPECT_FALSE(to_json(meta).at("rotation").contains("previous_file")) << "the first file";
    EXPECT_FALSE(to_json(meta).at("rotation").contains("run_id")) << "as files from before it";
}

TEST(EndRecord, ARotatedFileSaysWhereTheRunWentOn) {
    EndRecord seam;
    seam.stop_reason = StopReason::rotated;
    seam.pulses = 7200;
    seam.rotation = RotatedFileEnd{.pulses_in_file = 3600, .next_file = "b.csv", .files = {}};
    EndRecord last;
    last.stop_reason = StopReason::duration_elapsed;
    last.pulses = 9000;
    last.rotation = RotatedFileEnd{.pulses_in_file = 1800, .next_file = {}, .files = 3};
    for (const auto& end : {seam, last}) {
        const auto json = to_json(end);
        EXPECT_EQ(to_json(end_record_from_json(json)), json) << json.dump();
    }
    EXPECT_EQ(to_json(seam).at("stop_reason"), "rotated");
    EXPECT_EQ(to_json(seam).at("next_file"), "b.csv");
    EXPECT_EQ(to_json(last).at("files"), 3);
    EXPECT_FALSE(to_json(EndRecord{}).contains("pulses_in_file")) << "a file of a plain run";
}

}  // namespace
}  // namespace ppsbench::store
