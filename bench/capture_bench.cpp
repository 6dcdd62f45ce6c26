// SPDX-License-Identifier: GPL-2.0-or-later
// Throughput of the capture path and the file readers. Run: ./build/bench/capture_bench
// The capture loop's per-pulse cost matters for kHz GPIO signals; the reader's for month-long
// captures (a 30-day 1 Hz capture is 2.6 million pulses).
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <string>

#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"

namespace {

using namespace ppsbench;

std::string temp_path(const char* name) {
    return std::string("/tmp/ppsbench-bench-") + std::to_string(::getpid()) + "-" + name;
}

void write_capture(const std::string& path, std::uint64_t pulses) {
    auto source = capture::open_source("sim:threaded", {});
    store::CaptureWriter writer(path, {{"label", "bench"}}, true);
    capture::CaptureLimits limits;
    limits.count = pulses;
    capture::run_capture(*source, writer, limits, nullptr);
}

// sim source → capture loop → capture file, pulses per second.
void BM_CaptureToFile(benchmark::State& state) {
    const auto path = temp_path("capture.csv");
    const auto pulses = static_cast<std::uint64_t>(state.range(0));
    for (auto _ : state) {
        write_capture(path, pulses);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pulses));
    std::remove(path.c_str());
}
BENCHMARK(BM_CaptureToFile)->Arg(100'000)->Unit(benchmark::kMillisecond);

// Reading a capture file back, pulses and bytes per second.
void BM_ReadCaptureFile(benchmark::State& state) {
    const auto path = temp_path("read.csv");
    const auto pulses = static_cast<std::uint64_t>(state.range(0));
    write_capture(path, pulses);
    const auto bytes = std::filesystem::file_size(path);
    for (auto _ : state) {
        const auto file = store::read_capture_file(path);
        benchmark::DoNotOptimize(file.pulses.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pulses));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    std::remove(path.c_str());
}
BENCHMARK(BM_ReadCaptureFile)->Arg(2'600'000)->Unit(benchmark::kMillisecond);

// The same file read as report reads it (read_packed_capture: the pulses packed, the body on
// two threads), pulses and bytes per second of wall time.
void BM_ReadPackedCapture(benchmark::State& state) {
    const auto path = temp_path("read-packed.csv");
    const auto pulses = static_cast<std::uint64_t>(state.range(0));
    write_capture(path, pulses);
    const auto bytes = std::filesystem::file_size(path);
    for (auto _ : state) {
        const auto capture = store::read_packed_capture(path);
        benchmark::DoNotOptimize(capture.pulses.size());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pulses));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    std::remove(path.c_str());
}
BENCHMARK(BM_ReadPackedCapture)->Arg(2'600'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
