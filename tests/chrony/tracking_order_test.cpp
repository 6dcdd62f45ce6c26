// SPDX-License-Identifier: GPL-2.0-or-later
// Rotated tracking.log files given newest first (the order `ls tracking.log*` lists them) are
// read oldest first, with a note, as the refclocks.log and peerstats readers do (issue 39): the
// order the files are named in must not change a single figure, restarts included.
#include <gtest/gtest.h>

#include <sstream>

#include "ppsbench/chrony/logs.hpp"

namespace ppsbench::chrony {
namespace {

constexpr const char* banner_block =
    "===========================================================================\n"
    "   Date (UTC) Time     IP Address   St   Freq ppm   Skew ppm     Offset L Co  Offset sd "
    "Rem. corr. Root delay Root disp. Max. error\n"
    "===========================================================================\n";

std::string entry(const std::string& time, const std::string& offset) {
    return "2024-05-01 " + time + " PPS  1  -1.222  0.500 " + offset +
           " N  1  1.151e-06 -0.000e+00  1.000e-09  6.890e-04  1.500e+00\n";
}

// Two entries between banners (logbanner 2); the newer file's second banner comes after one
// entry, out of its cycle: a chronyd restart, found from where the banners stand among the
// entries, so the files' banners must move with their entries.
const std::string older = std::string(banner_block) + entry("10:00:00", "1.000e-06") +
                          entry("10:00:16", "-3.000e-06") + banner_block +
                          entry("10:00:32", "2.000e-06") + entry("10:00:48", "5.000e-07");
const std::string newer = std::string(banner_block) + entry("10:01:04", "4.000e-06") +
                          banner_block + entry("10:01:20", "-2.000e-06") +
                          entry("10:01:36", "1.000e-06") + banner_block +
                          entry("10:01:52", "3.000e-06");

TrackingImport read_in_order(const std::vector<std::pair<std::string, std::string>>& files) {
    TrackingLogReader reader({.strict = true, .logbanner = 2});
    for (const auto& [name, text] : files) {
        std::istringstream in(text);
        reader.read(in, name);
    }
    return reader.finish();
}

TEST(TrackingOrder, FilesNamedNewestFirstGiveTheSameEntriesAndRestarts) {
    const auto forward = read_in_order({{"tracking.log.1", older}, {"tracking.log", newer}});
    const auto backward = read_in_order({{"tracking.log", newer}, {"tracking.log.1", older}});
    ASSERT_EQ(forward.entries.size(), 8U);
    ASSERT_EQ(backward.entries.size(), forward.entries.size());
    for (std::size_t i = 0; i < forward.entries.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(backward.entries[i].time_ns, forward.entries[i].time_ns);
        EXPECT_EQ(backward.entries[i].rms_offset_ns, forward.entries[i].rms_offset_ns);
        EXPECT_EQ(backward.entries[i].process, forward.entries[i].process);
    }
    ASSERT_EQ(forward.restarts.size(), 1U);
    ASSERT_EQ(backward.restarts.size(), 1U);
    EXPECT_EQ(backward.restarts[0].file, "tracking.log");
    EXPECT_EQ(backward.restarts[0].line, forward.restarts[0].line);
    EXPECT_EQ(backward.restarts[0].evidence, forward.restarts[0].evidence);
    EXPECT_TRUE(forward.notes.empty());
    ASSERT_EQ(backward.notes.size(), 1U);
    EXPECT_EQ(backward.notes[0],
              "read oldest first: tracking.log.1, tracking.log (the files were given out of time "
              "order)");
    EXPECT_TRUE(forward.overlap.empty());
    EXPECT_TRUE(backward.overlap.empty());
}

// A file given twice overlaps itself: read as given, and named.
TEST(TrackingOrder, OverlappingFilesAreReadAsGivenAndNamed) {
    const auto twice = read_in_order(
        {{"tracking.log.1", older}, {"tracking.log", newer}, {"tracking.log.1", older}});
    EXPECT_EQ(twice.entries.size(), 12U);
    EXPECT_EQ(twice.overlap,
              "tracking.log.1 starts at 2024-05-01T10:00:00Z, before tracking.log ends at "
              "2024-05-01T10:01:52Z");
    ASSERT_EQ(twice.notes.size(), 1U);
    EXPECT_TRUE(twice.notes[0].ends_with("the files overlap, so they are read as given"));
}

}  // namespace
}  // namespace ppsbench::chrony
