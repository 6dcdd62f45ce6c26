// SPDX-License-Identifier: GPL-2.0-or-later
// `run --prometheus` with a real chronyd (started by the harness, never touching the host
// clock): the live file carries chrony's RMS offset and status from the run's last sample.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "chronyd_fixture.hpp"
#include "cli.hpp"
#include "ppsbench/chrony/json.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::chrony {
namespace {

TEST(LiveMetricsWithChronyd, CarryChronysRmsOffsetAndStatusFromTheLastSample) {
    if (::access("/usr/sbin/chronyd", X_OK) != 0) {
        GTEST_SKIP() << "chronyd is not installed (Debian package chrony)";
    }
    testing::ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(std::chrono::seconds(30))) << chronyd.chronyd_output();
    ppsbench::testing::TempDir dir;
    const auto path = dir.file("live.csv");
    const auto prom = dir.file("live.prom");
    const auto run = ppsbench::testing::run_ppsbench({"run",
                                                      "-s",
                                                      "sim:hardirq",
                                                      "--pace",
                                                      "realtime",
                                                      "--period",
                                                      "100ms",
                                                      "--duration",
                                                      "2500ms",
                                                      "--chrony",
                                                      "on",
                                                      "--chrony-socket",
                                                      chronyd.socket_path(),
                                                      "--chrony-interval",
                                                      "1s",
                                                      "--chrony-refid",
                                                      "PPS",
                                                      "-o",
                                                      path,
                                                      "--prometheus",
                                                      prom,
                                                      "--prometheus-interval",
                                                      "1s",
                                                      "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;

    const auto file = store::read_capture_file(path);
    std::optional<ChronySample> last;
    for (const auto& note : file.notes) {
        if (note.tag == "chrony") {
            last = note.body.get<ChronySample>();
        }
    }
    ASSERT_TRUE(last && last->status == ChronyStatus::ok && last->tracking);
    const auto text = ppsbench::testing::read_text(prom);
    EXPECT_NE(text.find(R"(status="ok"} 1)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"(status="not-synchronised"} 0)"), std::string::npos) << text;
    const auto rms_line = text.find("ppsbench_live_chrony_rms_offset_seconds{");
    ASSERT_NE(rms_line, std::string::npos) << text;
    const auto value_at = text.find("} ", rms_line) + 2;
    const double rms = std::stod(text.substr(value_at, text.find('\n', value_at) - value_at));
    EXPECT_NEAR(rms, static_cast<double>(last->tracking->rms_offset_ns) * 1e-9, 1e-15);
}

}  // namespace
}  // namespace ppsbench::chrony
