// libFuzzer harness: the capture-file parser, then the analysis of whatever it accepted. A capture
// is either read (and analysed without a crash) or refused with core::InputError naming
// FILE:LINE; nothing else may escape, and no sanitizer may report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/store/capture_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto file = ppsbench::store::parse_capture_text(text, "fuzz.csv");
        ppsbench::stats::AnalysisOptions options;
        options.compute_stability = file.pulses.size() < 4096;  // keep each run fast
        (void)ppsbench::stats::analyze(file.pulses, options);
    } catch (const ppsbench::core::Error&) {
    }
    return 0;
}
