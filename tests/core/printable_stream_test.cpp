// SPDX-License-Identifier: GPL-2.0-or-later
// stderr through PrintableStream: a message naming a hostile file name reaches the terminal as
// text, line by line; a message of printable text is unchanged, whatever its script.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "ppsbench/core/option_value.hpp"
#include "ppsbench/core/printable_stream.hpp"

namespace ppsbench::core {
namespace {

std::string through_filter(const std::string& message) {
    std::ostringstream sink;
    {
        const PrintableStream filter(sink);
        sink << message;
    }
    return sink.str();
}

TEST(PrintableStream, EscapesAndStrayBytesInAFileNameAreShownNotObeyed) {
    EXPECT_EQ(through_filter("ppsbench report: run\x1b[2J\r\xff.csv: cannot open\n"),
              "ppsbench report: run\\x1b[2J\\x0d\\xff.csv: cannot open\n");
}

TEST(PrintableStream, PrintableMessagesAndTheirLinesAreUnchanged) {
    const std::string message =
        "ppsbench gate: σ 6947 ns > 3 µs → REGRESSION\nsecond line: 日本語\n\nafter a blank line";
    EXPECT_EQ(through_filter(message), message);
}

// Property: for any bytes, the filter gives what printable_utf8 gives for each line, and
// the same number of lines; the whole stays printable between its newlines.
TEST(PrintableStream, AnyBytesGiveEachLineAsPrintableUtf8ShowsIt) {
    std::mt19937 random(1065);
    std::uniform_int_distribution<int> length(0, 60);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int trial = 0; trial < 5000; ++trial) {
        std::string message(static_cast<std::size_t>(length(random)), '\0');
        for (char& c : message) {
            c = static_cast<char>(byte(random) % 7 == 0 ? '\n' : byte(random));
        }
        std::string expected;
        std::size_t from = 0;
        for (std::size_t end; (end = message.find('\n', from)) != std::string::npos;
             from = end + 1) {
            expected += printable_utf8(message.substr(from, end - from)) + "\n";
        }
        expected += printable_utf8(message.substr(from));
        const std::string shown = through_filter(message);
        EXPECT_EQ(shown, expected) << "trial " << trial;
        std::istringstream lines(shown);
        for (std::string line; std::getline(lines, line);) {
            EXPECT_TRUE(is_printable_utf8(line)) << "trial " << trial;
        }
    }
}

// The stream is restored when the filter ends: what is written after goes straight through.
TEST(PrintableStream, TheStreamIsItsOwnAgainAfterwards) {
    std::ostringstream sink;
    std::ostream& stream = sink;
    std::streambuf* const before = stream.rdbuf();
    {
        const PrintableStream filter(stream);
        EXPECT_NE(stream.rdbuf(), before);
    }
    EXPECT_EQ(stream.rdbuf(), before);
    stream << "\x01";
    EXPECT_EQ(sink.str(), "\x01");
}

}  // namespace
}  // namespace ppsbench::core
