// SPDX-License-Identifier: GPL-2.0-or-later
// The capture reader's fast paths (the word-wide pulse-line parser, the body in blocks, a big
// body on two threads) against the reader as it was (reference_capture_parser.hpp): on random
// captures with every line shape the format allows and many it refuses, each path gives the same
// pulses, notes (and the pulses before each), extra values, warnings and the same error, with
// the same line number, whatever the blocks' size and wherever their boundaries fall.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"
#include "reference_capture_parser.hpp"
#include "store/capture_parser.hpp"
#include "store/capture_reading.hpp"

namespace ppsbench::store {
namespace {

using core::Pulse;

// Everything a reading gives, or the error it gave.
struct Reading {
    std::vector<Pulse> pulses;
    std::vector<std::string> notes;  // tag, body and pulses before
    std::vector<std::string> warnings;
    std::vector<std::string> extra_columns;
    std::vector<std::int64_t> extra_values;
    std::string meta;
    std::string error;
    bool operator==(const Reading&) const = default;
};

// `read` fills the file (named `path` in messages) and returns its pulses.
template <typename Read>
Reading reading_of(const std::string& path, Read read) {
    Reading r;
    try {
        CaptureFile file;
        file.path = path;
        std::vector<Pulse> pulses = read(file);
        r.pulses = std::move(pulses);
        for (const Note& note : file.notes) {
            r.notes.push_back(
                fmt::format("{} {} @{}", note.tag, note.body.dump(), note.after_pulses));
        }
        r.warnings = file.warnings;
        r.extra_columns = file.extra_columns;
        r.extra_values = file.extra_values;
        r.meta = file.meta.dump();
    } catch (const core::InputError& e) {
        r.error = e.what();
    }
    return r;
}

Reading reference_reading(const std::string& text, const std::string& path = "cap.csv") {
    return reading_of(path, [&](CaptureFile& file) {
        reference::ReferenceCaptureParser(file).parse(text);
        return file.pulses;
    });
}

// The text fed to a CaptureParser in pieces of `piece` bytes, as the reader's blocks come.
Reading fed_reading(const std::string& text, std::size_t piece, detail::ParseOptions options,
                    bool packed) {
    return reading_of("cap.csv", [&](CaptureFile& file) {
        core::PackedPulses pulses;
        detail::CaptureParser parser(file, packed ? &pulses : nullptr, options);
        std::string carried;
        for (std::size_t at = 0; at < text.size(); at += piece) {
            carried += text.substr(at, piece);
            carried = std::string(parser.feed(carried));
        }
        parser.finish(carried);
        return packed ? pulses.unpack() : file.pulses;
    });
}

Reading file_reading(const std::string& path, detail::ParseOptions options, bool packed) {
    return reading_of(path, [&](CaptureFile& file) {
        core::PackedPulses pulses;
        detail::CaptureParser parser(file, packed ? &pulses : nullptr, options);
        detail::read_capture_into(file, parser);
        return packed ? pulses.unpack() : file.pulses;
    });
}

// Random captures: mostly the usual lines, with every variation the format allows (CRLF, a
// byte order mark, both edges, notes and comments anywhere, blank lines, extra columns,
// leading zeros, numbers of 1 to 20 digits, at the limits) and, in some, one line it refuses.
class CaptureText {
  public:
    explicit CaptureText(std::uint64_t seed) : random_(seed) {}

