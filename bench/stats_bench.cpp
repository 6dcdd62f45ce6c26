// SPDX-License-Identifier: GPL-2.0-or-later
// Speed of the statistics core (issue 3 targets, on the project's 2-core machine):
//   analyze() on 2.6 M pulses (a 30-day 1 Hz capture) and on 10 M pulses;
//   the Allan family (ADEV, MDEV, TDEV, MTIE at octave taus) on 1 M phase samples < 0.5 s.
// Run: build/bench/stats_bench --benchmark_counters_tabular=true
// peak_rss_MB is the process's high-water mark so far (it includes the input pulses).

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include "phase_data.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/stability.hpp"

namespace {

using namespace ppsbench;

// Deterministic synthetic capture: 1 s pulses, 2 µs Gaussian-ish jitter (sum of uniforms),
// 0.1 % late interrupts, one missed pulse per 100 000.
const std::vector<core::Pulse>& pulses(std::size_t n) {
    static std::map<std::size_t, std::vector<core::Pulse>> cache;
    auto& v = cache[n];
    if (v.empty()) {
        v.reserve(n);
        std::uint64_t state = 12345;
        auto next = [&state] {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<double>(state >> 11) * 0x1.0p-53;
        };
        std::int64_t k = 0;
        for (std::size_t i = 0; i < n; ++i, ++k) {
            if (i % 100'000 == 99'999) {
                ++k;
            }
            double jitter = (next() + next() + next() + next() - 2.0) * 3400.0;
            if (next() < 0.001) {
                jitter += 50'000.0 * next();
            }
            v.push_back(
                {static_cast<std::uint64_t>(k),
                 1'700'000'000'000'000'000 + k * 1'000'000'000 + static_cast<std::int64_t>(jitter),
                 core::Edge::assert_edge});
        }
    }
    return v;
}

double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void BM_Analyze(benchmark::State& state) {
    const auto& input = pulses(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto result = stats::analyze(input);
        benchmark::DoNotOptimize(result);
    }
    state.counters["pulses_per_s"] =
        benchmark::Counter(static_cast<double>(input.size()), benchmark::Counter::kIsRate);
    state.counters["peak_rss_MB"] = peak_rss_mb();
}
BENCHMARK(BM_Analyze)
    ->Arg(2'600'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2)
    ->UseRealTime();

void BM_AllanFamilyOctaves(benchmark::State& state) {
    const auto x = ppsbench::bench::phase_seconds(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        auto s = stats::compute_stability(x, 1.0);
        benchmark::DoNotOptimize(s);
    }
    state.counters["taus"] = static_cast<double>(stats::octave_factors(x.size()).size());
}
BENCHMARK(BM_AllanFamilyOctaves)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same phase as the report holds it, in whole ns (the phase above times 1e12: µs of white
// noise on a random walk), every 1000th sample missing; one thread or two.
void BM_AllanFamilyWholeNs(benchmark::State& state) {
    const auto x = ppsbench::bench::phase_seconds(static_cast<std::size_t>(state.range(0)));
    stats::PhaseGrid grid;
    for (std::size_t i = 0; i < x.size(); ++i) {
        grid.ns.push_back(i % 1000 == 999 ? stats::PhaseGrid::hole
                                          : static_cast<std::int32_t>(std::llround(x[i] * 1e12)));
    }
    const auto threads =
        state.range(1) == 1 ? stats::StabilityThreads::one : stats::StabilityThreads::two;
    for (auto _ : state) {
        auto s = stats::compute_stability(grid, 1.0, threads);
        benchmark::DoNotOptimize(s);
    }
    state.counters["taus"] = static_cast<double>(stats::octave_factors(grid.ns.size()).size());
}
BENCHMARK(BM_AllanFamilyWholeNs)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 2})
    ->Args({10'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

template <std::vector<double> (*F)(std::span<const double>, double, std::span<const std::size_t>)>
void BM_OneDeviation(benchmark::State& state) {
    const auto x = ppsbench::bench::phase_seconds(static_cast<std::size_t>(state.range(0)));
    const auto factors = stats::octave_factors(x.size());
    for (auto _ : state) {
        auto d = F(x, 1.0, factors);
        benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(BM_OneDeviation<stats::overlapping_adev>)
    ->Name("BM_Adev")
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OneDeviation<stats::modified_adev>)
    ->Name("BM_Mdev")
    ->Arg(1'000'000)
    ->Unit(benchmark::kMillisecond);

void BM_Mtie(benchmark::State& state) {
    const auto x = ppsbench::bench::phase_seconds(static_cast<std::size_t>(state.range(0)));
    const auto factors = stats::octave_factors(x.size());
    for (auto _ : state) {
        auto d = stats::mtie(x, factors);
        benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(BM_Mtie)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
