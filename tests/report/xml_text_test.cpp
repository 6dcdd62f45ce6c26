// SPDX-License-Identifier: GPL-2.0-or-later
// Text in the XML documents (the SVG plots, the HTML page, JUnit) comes from users and from file
// names, which may hold any bytes. Whatever goes in, what comes out is well-formed XML 1.0
// character data in UTF-8; text that needed no escaping comes out unchanged.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ppsbench/core/text.hpp"
#include "render/xml.hpp"

namespace ppsbench::render {
namespace {

bool xml_char(char32_t code) {
    return code == 0x9 || code == 0xA || code == 0xD || (code >= 0x20 && code <= 0xD7FF) ||
           (code >= 0xE000 && code <= 0xFFFD) || (code >= 0x10000 && code <= 0x10FFFF);
}

// Why the escaped text is not well-formed, or "" when it is.
std::string xml_fault(const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t from = at;
        const auto code = core::next_utf8(text, at);
        if (!code) {
            return "a byte that is not UTF-8 at " + std::to_string(from);
        }
        if (!xml_char(*code) || *code == '<' || *code == '"' || *code == '\'' || *code == '>') {
            return "character " + std::to_string(static_cast<unsigned>(*code)) + " at " +
                   std::to_string(from);
        }
        if (*code == '&' && text.compare(from, 4, "&lt;") != 0 &&
            text.compare(from, 4, "&gt;") != 0 && text.compare(from, 5, "&amp;") != 0 &&
            text.compare(from, 6, "&quot;") != 0 && text.compare(from, 6, "&apos;") != 0) {
            return "a bare '&' at " + std::to_string(from);
        }
    }
    return "";
}

TEST(XmlText, AnyBytesBecomeWellFormedCharacterData) {
    std::mt19937 random(2783);
    std::uniform_int_distribution<int> length(0, 40);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int trial = 0; trial < 20000; ++trial) {
        std::string text(static_cast<std::size_t>(length(random)), '\0');
        for (char& c : text) {
            c = static_cast<char>(byte(random));
        }
        const std::string escaped = xml_escape(text);
        EXPECT_EQ(xml_fault(escaped), "") << "trial " << trial;
    }
}

TEST(XmlText, ControlCharactersAndStrayBytesAreShownAsOnATerminal) {
    EXPECT_EQ(xml_escape("run\x01 \xff.csv"), "run\\x01 \\xff.csv");
    EXPECT_EQ(xml_escape("\xef\xbf\xbe"), "\\ufffe");  // U+FFFE: valid UTF-8, not an XML Char
    EXPECT_EQ(xml_escape("tab\there\nnew line"), "tab\there\nnew line");
}

TEST(XmlText, TextThatNeedsNoEscapingIsUnchanged) {
    for (const std::string text :
         {"", "stock 6.1", "σ 2134 → 6947 ns", "µs", "日本語 ラベル", "emoji 😀 beyond the BMP"}) {
        EXPECT_EQ(xml_escape(text), text);
    }
    EXPECT_EQ(xml_escape("a<b & 'c' > \"d\""), "a&lt;b &amp; &apos;c&apos; &gt; &quot;d&quot;");
}

}  // namespace
}  // namespace ppsbench::render
