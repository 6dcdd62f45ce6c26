// SPDX-License-Identifier: GPL-2.0-or-later
// The plan of a command's files (issue 23): an output is never an input or another output,
// however the path is spelt, and state files replace only what ppsbench wrote.
#include "ppsbench/core/file_plan.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::core {
namespace {

using testing::contains;
using testing::TempDir;

// The message of the refusal, or "" when the plan is accepted.
std::string refusal(const FilePlan& plan, bool force = false) {
    try {
        plan.check(force);
        return "";
    } catch (const UsageError& e) {
        return e.what();
    }
}

TEST(FileIdentity, EverySpellingOfOneFileIsOneFile) {
    TempDir dir;
    const auto file = dir.file("v.csv");
    testing::write_text(file, "x");
    std::filesystem::create_directory(dir.path() / "sub");
    std::filesystem::create_symlink(file, dir.path() / "link.csv");
    std::filesystem::create_hard_link(file, dir.path() / "hard.csv");
    std::filesystem::create_directory_symlink(dir.path(), dir.path() / "again");
    const auto id = identify_file(file);
    for (const auto& spelling :
         {dir.file("sub/../v.csv"), dir.file("./v.csv"), dir.file("link.csv"), dir.file("hard.csv"),
          dir.file("again/v.csv"), dir.file("again/link.csv")}) {
        EXPECT_EQ(identify_file(spelling), id) << spelling;
    }
    testing::write_text(dir.file("other.csv"), "x");
    EXPECT_FALSE(identify_file(dir.file("other.csv")) == id);
}

TEST(FileIdentity, AFileNotYetThereIsItsFolderAndName) {
    TempDir dir;
    std::filesystem::create_directory_symlink(dir.path(), dir.path() / "again");
    EXPECT_EQ(identify_file(dir.file("new.csv")), identify_file(dir.file("again/new.csv")));
    EXPECT_FALSE(identify_file(dir.file("new.csv")) == identify_file(dir.file("new2.csv")));
}

// The plan is symmetric in what it refuses: for every pair of uses, one file named twice
// is refused with both uses named, and two files are accepted.
TEST(FilePlan, AnOutputThatIsAnInputOrAnotherOutputIsRefusedNamingBoth) {
    TempDir dir;
    const auto capture = dir.file("v.csv");
    testing::write_text(capture, "# ppsbench capture 1\n");
    std::filesystem::create_hard_link(capture, dir.path() / "hard.csv");
    for (const auto kind :
         {OutputKind::record, OutputKind::prometheus_state, OutputKind::junit_state}) {
        for (const auto& spelling : {capture, dir.file("hard.csv"), dir.file("./v.csv")}) {
            FilePlan plan;
            plan.read("the input", capture);
            plan.write("--prometheus", spelling, kind);
            const auto why = refusal(plan, /*force=*/true);
            EXPECT_TRUE(contains(why, "--prometheus " + spelling + " is also the input " + capture))
                << why;
            EXPECT_TRUE(contains(why, "not even with --force")) << why;
        }
        FilePlan two;
        two.write("-o", dir.file("clash.csv"), OutputKind::record);
        two.write("--prometheus", dir.file("clash.csv"), kind);
        EXPECT_EQ(refusal(two, true), "--prometheus " + dir.file("clash.csv") + " is also -o " +
                                          dir.file("clash.csv") +
                                          "; each output needs a file of its own: name another");
        FilePlan apart;
        apart.read("the input", capture);
        apart.write("-o", dir.file("a.csv"), OutputKind::record);
        apart.write("--prometheus", dir.file("b.prom"), kind);
        EXPECT_EQ(refusal(apart), "");
    }
}

TEST(FilePlan, StandardInputAndAbsentOptionsAreNoFiles) {
    TempDir dir;
    FilePlan plan;
    plan.read("the input", "-");
    plan.read("--baseline", "");
    EXPECT_TRUE(plan.inputs().empty());
    plan.write("-o", dir.file("out.csv"), OutputKind::record);
    EXPECT_EQ(refusal(plan), "");
}

TEST(FilePlan, ARecordIsReplacedOnlyWithForce) {
    TempDir dir;
    const auto plot = dir.file("p.svg");
    testing::write_text(plot, "<svg/>");
    FilePlan plan;
    plan.write("--plot", plot, OutputKind::record);
    EXPECT_TRUE(contains(refusal(plan), "the file exists; pass --force")) << refusal(plan);
    EXPECT_EQ(refusal(plan, true), "");
}

TEST(FilePlan, AStateFileIsReplacedWhenEmptyOrPpsbenchsOwn) {
    TempDir dir;
    const struct {
        OutputKind kind;
        std::string own;
    } kinds[] = {
        {OutputKind::prometheus_state, "# HELP ppsbench_live_pulses Pulses.\n"},
        {OutputKind::junit_state,
         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ppsbench\" tests=\"1\""},
    };
    for (const auto& [kind, own] : kinds) {
        const auto state = dir.file("state");
        for (const std::string& content : {std::string(), own}) {
            testing::write_text(state, content);
            FilePlan plan;
            plan.write("--junit", state, kind);
            EXPECT_EQ(refusal(plan), "") << content;
        }
        // A capture mistyped as the state file survives.
        testing::write_text(state, "# ppsbench capture 1\n# meta {}\n");
        FilePlan plan;
        plan.write("--junit", state, kind);
        EXPECT_TRUE(contains(refusal(plan), "ppsbench did not write it")) << refusal(plan);
        EXPECT_EQ(refusal(plan, true), "");
    }
}

TEST(WrittenByPpsbench, KnowsItsOwnStateFilesOnly) {
    EXPECT_TRUE(written_by_ppsbench("# HELP ppsbench_offset_stddev_seconds σ\n",
                                    OutputKind::prometheus_state));
    EXPECT_FALSE(
        written_by_ppsbench("# HELP node_cpu_seconds_total\n", OutputKind::prometheus_state));
    EXPECT_TRUE(written_by_ppsbench("<testsuites name=\"ppsbench\">", OutputKind::junit_state));
    EXPECT_FALSE(written_by_ppsbench("<?xml version=\"1.0\"?>\n<testsuites name=\"pytest\">",
                                     OutputKind::junit_state));
    EXPECT_FALSE(written_by_ppsbench("# HELP ppsbench_x\n", OutputKind::junit_state));
    EXPECT_FALSE(written_by_ppsbench("<testsuites name=\"ppsbench\">", OutputKind::record));
}

}  // namespace
}  // namespace ppsbench::core
