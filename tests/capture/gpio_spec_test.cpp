// SPDX-License-Identifier: GPL-2.0-or-later
// How gpio:CHIP:LINE (and poll:CHIP:LINE, latency's --drive) name a chip and a line, shared by
// both libgpiod backends, and what a source says when the chip is not there: no GPIO chip
// exists on CI machines, so these are the parts of the request path that run here.
#include "../../src/capture/sources/gpio_spec.hpp"

#include <gtest/gtest.h>

#include "../../src/capture/sources/gpio_source.hpp"
#include "ppsbench/capture/gpio_chip.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {
namespace {

TEST(GpioSpec, ParsesChipAndLineAndRejectsHalfSpecs) {
    const auto spec = parse_gpio_spec("/dev/gpiochip0:17");
    EXPECT_EQ(spec.chip, "/dev/gpiochip0");
    EXPECT_EQ(spec.line, "17");
    EXPECT_EQ(parse_gpio_spec("pinctrl-bcm2711:GPIO18").line, "GPIO18");
    EXPECT_THROW(parse_gpio_spec("17"), core::UsageError);
    EXPECT_THROW(parse_gpio_spec("gpiochip0:"), core::UsageError);
}

TEST(GpioChipNode, NamesNumbersAndPathsNeedNoChipToBeFound) {
    EXPECT_EQ(gpio_chip_node("gpiochip0"), "/dev/gpiochip0");
    EXPECT_EQ(gpio_chip_node("gpiochip12"), "/dev/gpiochip12");
    EXPECT_EQ(gpio_chip_node("/dev/gpiochip4"), "/dev/gpiochip4");
    EXPECT_EQ(gpio_chip_node("4"), "/dev/gpiochip4");
}

TEST(GpioChipNode, ALabelIsLeftToTheChipsToAnswer) {
    EXPECT_EQ(gpio_chip_node("pinctrl-bcm2711"), std::nullopt);
    EXPECT_EQ(gpio_chip_node("pinctrl-rp1"), std::nullopt);
    EXPECT_EQ(gpio_chip_node("gpiochip"), std::nullopt) << "no number: a label";
    EXPECT_EQ(gpio_chip_node("gpiochip0a"), std::nullopt);
    EXPECT_EQ(gpio_chip_node(""), std::nullopt);
}

TEST(GpioLineOffset, ANumberIsAnOffsetAnythingElseALineName) {
    EXPECT_EQ(gpio_line_offset("17"), 17U);
    EXPECT_EQ(gpio_line_offset("0"), 0U);
    EXPECT_EQ(gpio_line_offset("GPIO17"), std::nullopt);
    EXPECT_EQ(gpio_line_offset("17a"), std::nullopt);
    EXPECT_EQ(gpio_line_offset("-1"), std::nullopt);
    EXPECT_EQ(gpio_line_offset(""), std::nullopt);
}

TEST(GpioBias, TheFourValuesAndARefusalNamingThem) {
    EXPECT_EQ(parse_gpio_bias("", "gpio:c:1"), GpioBias::as_is);
    EXPECT_EQ(parse_gpio_bias("as-is", "gpio:c:1"), GpioBias::as_is);
    EXPECT_EQ(parse_gpio_bias("pull-up", "gpio:c:1"), GpioBias::pull_up);
    EXPECT_EQ(parse_gpio_bias("pull-down", "gpio:c:1"), GpioBias::pull_down);
    EXPECT_EQ(parse_gpio_bias("disable", "gpio:c:1"), GpioBias::disable);
    try {
        parse_gpio_bias("up", "gpio:c:1");
        FAIL();
    } catch (const core::UsageError& e) {
        EXPECT_STREQ(e.what(), "gpio:c:1: --bias up: use as-is, pull-up, pull-down or disable");
    }
}

TEST(GpioErrors, EachNamesTheThingAndTheFix) {
    EXPECT_EQ(gpio_no_line_error("gpio:gpiochip0:99", "gpiochip0", "99", 54),
              "gpio:gpiochip0:99: chip gpiochip0 has no line '99' (it has 54 lines); check the "
              "offset with 'gpioinfo gpiochip0'");
    EXPECT_EQ(gpio_busy_error("gpio:gpiochip0:18", "pps-gpio"),
              "gpio:gpiochip0:18: the line is busy (used by 'pps-gpio'); stop that user (a "
              "pps-gpio overlay on the same pin, or another program) or wire the signal to a "
              "free line");
    EXPECT_NE(gpio_busy_error("gpio:gpiochip0:18", "").find("used by 'the kernel'"),
              std::string::npos);
    EXPECT_NE(gpio_chip_error("gpio:gpiochip0", EACCES).find("permission denied"),
              std::string::npos);
    EXPECT_EQ(gpio_request_error("gpio:gpiochip0:18", "edge events", EBUSY),
              "gpio:gpiochip0:18: the line is busy; another program holds it");
    EXPECT_NE(gpio_request_error("gpio:gpiochip0:18", "edge events", EPERM)
                  .find("cannot request edge events: "),
              std::string::npos);
}

// Whichever backend is built, a chip that is not there is one InputError (exit 2) naming it.
void expect_no_such_chip(const std::string& spec, const GpioLineSpec& where) {
    try {
        GpioSource source(spec, where, {});
        ADD_FAILURE() << spec << " opened";
    } catch (const core::InputError& e) {
        const std::string text = e.what();
        EXPECT_TRUE(text.starts_with("gpio:" + where.chip + ": no such GPIO chip")) << text;
        EXPECT_NE(text.find("gpiodetect"), std::string::npos) << text;
    }
}

TEST(GpioSource, AMissingChipSaysHowToListChips) {
    expect_no_such_chip("gpio:gpiochip99:1", {"gpiochip99", "1"});
    expect_no_such_chip("gpio:/dev/gpiochip99:1", {"/dev/gpiochip99", "1"});
    expect_no_such_chip("gpio:99:1", {"99", "1"});
    expect_no_such_chip("gpio:no-such-label:GPIO17", {"no-such-label", "GPIO17"});
}

TEST(GpioSource, ABadBiasIsRefusedBeforeAnyChipIsOpened) {
    SourceOptions options;
    options.bias = "sideways";
    EXPECT_THROW(GpioSource("gpio:gpiochip99:1", {"gpiochip99", "1"}, options), core::UsageError);
}

TEST(GpioLevelReader, AMissingChipNamesThePollSpec) {
    try {
        open_gpio_level_reader("poll:gpiochip99:18", {"gpiochip99", "18"});
        FAIL();
    } catch (const core::InputError& e) {
        EXPECT_TRUE(std::string(e.what()).starts_with("poll:gpiochip99:18: no such GPIO chip"))
            << e.what();
    }
}

}  // namespace
}  // namespace ppsbench::capture
