#include "ppsbench/report/units.hpp"

#include <fmt/format.h>
#include <cmath>

namespace ppsbench::report {

std::string format_ns(double ns, bool sign) {
    if (!std::isfinite(ns)) {
        return "—";
    }
    const double magnitude = std::fabs(ns);
    double value = ns;
    const char* unit = "ns";
    if (magnitude >= 1e9) {
        value = ns / 1e9;
        unit = "s";
    } else if (magnitude >= 1e6) {
        value = ns / 1e6;
        unit = "ms";
    } else if (magnitude >= 1e4) {
        // Up to 9999 ns stays in ns: the write-up's "2134 ns" reads better than "2.13 µs".
        value = ns / 1e3;
        unit = "µs";
    } else {
        return sign ? fmt::format("{:+.0f} ns", ns) : fmt::format("{:.0f} ns", ns);
    }
    const double abs_value = std::fabs(value);
    const int decimals = abs_value >= 100 ? 0 : (abs_value >= 10 ? 1 : 2);
    return sign ? fmt::format("{:+.{}f} {}", value, decimals, unit)
                : fmt::format("{:.{}f} {}", value, decimals, unit);
}

}  // namespace ppsbench::report
