// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/text.hpp"

#include <gtest/gtest.h>

#include "ppsbench/core/option_value.hpp"

namespace ppsbench::core {
namespace {

TEST(ValidUtf8, KeepsValidTextAsItIs) {
    EXPECT_EQ(valid_utf8("irq/41-pps@12.-1"), "irq/41-pps@12.-1");
    EXPECT_EQ(valid_utf8("σ 2134 ns, µs, 🛰"), "σ 2134 ns, µs, 🛰");
    EXPECT_EQ(valid_utf8(""), "");
}

// Found by fuzz/fingerprint_fuzz: bytes read from a system (a Latin-1 chrony.conf, a process
// name) reached nlohmann::json, whose dump() throws on them.
TEST(ValidUtf8, ReplacesEachByteThatIsNotUtf8WithTheReplacementCharacter) {
    EXPECT_EQ(valid_utf8("refid P\xe9S"), "refid P\uFFFDS") << "Latin-1 é";
    EXPECT_EQ(valid_utf8("\xbd"), "\uFFFD") << "a lone continuation byte";
    EXPECT_EQ(valid_utf8("a\xe2\x82"), "a\uFFFD\uFFFD") << "a character cut off at the end";
    EXPECT_EQ(valid_utf8("\xc0\xaf"), "\uFFFD\uFFFD") << "an overlong '/'";
    EXPECT_EQ(valid_utf8("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD") << "a UTF-16 surrogate";
    EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), "\uFFFD\uFFFD\uFFFD\uFFFD") << "above U+10FFFF";
    EXPECT_TRUE(is_printable_utf8(valid_utf8("x\xff\xfe y")));
}

TEST(IsPrintableUtf8, RefusesControlsAndInvalidBytes) {
    EXPECT_TRUE(is_printable_utf8("Stock kernel, σ"));
    EXPECT_FALSE(is_printable_utf8("bad\xff"));
    EXPECT_FALSE(is_printable_utf8("two\nlines"));
    EXPECT_FALSE(is_printable_utf8("c1 \xc2\x85 control"));
    EXPECT_FALSE(is_printable_utf8("\xc0\xaf"));
}

}  // namespace
}  // namespace ppsbench::core
