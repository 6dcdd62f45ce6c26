// SPDX-License-Identifier: GPL-2.0-or-later
// A capture is locked while it is written (flock on the writer's file), so nothing replaces it
// under a running capture and a reader can tell it is not finished.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::store {
namespace {

using testing::contains;

std::vector<core::Pulse> pulses(std::uint64_t n) {
    std::vector<core::Pulse> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        out.push_back({.sequence = i,
                       .timestamp_ns =
                           1'767'225'600'000'000'000 + static_cast<std::int64_t>(i) * 1'000'000'000,
                       .edge = core::Edge::assert_edge});
    }
    return out;
}

TEST(CaptureLock, AWriterWithOverwriteIsRefusedWhileAnotherWriterHoldsTheFile) {
    testing::TempDir dir;
    const auto path = dir.file("held.csv");
    CaptureWriter first(path, RunMeta{}, false);
    first.write(pulses(3));
    const std::string before = testing::read_text(path);
    try {
        CaptureWriter second(path, RunMeta{}, true);
        ADD_FAILURE() << "a second writer took a file being written";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(contains(e.what(), path + ": pid " + std::to_string(::getpid()))) << e.what();
        EXPECT_TRUE(contains(e.what(), "even --force does not replace")) << e.what();
    }
    EXPECT_EQ(testing::read_text(path), before) << "the refused writer emptied the file";
    first.close();
    CaptureWriter after(path, RunMeta{}, true);  // closed: --force replaces it as before
    after.close();
    EXPECT_TRUE(read_capture_file(path).pulses.empty());
}

TEST(CaptureLock, AReaderSeesWhoIsStillWritingAndReadsWhatIsComplete) {
    testing::TempDir dir;
    const auto path = dir.file("growing.csv");
    CaptureWriter writer(path, RunMeta{}, false);
    writer.write(pulses(5));
    const auto during = read_capture_file(path);
    ASSERT_TRUE(during.writer.has_value());
    EXPECT_TRUE(contains(*during.writer, "pid " + std::to_string(::getpid()))) << *during.writer;
    EXPECT_EQ(during.pulses.size(), 5U);
    // The reader's look took nothing: the writer goes on, and a new writer is still refused.
    writer.write(pulses(2));
    EXPECT_THROW(CaptureWriter(path, RunMeta{}, true), core::InputError);
    writer.close();
    EXPECT_FALSE(read_capture_file(path).writer.has_value());
}

// /dev/full stands in for a full disk in tests that may run at the same time: a device is shared.
TEST(CaptureLock, DevicesAreNotLockedSoTwoWritersMayShareOne) {
    CaptureWriter first("/dev/null", RunMeta{}, true);
    CaptureWriter second("/dev/null", RunMeta{}, true);
    first.close();
    second.close();
}

}  // namespace
}  // namespace ppsbench::store
