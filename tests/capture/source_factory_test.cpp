#include "ppsbench/capture/source_factory.hpp"

#include <gtest/gtest.h>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {
namespace {

std::string error_of(const std::string& spec) {
    try {
        open_source(spec, {});
    } catch (const core::Error& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SourceFactory, UnknownOrMissingSchemesListTheKnownOnes) {
    EXPECT_NE(error_of("shm:0").find("unknown scheme 'shm'; use one of pps:/dev/pps0, "
                                     "gpio:gpiochip0:17, ptp:/dev/ptp0"),
              std::string::npos);
    EXPECT_NE(error_of("stock.csv").find("missing scheme"), std::string::npos);
    EXPECT_NE(error_of("pps:").find("nothing after 'pps:'"), std::string::npos);
}

TEST(PpsDeviceSource, ANonexistentDeviceSaysHowToFindOne) {
    const auto message = error_of("pps:/dev/pps-does-not-exist");
    EXPECT_NE(message.find("/dev/pps-does-not-exist: no such PPS device"), std::string::npos)
        << message;
    EXPECT_NE(message.find("/sys/class/pps"), std::string::npos) << message;
}

TEST(PpsDeviceSource, ABarePathIsTakenAsAPpsDevice) {
    EXPECT_NE(error_of("/dev/pps-does-not-exist").find("no such PPS device"), std::string::npos);
}

TEST(PpsDeviceSource, AFileThatIsNotAPpsDeviceIsNamed) {
    EXPECT_NE(error_of("pps:/dev/null").find("/dev/null: not a PPS device"), std::string::npos);
    testing::TempDir dir;
    testing::write_text(dir.file("plain"), "x");
    EXPECT_NE(error_of("pps:" + dir.file("plain")).find("not a PPS device"), std::string::npos);
}

TEST(ReplaySource, AMissingFileIsAnInputError) {
    EXPECT_THROW(open_source("replay:/nonexistent.csv", {}), core::InputError);
}

}  // namespace
}  // namespace ppsbench::capture
