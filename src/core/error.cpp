// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/error.hpp"

#include <cstring>

namespace ppsbench::core {

std::string errno_message(int err) {
    return std::strerror(err);
}

}  // namespace ppsbench::core