    std::string make(std::size_t lines) {
        std::string text = chance(0.1) ? "\xEF\xBB\xBF" : "";
        crlf_ = chance(0.2);
        text += "# ppsbench capture 1" + end_of_line();
        if (chance(0.1)) {
            text += "# chrony {\"before\":1}" + end_of_line();
        }
        text += "# meta {\"label\":\"x\"}" + end_of_line();
        extras_ = chance(0.15) ? 1 + pick(2) : 0;
        text += "sequence,edge,timestamp_ns";
        for (std::size_t c = 0; c < extras_; ++c) {
            text += fmt::format(",x{}_ns", c);
        }
        text += end_of_line();
        sequence_ = pick(3) == 0 ? pick(20) : random_() >> pick(64);
        timestamp_ = 1'767'225'600'000'000'000 + static_cast<std::int64_t>(pick(1'000'000'000));
        const std::size_t faulty = chance(0.3) ? pick(lines + 1) : lines + 1;
        for (std::size_t i = 0; i < lines; ++i) {
            text += i == faulty ? faulty_line() : body_line();
        }
        if (chance(0.2)) {
            text += pulse_line();
            text.resize(text.size() - 1 - pick(10));  // a torn last line
        }
        return text;
    }

  private:
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(random_() % n); }
    // Beyond 2^32: size_t is 32 bits on armhf.
    std::uint64_t pick_wide(std::uint64_t n) { return random_() % n; }
    std::string end_of_line() { return crlf_ || chance(0.02) ? "\r\n" : "\n"; }

    std::string body_line() {
        switch (pick(60)) {
            case 0:
                return "# chrony {\"offset\":" + std::to_string(pick(100)) + "}" + end_of_line();
            case 1:
                return "# a free comment" + end_of_line();
            case 2:
                return end_of_line();
            case 3:
                return "#" + end_of_line();
            default:
                return pulse_line();
        }
    }

    std::string pulse_line() {
        std::string sequence;
        switch (pick(40)) {
            case 0:
                sequence = std::to_string(random_());  // a restart, or 20 digits
                break;
            case 1:
                sequence = "00" + std::to_string(++sequence_);
                break;
            case 2:
                sequence = "18446744073709551615";
                sequence_ = ~std::uint64_t{0};
                break;
            case 3:
                sequence_ += 2 + pick(5);  // missed pulses
                sequence = std::to_string(sequence_);
                break;
            default:
                sequence = std::to_string(++sequence_);
        }
        const bool clear = edges_ == 1 || (edges_ == 2 && chance(0.5));
        std::string line = sequence + (clear ? ",clear," : ",assert,") + timestamp();
        for (std::size_t c = 0; c < extras_; ++c) {
            line += "," + std::to_string(static_cast<std::int64_t>(random_() >> pick(64)) -
                                         static_cast<std::int64_t>(pick(1000)));
        }
        if (chance(0.02)) {
            edges_ = pick(3);
        }
        return line + end_of_line();
    }

    std::string timestamp() {
        switch (pick(50)) {
            case 0:
                return std::to_string(core::max_timestamp_ns);
            case 1:
                return "0";
            case 2:
                return std::to_string(pick_wide(1'000'000'000'000));  // a monotonic clock
            case 3:
                return "0" + std::to_string(timestamp_);  // 20 digits, a leading zero
            case 4:
                return std::to_string(4'600'000'000'000'000'000 +
                                      pick_wide(10'000'000'000'000'000));
            default:
                timestamp_ += 1'000'000'000 + static_cast<std::int64_t>(pick(20'000)) - 10'000;
                return std::to_string(timestamp_);
        }
    }

    // A line the reader refuses, each in its own way.
    std::string faulty_line() {
        const std::string seq = std::to_string(++sequence_);
        const std::string ts = std::to_string(timestamp_);
        switch (pick(16)) {
            case 0:
                return seq + ",sideways," + ts + end_of_line();
            case 1:
                return seq + ",assert" + end_of_line();
            case 2:
                return "-" + seq + ",assert," + ts + end_of_line();
            case 3:
                return seq + ",assert,-" + ts + end_of_line();
            case 4:
                return seq + ",assert," + std::to_string(core::max_timestamp_ns + 1) + "\n";
            case 5:
                return seq + (chance(0.5) ? ",assert,9223372036854775808\n"
                                          : ",clear,9223372036854775807\n");
            case 6:
                return "18446744073709551616,assert," + ts + "\n";
            case 7:
                return seq + ",assert," + ts + " \n";
            case 8:
                return seq + ",assert," + ts + "\r\r\n";
            case 9:
                return "# meta {\"label\":\"again\"}\n";
            case 10:
                return "# chrony {not json\n";
            case 11:
                return " \n";
            case 12:
                return seq + ",clear," + ts + ",1,2,3,4,5,6,7,8,9\n";
            case 13:
                return seq + ",assert," + ts.substr(0, 10) + "x" + ts.substr(10) + "\n";
            case 14:
                return "+" + seq + ",assert," + ts + "\n";
            default:
                return seq + ",ASSERT," + ts + "\n";
        }
    }

    std::mt19937_64 random_;
    bool crlf_ = false;
    std::size_t extras_ = 0;
    std::size_t edges_ = 0;  // 0 assert, 1 clear, 2 both
    std::uint64_t sequence_ = 0;
    std::int64_t timestamp_ = 0;
};

void expect_same(const Reading& expected, const Reading& got, const std::string& how) {
    ASSERT_EQ(got.error, expected.error) << how;
    ASSERT_EQ(got.pulses.size(), expected.pulses.size()) << how;
    for (std::size_t i = 0; i < expected.pulses.size(); ++i) {
        ASSERT_EQ(got.pulses[i], expected.pulses[i]) << how << ", pulse " << i;
    }
    ASSERT_EQ(got, expected) << how;
}

TEST(CaptureReadProperty, TheFastPathsReadWhatTheLineByLineReaderReads) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        CaptureText make(seed);
        const std::string text = make.make(1 + seed % 200);
        const Reading expected = reference_reading(text);
        const auto context = [&](const std::string& how) {
            return fmt::format("seed {}: {}\n{}", seed, how, text.substr(0, 2000));
        };
        expect_same(expected,
                    reading_of("cap.csv",
                               [&](CaptureFile& file) {
                                   file = parse_capture_text(text, file.path);
                                   return file.pulses;
                               }),
                    context("parse_capture_text"));
        for (const bool packed : {false, true}) {
            detail::ParseOptions options;
            options.block_bytes = 1 + seed % 97;
            expect_same(expected, fed_reading(text, 1 + seed % 301, options, packed),
                        context(fmt::format("fed, {} B blocks", options.block_bytes)));
            options.fast_path = false;
            expect_same(expected, fed_reading(text, 4096, options, packed),
                        context("the general path alone"));
        }
    }
}

// The fast path expects each sequence number to be the last one + 1 and compares its bytes with
// what that number would look like, carries included: every number near a carry, followed by
// the next one or by a near miss (a skip by a power of ten, back by nine, a digit off), reads as
// the line-by-line reader reads it.
TEST(CaptureReadProperty, SequenceNumbersAreReadNotGuessed) {
    std::vector<std::uint64_t> numbers;
    for (std::uint64_t power = 1; power <= 10'000'000'000'000'000'000U; power *= 10) {
        for (std::uint64_t k = 1; k <= 3; ++k) {
            for (std::uint64_t near = 0; near < 4; ++near) {
                numbers.push_back(k * power - near);
                numbers.push_back(k * power + near);
            }
        }
        if (power > ~std::uint64_t{0} / 10) {
            break;
        }
    }
    numbers.push_back(~std::uint64_t{0});
    const std::string head = "# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns\n";
    for (const std::uint64_t n : numbers) {
        std::string text = head;
        std::int64_t timestamp = 1'767'225'600'000'000'000;
        auto line = [&](std::uint64_t sequence) {
            text += fmt::format("{},assert,{}\n", sequence, timestamp += 1'000'000'000);
        };
        // A run up to n, then n + 1, then each near miss after n.
        for (std::uint64_t back = 12; back > 0; --back) {
            line(n - back);
        }
        line(n);
        line(n + 1);
        for (const std::uint64_t miss : {n + 2, n + 11, n + 101, n - 8, n + 10, n + 1}) {
            line(n);
            line(miss);
        }
        for (int i = 0; i < 3; ++i) {  // room for the fast path's reach
            line(n + 2 + static_cast<std::uint64_t>(i));
        }
        const Reading expected = reference_reading(text);
        ASSERT_EQ(expected.error, "");
        detail::ParseOptions options;
        expect_same(expected, fed_reading(text, text.size(), options, true),
                    fmt::format("around {}", n));
    }
}

// Through a file on two threads, blocks cut at every offset of the lines around them.
TEST(CaptureReadProperty, TwoThreadsReadWhatOneReads) {
    ::ppsbench::testing::TempDir dir;
    const std::string path = dir.file("cap.csv");
    for (std::uint64_t seed = 0; seed < 120; ++seed) {
        CaptureText make(1000 + seed);
        const std::string text = make.make(20 + seed % 150);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        const Reading expected = reference_reading(text, path);
        for (std::size_t block = 1; block <= 90; block += 1 + seed % 3) {
            detail::ParseOptions options;
            options.block_bytes = block;
            options.two_thread_bytes = 0;
            const bool packed = block % 2 == 0;
            expect_same(expected, file_reading(path, options, packed),
                        fmt::format("seed {}, {} B blocks, {}\n{}", seed, block,
                                    packed ? "packed" : "Pulse", text.substr(0, 2000)));
        }
    }
}

// A capture big enough for the reader's own choice of two threads and 1 MiB blocks, with a
// note between every few thousand pulses, read as report reads it.
TEST(CaptureReadProperty, ABigCaptureReadsTheSameOnTwoThreads) {
    ::ppsbench::testing::TempDir dir;
    const std::string path = dir.file("big.csv");
    std::string text = "# ppsbench capture 1\n# meta {}\nsequence,edge,timestamp_ns\n";
    std::mt19937_64 random(26);
    std::uint64_t sequence = 99'990;
    std::int64_t timestamp = 1'767'225'600'000'000'000;
    for (int i = 0; i < 200'000; ++i) {
        sequence += random() % 1000 == 0 ? 3 : 1;
        timestamp += 999'990'000 + static_cast<std::int64_t>(random() % 20'000);
        text += fmt::format("{},{},{}\n", sequence, i % 7 == 0 ? "clear" : "assert", timestamp);
        if (i % 4999 == 0) {
            text += fmt::format("# chrony {{\"at\":{}}}\n", i);
        }
    }
    text += "200001,assert,17672256";
    std::ofstream(path, std::ios::binary) << text;
    const Reading expected = reference_reading(text, path);
    ASSERT_GT(text.size(), detail::ParseOptions{}.two_thread_bytes);
    expect_same(expected,
                reading_of(path,
                           [&](CaptureFile& file) {
                               PackedCapture capture = read_packed_capture(path);
                               file = std::move(capture.file);
                               return capture.pulses.unpack();
                           }),
                "read_packed_capture");
    expect_same(expected,
                reading_of(path,
                           [&](CaptureFile& file) {
                               file = read_capture_file(path);
                               return file.pulses;
                           }),
                "read_capture_file");
}

}  // namespace
}  // namespace ppsbench::store
