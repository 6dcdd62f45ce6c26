// SPDX-License-Identifier: GPL-2.0-or-later
// Extra integer columns after the fixed three: how latency and dual-path captures keep per-pulse
// figures (drive and wake-up times, clock offsets) while staying ordinary capture files.
#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::store {
namespace {

using core::Edge;
using core::Pulse;
using testing::TempDir;

TEST(ExtraColumns, RoundTripThroughTheFile) {
    TempDir dir;
    const auto path = dir.file("latency.csv");
    const std::vector<Pulse> pulses{{1, 1000, Edge::assert_edge}, {1, 2000, Edge::clear_edge}};
    const std::array<std::int64_t, 4> extras{-5, 1200, 1900, 2100};
    {
        CaptureWriter writer(path, {{"kind", "latency"}}, false, {"drive_ns", "wake_ns"});
        writer.write_rows(pulses, extras);
        writer.write_note("end", {{"stop_reason", "count"}});
    }
    const std::string text = testing::read_text(path);
    EXPECT_NE(text.find("\nsequence,edge,timestamp_ns,drive_ns,wake_ns\n1,assert,1000,-5,1200\n"),
              std::string::npos)
        << text;
    const auto file = read_capture_file(path);
    EXPECT_EQ(file.pulses, pulses);
    ASSERT_EQ(file.extra_columns, (std::vector<std::string>{"drive_ns", "wake_ns"}));
    EXPECT_EQ(file.extra_values, std::vector<std::int64_t>(extras.begin(), extras.end()));
    EXPECT_EQ(file.extra_column("wake_ns"), 1U);
    EXPECT_FALSE(file.extra_column("nope"));
    EXPECT_EQ(file.extra(1, 0), 1900);
}

TEST(ExtraColumns, PlainFilesHaveNone) {
    const auto file = parse_capture_text(
        "# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns\n1,assert,5\n", "x.csv");
    EXPECT_TRUE(file.extra_columns.empty());
    EXPECT_TRUE(file.extra_values.empty());
}

TEST(ExtraColumns, MalformedRowsNameTheLineAndColumn) {
    const std::string head = "# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns,a_ns\n";
    const auto error_of = [](const std::string& text) {
        try {
            parse_capture_text(text, "f.csv");
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of(head + "1,assert,5\n"), "f.csv:4: missing the value of column 'a_ns'");
    EXPECT_EQ(error_of(head + "1,assert,5,x\n"), "f.csv:4: column 'a_ns' is not an integer");
    EXPECT_EQ(error_of(head + "1,assert,5,6,7\n"),
              "f.csv:4: more values than the column header declares");
    EXPECT_NE(error_of("# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns,\n")
                  .find("named extra columns"),
              std::string::npos);
    EXPECT_NE(error_of("# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_nsX\n")
                  .find("expected the column header"),
              std::string::npos);
}

TEST(ExtraColumns, WriterRefusesMismatchedRows) {
    TempDir dir;
    CaptureWriter writer(dir.file("a.csv"), {}, false, {"x_ns"});
    const std::vector<Pulse> pulses{{1, 1, Edge::assert_edge}};
    EXPECT_THROW(writer.write(pulses), std::logic_error);
    EXPECT_THROW(writer.write_rows(pulses, {}), std::logic_error);
    EXPECT_THROW(CaptureWriter(dir.file("b.csv"), {}, false, {"Bad Name"}), std::logic_error);
}

TEST(ExtraColumns, ManyRowsSpanSeveralBuffers) {
    TempDir dir;
    const auto path = dir.file("many.csv");
    std::vector<Pulse> pulses;
    std::vector<std::int64_t> extras;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        pulses.push_back(
            {i + 1, 1'767'225'600'000'000'000LL + static_cast<std::int64_t>(i), Edge::assert_edge});
        extras.push_back(-9'000'000'000'000'000'000LL);
        extras.push_back(static_cast<std::int64_t>(i));
    }
    {
        CaptureWriter writer(path, {}, false, {"a", "b"});
        writer.write_rows(pulses, extras);
        EXPECT_EQ(writer.pulses_written(), 1000U);
    }
    const auto file = read_capture_file(path);
    EXPECT_EQ(file.pulses, pulses);
    EXPECT_EQ(file.extra_values, extras);
}

}  // namespace
}  // namespace ppsbench::store
