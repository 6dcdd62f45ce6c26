// SPDX-License-Identifier: GPL-2.0-or-later
// A --rotate seam that cannot open its next file (the name is taken: a second monitor on the
// same pattern, a clock stepped back) stops the run, and loses nothing: the batch that crossed
// the seam is in the file still open, which the run's end note then closes as failed.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "ppsbench/core/clock.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/session/capture_files.hpp"
#include "ppsbench/session/run_session.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::session {
namespace {

using testing::contains;
using testing::TempDir;

std::vector<core::Pulse> sequence_run(std::uint64_t from, std::uint64_t to) {
    std::vector<core::Pulse> batch;
    for (std::uint64_t s = from; s <= to; ++s) {
        batch.push_back(core::Pulse{s, 1'780'000'000'000'000'000 + static_cast<std::int64_t>(s)});
    }
    return batch;
}

TEST(RotationSeam, AFailedSeamKeepsTheBatchThatCrossedItInTheOpenFile) {
    TempDir dir;
    const std::string pattern = dir.file("r-%H%M%S.csv");
    store::RunMeta meta;
    meta.source = "sim:hardirq";
    CaptureFiles files(pattern, meta, false, std::chrono::seconds{1});
    const std::string first = files.current_path();
    files.write(sequence_run(1, 3));
    // Every name of the next ten seconds taken, as another run on the same pattern would.
    const std::int64_t now = core::realtime_now_ns();
    for (int k = 1; k <= 10; ++k) {
        const auto taken = rotated_file_name(pattern, now + k * 1'000'000'000LL);
        if (taken != first) {
            std::ofstream{taken} << "another run's file\n";
        }
    }
    // Past the next seam (a multiple of 1 s since the epoch).
    const std::int64_t seam = (now / 1'000'000'000 + 1) * 1'000'000'000;
    std::this_thread::sleep_for(std::chrono::nanoseconds(seam - now + 50'000'000));
    try {
        files.write(sequence_run(4, 6));
        FAIL() << "the seam's file exists; the write should have stopped the run";
    } catch (const core::MeasurementError& e) {
        EXPECT_TRUE(contains(e.what(), "every pulse so far is in " + first)) << e.what();
    }
    EXPECT_EQ(files.pulses_written(), 6U) << "the crossing batch is counted where it is";
    capture::CaptureProgress progress;
    progress.pulses = 3;  // the capture loop never counted the batch whose write threw
    store::EndRecord end = end_record(progress, 0, "the seam failed");
    EXPECT_EQ(end.stop_reason, store::StopReason::failed);
    end.pulses = files.pulses_written();
    files.finish(end);

    const auto file = store::read_capture_file(first);
    ASSERT_EQ(file.pulses.size(), 6U);
    for (std::uint64_t i = 0; i < 6; ++i) {
        EXPECT_EQ(file.pulses[i].sequence, i + 1);
    }
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_EQ(file.end_record()->at("stop_reason"), "failed");
    EXPECT_EQ(file.end_record()->at("pulses"), 6);
    EXPECT_EQ(files.paths(), std::vector<std::string>{first});
}

}  // namespace
}  // namespace ppsbench::session
