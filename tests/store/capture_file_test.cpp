// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <limits>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::store {
namespace {

using core::Edge;
using core::Pulse;
using testing::TempDir;

std::vector<Pulse> some_pulses(std::size_t n) {
    std::vector<Pulse> pulses;
    for (std::size_t i = 0; i < n; ++i) {
        pulses.push_back(
            {i + 1,
             1'767'225'600'000'000'000LL + static_cast<std::int64_t>(i) * 1'000'000'000LL - 1234,
             i % 2 == 0 ? Edge::assert_edge : Edge::clear_edge});
    }
    return pulses;
}

TEST(CaptureFile, RoundTripsPulsesMetadataAndNotes) {
    TempDir dir;
    const auto path = dir.file("run.csv");
    const auto pulses = some_pulses(300);
    {
        CaptureWriter writer(path, {{"label", "stock"}, {"simulated", false}}, false);
        writer.write(std::span(pulses).first(100));
        writer.write_note("chrony", {{"rms_offset_ns", 440}});
        writer.write(std::span(pulses).subspan(100));
        writer.write_note("end", {{"stop_reason", "count"}});
        writer.close();
    }
    const auto file = read_capture_file(path);
    EXPECT_EQ(file.pulses, pulses);
    EXPECT_EQ(file.label(), "stock");
    EXPECT_EQ(file.meta.at("format"), "ppsbench.capture/1");
    ASSERT_EQ(file.notes.size(), 2U);
    EXPECT_EQ(file.notes[0].tag, "chrony");
    EXPECT_EQ(file.notes[0].after_pulses, 100U);
    ASSERT_NE(file.end_record(), nullptr);
    EXPECT_TRUE(file.warnings.empty());
}

TEST(CaptureFile, IsPlainCsvWithHashComments) {
    TempDir dir;
    const auto path = dir.file("run.csv");
    {
        CaptureWriter writer(path, {{"label", "x"}}, false);
        writer.write(some_pulses(2));
    }
    const std::string text = testing::read_text(path);
    EXPECT_EQ(text.substr(0, text.find('\n')), "# ppsbench capture 1");
    EXPECT_NE(text.find("\nsequence,edge,timestamp_ns\n1,assert,1767225599999998766\n"
                        "2,clear,1767225600999998766\n"),
              std::string::npos)
        << text;
}

TEST(CaptureFile, ATornLastLineIsDroppedWithAWarning) {
    TempDir dir;
    const auto path = dir.file("torn.csv");
    {
        CaptureWriter writer(path, {}, false);
        writer.write(some_pulses(3));
    }
    // What a power cut mid-write leaves: part of a line, no newline.
    testing::write_text(path, testing::read_text(path) + "4,assert,17672256");
    const auto file = read_capture_file(path);
    EXPECT_EQ(file.pulses.size(), 3U);
    ASSERT_EQ(file.warnings.size(), 1U);
    EXPECT_NE(file.warnings[0].find("torn.csv:7: the last line is incomplete"), std::string::npos)
        << file.warnings[0];
}

TEST(CaptureFile, AMalformedLineNamesFileAndLine) {
    const std::string header = "# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"1,assert,100\n2,sideways,200\n", "x.csv:5: edge 'sideways'"},
        {"1,assert,100\nabc,assert,200\n", "x.csv:5: expected 'sequence,edge,timestamp_ns'"},
        {"1,assert,1.5e9\n", "x.csv:4: the timestamp is not an integer"},
        {"1,assert\n", "x.csv:4: expected 'sequence,edge,timestamp_ns': missing the timestamp"},
    };
    for (const auto& [body, expected] : cases) {
        try {
            parse_capture_text(header + body, "x.csv");
            FAIL() << "accepted " << body;
        } catch (const core::InputError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    }
}

TEST(CaptureFile, RejectsFilesThatAreNotCaptures) {
    EXPECT_THROW(parse_capture_text("time,offset\n1,2\n", "other.csv"), core::InputError);
    EXPECT_THROW(parse_capture_text("# ppsbench capture 1\n# meta {}\n", "short.csv"),
                 core::InputError);
    EXPECT_THROW(read_capture_file("/nonexistent/run.csv"), core::InputError);
    EXPECT_THROW(read_capture_file("/tmp"), core::InputError);
}

TEST(CaptureFile, ToleratesCrlfAndFreeFormComments) {
    const auto file = parse_capture_text(
        "# ppsbench capture 1\r\n# meta {\"label\":\"w\"}\r\nsequence,edge,timestamp_ns\r\n"
        "# note added by hand\r\n1,assert,5\r\n",
        "win.csv");
    EXPECT_EQ(file.pulses.size(), 1U);
    EXPECT_EQ(file.label(), "w");
}

// The writer holds the range the reader accepts: a pulse outside it is refused with its place,
// the pulses before it are kept, and what was written reads back. So no writer (an importer, a
// clock gone wrong) leaves a file that report then calls damaged.
TEST(CaptureWriter, APulseOutsideTheReadersRangeIsRefusedAndThePulsesBeforeItKept) {
    TempDir dir;
    for (const std::int64_t bad :
         {core::max_timestamp_ns + 1, std::int64_t{-1}, std::numeric_limits<std::int64_t>::max()}) {
        const auto path = dir.file("edge" + std::to_string(bad) + ".csv");
        auto pulses = some_pulses(200);
        pulses[150].timestamp_ns = bad;
        CaptureWriter writer(path, {{"label", "edge"}}, false);
        try {
            writer.write(pulses);
            FAIL() << "accepted " << bad;
        } catch (const core::InputError& e) {
            EXPECT_TRUE(testing::contains(
                e.what(), "pulse 151 (sequence 151) has timestamp " + std::to_string(bad) + " ns"))
                << e.what();
            EXPECT_TRUE(testing::contains(e.what(), "1970 … 2116")) << e.what();
        }
        EXPECT_EQ(writer.pulses_written(), 150U);
        writer.close();
        const auto file = read_capture_file(path);
        EXPECT_EQ(file.pulses, std::vector<Pulse>(pulses.begin(), pulses.begin() + 150));
    }
    // The last time the range holds is written and read back as it was.
    const auto path = dir.file("last.csv");
    const std::vector<Pulse> last{{1, core::max_timestamp_ns, Edge::assert_edge}};
    {
        CaptureWriter writer(path, {{"label", "last"}}, false);
        writer.write(last);
        writer.close();
    }
    EXPECT_EQ(read_capture_file(path).pulses, last);
}

TEST(CaptureWriter, NeverOverwritesWithoutForce) {
    TempDir dir;
    const auto path = dir.file("run.csv");
    testing::write_text(path, "precious");
    try {
        CaptureWriter writer(path, {}, false);
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("file exists; pass --force"), std::string::npos);
    }
    EXPECT_EQ(testing::read_text(path), "precious");
    CaptureWriter forced(path, {}, true);
    forced.close();
    EXPECT_EQ(read_capture_file(path).pulses.size(), 0U);
}

