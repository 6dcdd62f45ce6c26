// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Messages on stderr name files, devices and labels that come from users and other systems, and
// a file name may hold any bytes: an escape sequence that rewrites the terminal, a carriage
// return that hides the start of the line, a byte that is not UTF-8. The program's std::cerr
// goes through this filter, so every message, wherever it is written, reaches the terminal or
// the journal as printable_utf8() shows it (\xNN, \uNNNN), lines kept apart by their newlines.

#include <ostream>
#include <streambuf>

namespace ppsbench::core {

class PrintableStreamBuf final : public std::streambuf {
  public:
    explicit PrintableStreamBuf(std::streambuf* target) : target_(target) {}

  protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize count) override;
    int sync() override;

  private:
    std::streambuf* target_;
};

// While it lives, `stream` writes through a PrintableStreamBuf to what it wrote to before.
class PrintableStream {
  public:
    explicit PrintableStream(std::ostream& stream)
        : stream_(stream), filter_(stream.rdbuf()), before_(stream.rdbuf(&filter_)) {}
    ~PrintableStream() {
        stream_.flush();
        stream_.rdbuf(before_);
    }
    PrintableStream(const PrintableStream&) = delete;
    PrintableStream& operator=(const PrintableStream&) = delete;

  private:
    std::ostream& stream_;
    PrintableStreamBuf filter_;
    std::streambuf* before_;
};

}  // namespace ppsbench::core
