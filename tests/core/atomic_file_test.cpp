// SPDX-License-Identifier: GPL-2.0-or-later
// The one writer of whole files: the old file or the new one, never half, no temporary left.
#include "ppsbench/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::core {
namespace {

using testing::TempDir;

std::size_t entries(const TempDir& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++n;
    }
    return n;
}

TEST(WriteFileAtomically, ReplacesTheFileAndLeavesNoTemporary) {
    TempDir dir;
    const auto path = dir.file("ppsbench.prom");
    write_file_atomically(path, "first\n", "--prometheus");
    write_file_atomically(path, "second\n", "--prometheus");
    EXPECT_EQ(testing::read_text(path), "second\n");
    EXPECT_EQ(entries(dir), 1U);
}

TEST(WriteFileAtomically, ThroughASymlinkReplacesTheTargetAndKeepsTheLink) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "real");
    const auto target = dir.file("real/ppsbench.prom");
    testing::write_text(target, "old\n");
    const auto link = dir.file("link.prom");
    std::filesystem::create_symlink(target, link);
    write_file_atomically(link, "new\n", "--prometheus");
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(testing::read_text(target), "new\n");
}

TEST(WriteFileAtomically, TheNewFileHasTheUmasksMode) {
    TempDir dir;
    const auto path = dir.file("p.prom");
    const mode_t old = ::umask(022);
    write_file_atomically(path, "x\n", "--prometheus");
    ::umask(old);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644U) << "node_exporter's user must read the file";
}

// The rename fails (the path is a folder with a file in it; a plan would have refused it, the
// writer must still fail cleanly): the error names the option, the old entry and its content
// are as they were, and the temporary is gone.
TEST(WriteFileAtomically, AFailedWriteLeavesTheOldFileAndNoTemporary) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "ci.xml");
    testing::write_text(dir.file("ci.xml/keep"), "old");
    try {
        write_file_atomically(dir.file("ci.xml"), "new", "--junit");
        FAIL() << "replaced a folder";
    } catch (const InputError& e) {
        EXPECT_TRUE(testing::contains(e.what(),
                                      "--junit " + dir.file("ci.xml") + ": cannot write the file"))
            << e.what();
    }
    EXPECT_EQ(testing::read_text(dir.file("ci.xml/keep")), "old");
    EXPECT_EQ(entries(dir), 1U);
}

}  // namespace
}  // namespace ppsbench::core
