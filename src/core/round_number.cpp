// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/round_number.hpp"

#include <cmath>
#include <initializer_list>

namespace ppsbench::core {

double round_up_1_2_5(double raw) {
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double step : {1.0, 2.0, 5.0}) {
        if (raw <= step * decade) {
            return step * decade;
        }
    }
    return 10.0 * decade;
}

}  // namespace ppsbench::core
