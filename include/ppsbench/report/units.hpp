#pragma once

#include <string>

namespace ppsbench::report {

// A time in nanoseconds as people read it: "440 ns", "2.13 µs", "38.2 µs", "1.25 ms", with
// three significant figures; NaN (an absent figure) prints as "—". With `sign`, positive values
// get a '+' so a column of offsets lines up.
std::string format_ns(double ns, bool sign = false);

}  // namespace ppsbench::report
