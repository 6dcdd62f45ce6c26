// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/input.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::import {
namespace {

using ppsbench::testing::TempDir;

std::string read_all(Input& input) {
    std::string text;
    std::string line;
    while (std::getline(input.stream(), line)) {
        text += line + "\n";
    }
    return text;
}

void write_gzip(const std::string& path, const std::string& text, const char* mode = "wb") {
    gzFile f = gzopen(path.c_str(), mode);
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())),
              static_cast<int>(text.size()));
    gzclose(f);
}

// Enough lines to pass the first block (head) several times.
std::string many_lines() {
    std::string text;
    for (int i = 0; i < 20000; ++i) {
        text += "line " + std::to_string(i) + "\n";
    }
    return text;
}

TEST(Input, PlainAndGzipFilesReadTheSameWhateverTheirName) {
    TempDir dir;
    const auto text = many_lines();
    ppsbench::testing::write_text(dir.file("plain.log"), text);
    write_gzip(dir.file("rotated.log.1"), text);  // compressed, without .gz in its name
    Input plain(dir.file("plain.log"));
    EXPECT_EQ(plain.head().substr(0, 14), "line 0\nline 1\n");
    EXPECT_EQ(read_all(plain), text);
    Input gz(dir.file("rotated.log.1"));
    EXPECT_EQ(gz.head().size(), Input::head_size);
    EXPECT_EQ(read_all(gz), text);
}

TEST(Input, ConcatenatedGzipMembersAreOneStream) {
    TempDir dir;
    write_gzip(dir.file("a.gz"), "first\n");
    write_gzip(dir.file("a.gz"), "second\n", "ab");
    Input in(dir.file("a.gz"));
    EXPECT_EQ(read_all(in), "first\nsecond\n");
}

// What follows the last member is what gzip -d calls "trailing garbage", such as a plain log
// appended to a .gz. It is not read, and it is counted, not silently dropped (zlib's gzread drops
// it without a word).
TEST(Input, DataAfterTheLastGzipMemberIsCountedAndNotRead) {
    TempDir dir;
    write_gzip(dir.file("a.gz"), "first\n");
    const auto member = ppsbench::testing::read_text(dir.file("a.gz"));
    for (const std::string& tail : {std::string("2009-11-30 14:33:29 PPS\n"),
                                    std::string(512, '\0') + "x", std::string("\x1f")}) {
        ppsbench::testing::write_text(dir.file("b.gz"), member + tail);
        Input in(dir.file("b.gz"));
        EXPECT_EQ(read_all(in), "first\n");
        ASSERT_TRUE(in.trailing_data().has_value());
        EXPECT_EQ(in.trailing_data()->bytes, tail.size());
        EXPECT_EQ(in.trailing_data()->at_byte, member.size());
        EXPECT_EQ(in.trailing_data()->line, 2U);
    }
    Input whole(dir.file("a.gz"));
    read_all(whole);
    EXPECT_FALSE(whole.trailing_data().has_value());
    // Text without a final newline: its last line is 1, so what follows is line 2.
    write_gzip(dir.file("c.gz"), "first");
    ppsbench::testing::write_text(dir.file("d.gz"),
                                  ppsbench::testing::read_text(dir.file("c.gz")) + "junk\n");
    Input unterminated(dir.file("d.gz"));
    EXPECT_EQ(read_all(unterminated), "first\n");
    ASSERT_TRUE(unterminated.trailing_data().has_value());
    EXPECT_EQ(unterminated.trailing_data()->line, 2U);
    // Zeros alone are padding: gzip -d ignores them silently, and so does the import.
    ppsbench::testing::write_text(dir.file("padded.gz"), member + std::string(200000, '\0'));
    Input padded(dir.file("padded.gz"));
    EXPECT_EQ(read_all(padded), "first\n");
    EXPECT_FALSE(padded.trailing_data().has_value());
}

