// The one writer of whole files: the old file or the new one, never half, no temporary left.
#include "ppsbench/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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

TEST(WriteFileAtomically, AFolderThatCannotBeWrittenLeavesTheOldFileAndNamesTheOption) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "ro");
    const auto path = dir.file("ro/ci.xml");
    testing::write_text(path, "old");
    std::filesystem::permissions(
        dir.path() / "ro", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    if (::access(dir.file("ro").c_str(), W_OK) == 0) {
        GTEST_SKIP() << "running as root: a read-only folder is still writable";
    }
    try {
        write_file_atomically(path, "new", "--junit");
        FAIL() << "wrote into a read-only folder";
    } catch (const InputError& e) {
        EXPECT_TRUE(testing::contains(e.what(), "--junit " + path + ": cannot write the file"))
            << e.what();
    }
    std::filesystem::permissions(dir.path() / "ro", std::filesystem::perms::owner_all);
    EXPECT_EQ(testing::read_text(path), "old");
}

}  // namespace
}  // namespace ppsbench::core
