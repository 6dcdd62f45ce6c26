#pragma once

#include <span>

#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

// Where the capture loop hands pulses as they arrive (a capture file, a test's vector).
// Implementations must not lose a pulse they accepted: write() returns only once the pulses are
// durable enough to survive the process dying (for a file: in the kernel's page cache).
class PulseSink {
  public:
    virtual ~PulseSink() = default;
    virtual void write(std::span<const Pulse> pulses) = 0;
};

}  // namespace ppsbench::core