// A property over how a .gz can end: members of random text (some empty, some longer than the
// buffers), cut at every kind of place. Cut at a member's end, the members before it read whole;
// one byte into the next member's magic, that byte is trailing data; anywhere else inside a
// member, the file is refused as damaged or cut off. Never silently short.
TEST(Input, AGzipFileReadsWholeOrIsRefusedWhereverItIsCut) {
    TempDir dir;
    std::mt19937 random(36);
    for (int round = 0; round < 60; ++round) {
        std::vector<std::string> texts;
        std::vector<std::size_t> ends;  // byte offset of each member's end
        std::string bytes;
        const int members = 1 + static_cast<int>(random() % 3);
        for (int m = 0; m < members; ++m) {
            std::string text;
            const std::size_t lines = random() % 4 == 0 ? 0 : random() % 30000;
            for (std::size_t i = 0; i < lines; ++i) {
                text += std::to_string(random()) + "\n";
            }
            write_gzip(dir.file("m.gz"), text);
            bytes += ppsbench::testing::read_text(dir.file("m.gz"));
            texts.push_back(text);
            ends.push_back(bytes.size());
        }
        // A third of the cuts at a member's end, a third one byte after it, a third anywhere.
        const std::size_t end = ends[random() % ends.size()];
        const std::size_t kind = random() % 3;
        const std::size_t cut = kind == 0   ? end
                                : kind == 1 ? std::min(end + 1, bytes.size())
                                            : 1 + random() % bytes.size();
        ppsbench::testing::write_text(dir.file("cut.gz"), bytes.substr(0, cut));
        const auto member_end = std::find(ends.begin(), ends.end(), cut);
        const auto member_end_before = std::find(ends.begin(), ends.end(), cut - 1);
        std::string expected;
        for (std::size_t m = 0; m < ends.size() && ends[m] <= cut; ++m) {
            expected += texts[m];
        }
        SCOPED_TRACE(::testing::Message()
                     << "round " << round << ", cut at " << cut << " of " << bytes.size());
        if (member_end != ends.end() || member_end_before != ends.end()) {
            Input in(dir.file("cut.gz"));
            EXPECT_EQ(read_all(in), expected);
            EXPECT_EQ(in.trailing_data().has_value(), member_end == ends.end());
        } else {
            EXPECT_THROW(
                {
                    Input in(dir.file("cut.gz"));
                    read_all(in);
                },
                core::InputError);
        }
    }
}

TEST(Input, ATruncatedGzipFileIsAnErrorNamingIt) {
    TempDir dir;
    write_gzip(dir.file("cut.gz"), many_lines());
    const auto whole = ppsbench::testing::read_text(dir.file("cut.gz"));
    ppsbench::testing::write_text(dir.file("cut.gz"), whole.substr(0, whole.size() / 2));
    try {
        Input in(dir.file("cut.gz"));
        read_all(in);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(ppsbench::testing::contains(e.what(), "cut.gz: ")) << e.what();
        EXPECT_TRUE(ppsbench::testing::contains(e.what(), "gzip -t")) << e.what();
    }
}

// Found by fuzz/import_fuzz: a .gz damaged within its first 64 KiB fails while the head is
// read, in the constructor, and the gzip stream (with its file descriptor) leaked each time.
TEST(Input, ADamagedGzipHeadIsRefusedWithoutLeakingItsFile) {
    TempDir dir;
    write_gzip(dir.file("cut.gz"), many_lines());
    const auto whole = ppsbench::testing::read_text(dir.file("cut.gz"));
    ppsbench::testing::write_text(dir.file("cut.gz"), whole.substr(0, 200));
    const auto open_fds = [] {
        return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                             std::filesystem::directory_iterator());
    };
    const auto before = open_fds();
    for (int i = 0; i < 5; ++i) {
        EXPECT_THROW(Input(dir.file("cut.gz")), core::InputError);
    }
    EXPECT_EQ(open_fds(), before) << "each refused file must be closed";
}

TEST(Input, MissingFilesAndDirectoriesAreRefused) {
    TempDir dir;
    EXPECT_THROW(Input(dir.file("absent.log")), core::InputError);
    EXPECT_THROW(Input(dir.path().string()), core::InputError);
    ppsbench::testing::write_text(dir.file("empty.log"), "");
    Input empty(dir.file("empty.log"));
    EXPECT_TRUE(empty.head().empty());
    EXPECT_EQ(read_all(empty), "");
}

}  // namespace
}  // namespace ppsbench::import
