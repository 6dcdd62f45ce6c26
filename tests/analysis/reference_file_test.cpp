// SPDX-License-Identifier: GPL-2.0-or-later
// Which file is a rotated part's reference: the other path's part of the same run open when the
// part began. Part numbers are no guide (a path keeps its first file over a seam its first
// pulse came after), and the two paths' starts, stamped one after the other, may straddle a
// seam. Headers written by hand into a temporary folder; no pulses are needed to find a file.
#include "ppsbench/analysis/reference_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t second = 1'000'000'000;
constexpr std::int64_t seam_x = 1'780'000'000 * second;  // a whole second: a 1 s seam

struct Folder {
    fs::path path;
    Folder() {
        static int made = 0;
        path = fs::temp_directory_path() /
               ("ppsbench-reference-" + std::to_string(::getpid()) + "-" + std::to_string(++made));
        fs::create_directories(path);
    }
    ~Folder() { fs::remove_all(path); }

    // A part's header: path A is the PPS path (its peer the reference), B the reference.
    store::RunMeta part(const std::string& name, const std::string& letter, std::uint64_t index,
                        std::int64_t start_ns) const {
        store::RunMeta meta;
        meta.source = letter == "A" ? "pps:/dev/pps0" : "sim:reference";
        meta.start_realtime_ns = start_ns;
        meta.dual =
            store::DualLink{.path = letter,
                            .peer_source = letter == "A" ? "sim:reference" : "pps:/dev/pps0",
                            .peer_file = letter == "A" ? "r-%S-2.csv" : "r-%S-1.csv",
                            .peer_is_reference = letter == "A",
                            .run_id = "feedc0de"};
        meta.rotation = store::Rotation{.run_id = "feedc0de",
                                        .index = index,
                                        .interval = std::chrono::seconds{1},
                                        .previous_file = {}};
        std::ofstream((path / name).string())
            << "# ppsbench capture 1\n# meta " << store::to_json(meta).dump()
            << "\nsequence,edge,timestamp_ns\n";
        return meta;
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

TEST(RotatedReference, FirstPartsPairEvenWhenTheirStartsStraddleASeam) {
    Folder folder;
    // A stamped 1 ms before the seam, B 1 ms after it: both are their run's first part.
    const auto a0 = folder.part("a0.csv", "A", 0, seam_x - 1'000'000);
    folder.part("b0.csv", "B", 0, seam_x + 1'000'000);
    const auto a1 = folder.part("a1.csv", "A", 1, seam_x + second + 2'000'000);
    folder.part("b1.csv", "B", 1, seam_x + second + 5'000'000);
    EXPECT_EQ(reference_file(a0, folder.file("a0.csv")), folder.file("b0.csv"));
    EXPECT_EQ(reference_file(a1, folder.file("a1.csv")), folder.file("b1.csv"));
}

TEST(RotatedReference, APartNumberedAheadFindsThePartOpenAtItsSeam) {
    Folder folder;
    // B's first pulse came after the first seam: it kept its first file until the second, so
    // A's part 1 (from the first seam) pairs with B's part 0, and A's part 2 with B's part 1.
    folder.part("b0.csv", "B", 0, seam_x - 500'000'000);
    folder.part("b1.csv", "B", 1, seam_x + 2 * second + 1'000'000);
    const auto a1 = folder.part("a1.csv", "A", 1, seam_x + 3'000'000);
    const auto a2 = folder.part("a2.csv", "A", 2, seam_x + 2 * second + 3'000'000);
    EXPECT_EQ(reference_file(a1, folder.file("a1.csv")), folder.file("b0.csv"));
    EXPECT_EQ(reference_file(a2, folder.file("a2.csv")), folder.file("b1.csv"));
}

TEST(RotatedReference, AMissingPartnerIsBadInputNamingTheFolder) {
    Folder folder;
    const auto a0 = folder.part("a0.csv", "A", 0, seam_x);
    try {
        reference_file(a0, folder.file("a0.csv"));
        FAIL() << "no reference part beside it";
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("is not beside it in " + folder.path.string()),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ppsbench::analysis