TEST(CaptureWriter, UnwritablePathsNameTheFix) {
    try {
        CaptureWriter writer("/nonexistent-dir/run.csv", {}, false);
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("directory does not exist"), std::string::npos);
    }
}

TEST(CaptureWriter, AFullDiskIsAClearErrorNotACrash) {
    // /dev/full fails every write with ENOSPC, like a full file system.
    try {
        CaptureWriter writer("/dev/full", {}, true);
        FAIL();
    } catch (const core::MeasurementError& e) {
        EXPECT_NE(std::string(e.what()).find("disk full"), std::string::npos) << e.what();
    }
}

TEST(CaptureWriter, KeepsEveryCompleteLineWhenWritesStartFailing) {
    // A file-size limit makes write(2) fail part-way through a batch, as a filling disk does.
    TempDir dir;
    const auto path = dir.file("limited.csv");
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{2000, 2000};
        setrlimit(RLIMIT_FSIZE, &limit);
        try {
            CaptureWriter writer(path, {{"label", "limited"}}, false);
            const auto pulses = some_pulses(500);
            writer.write(pulses);
        } catch (const core::MeasurementError&) {
            _exit(0);
        }
        _exit(1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "no MeasurementError when the write failed";
    const auto file = read_capture_file(path);
    EXPECT_TRUE(file.warnings.empty()) << "the file was not cut back to a complete line";
    EXPECT_GT(file.pulses.size(), 10U);
    EXPECT_EQ(file.pulses, std::vector<core::Pulse>(some_pulses(file.pulses.size())));
}

}  // namespace
}  // namespace ppsbench::store
