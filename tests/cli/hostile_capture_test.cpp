// Hostile captures (issue 12): extreme timestamps must give an analysis or a one-line error,
// never an internal error or an allocation in proportion to a gap's length.
#include <gtest/gtest.h>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string header() {
    return "# ppsbench capture 1\n# meta {\"clock\":\"realtime\",\"edge\":\"assert\",\"format\":"
           "\"ppsbench.capture/1\",\"period_ns\":1000000000}\nsequence,edge,timestamp_ns\n";
}

// Found by fuzz/capture_reader_fuzz on its seed corpus: a timestamp of 2^63 − 1 made the
// stability grid span 9·10⁹ periods (a 74 GB allocation; 'internal error: std::bad_alloc' on
// main). A year's clock step in 40 pulses asked for 31 M slots.
TEST(HostileCapture, ExtremeTimestampsDoNotAllocateInProportionToTheGap) {
    TempDir dir;
    const auto extreme = dir.file("extreme.csv");
    testing::write_text(extreme, header() + "1,assert,9223372036854775807\n2,assert,1000000000\n");
    std::string year = header();
    for (int i = 1; i <= 40; ++i) {
        const long long jump = i > 20 ? 31'536'000'000'000'000LL : 0;
        year += std::to_string(i) + ",assert," +
                std::to_string(1'767'225'600'000'000'000LL + jump + i * 1'000'000'000LL) + "\n";
    }
    testing::write_text(dir.file("year.csv"), year);
    for (const auto& path : {extreme, dir.file("year.csv")}) {
        // ulimit -v: 1 GB of address space is far more than 40 pulses need.
        const auto result = testing::run_program(
            {"/bin/sh", "-c",
             std::string("ulimit -v 1000000; '") + PPSBENCH_BINARY + "' report '" + path + "'"});
        EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2)
            << path << ": " << result.exit_code << "\n"
            << result.err;
        EXPECT_FALSE(contains(result.err, "internal error")) << result.err;
    }
}

}  // namespace
}  // namespace ppsbench
