// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/input.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <string>

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
