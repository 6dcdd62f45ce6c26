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

// 1 GB is far more than 40 pulses need. AddressSanitizer reserves terabytes of shadow address
// space at start-up, so under it `ulimit -v` would stop every program; there the sanitizer's
// own limits bound the same thing (one allocation, and the resident set).
#if defined(__SANITIZE_ADDRESS__)
const std::string memory_bound =
    "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1000:hard_rss_limit_mb="
    "1000\" ";
#else
const std::string memory_bound = "ulimit -v 1000000; ";
#endif

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
        const auto result = testing::run_program(
            {"/bin/sh", "-c", memory_bound + "'" + PPSBENCH_BINARY + "' report '" + path + "'"});
        EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2)
            << path << ": " << result.exit_code << "\n"
            << result.err;
        EXPECT_FALSE(contains(result.err, "internal error")) << result.err;
    }
}

}  // namespace
}  // namespace ppsbench
