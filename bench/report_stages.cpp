// SPDX-License-Identifier: GPL-2.0-or-later
// The cost of each stage of `ppsbench report` on one capture file (issue 26): wall and CPU time,
// peak resident memory and, run under callgrind (bench/stage_costs.py does), instructions.
//
// Run: build/bench/report_stages FILE.csv
// Prints one line per stage: seconds wall and CPU, ns a pulse, and the resident high-water mark
// after the stage in bytes a pulse. The stages, in order:
//   read        store::read_packed_capture (the pulses packed, 8 B a pulse and the sequence runs),
//   as report reads analyze     stats::analyze_packed with every figure the report computes
//   (stability included) summaries   stats::analyze_packed without the stability figures
//   (selection, timeline, phase,
//               steps, summaries, outliers, histogram, detrending, period jitter)
//   stability   stats::compute_stability on one thread, on the report's phase grid (whole ns,
//               the missed pulses as holes), without building the grid (analyze − summaries
//               has both)
//   scan, adev, mdev, mtie   its parts: the holes and range of the grid, then each measure
//               alone at the octave taus (the whole-nanosecond kernels, src/stats/whole_*.cpp)
// The first two are what the report does; the last split `analyze` (its stability part runs
// mdev and half of adev on a second thread beside mtie, so they add up to more than its wall).
// Under callgrind each stage ends with a dump of its own counts (CALLGRIND_DUMP_STATS_AT).

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/analyze_packed.hpp"
#include "ppsbench/stats/stability.hpp"
#include "ppsbench/store/packed_capture_reader.hpp"
// The whole-nanosecond kernels one by one (internal; the report runs them in compute_stability).
#include "../src/stats/whole_kernels.hpp"

// valgrind's client requests (no-ops outside valgrind); without its header, no dumps at all.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#define CALLGRIND_ZERO_STATS ((void)0)
#endif

namespace {

using namespace ppsbench;

double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto seconds = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double peak_rss_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

// Times one stage from construction to report(); under callgrind, dumps its counts there.
class Stage {
  public:
    explicit Stage(const char* name) : name_(name) {}
    void report(std::size_t pulses) const {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
        const double cpu = cpu_seconds() - cpu_;
        CALLGRIND_DUMP_STATS_AT(name_);
        const auto n = static_cast<double>(pulses == 0 ? 1 : pulses);
        std::printf(
            "stage %-9s %8.3f s wall %8.3f s CPU %8.1f ns/pulse  peak RSS %7.1f MB %6.1f B/pulse\n",
            name_, wall, cpu, wall * 1e9 / n, peak_rss_bytes() / 1e6, peak_rss_bytes() / n);
        std::fflush(stdout);
    }

  private:
    const char* name_;
    std::chrono::steady_clock::time_point wall_ = std::chrono::steady_clock::now();
    double cpu_ = cpu_seconds();
};

}  // namespace

int measure(const char* path);

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: report_stages FILE.csv (a capture from 'ppsbench run -o')\n");
        return 2;
    }
    try {
        return measure(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "report_stages: %s\n", e.what());
        return 2;
    }
}

int measure(const char* path) {
    CALLGRIND_ZERO_STATS;  // leave out the program's start
    const Stage read("read");
    const auto [file, pulses] = store::read_packed_capture(path);
    const std::size_t n = pulses.size();
    read.report(n);

    stats::AnalysisOptions options;
    options.period_ns = file.meta.value("period_ns", core::ns_per_second);
    options.clock = file.run_meta.clock;
    options.compute_histogram = false;  // as the report (run_analysis.cpp): no output reads it
    const Stage analyze("analyze");
    const auto everything = stats::analyze_packed(pulses, options);
    analyze.report(n);

    stats::AnalysisOptions no_stability = options;
    no_stability.compute_stability = false;
    no_stability.keep_series = true;  // the phase the kernels below read
    const Stage summaries("summaries");
    const auto r = stats::analyze_packed(pulses, no_stability);
    summaries.report(n);

    // The report's grid: the phase in whole ns by pulse index, the missed pulses as holes.
    const std::vector<double>& phase_ns =
        r.series->offset_ns.empty() ? r.series->detrended_ns : r.series->offset_ns;
    const std::vector<std::int64_t>& k = r.series->index;
    stats::PhaseGrid grid;
    grid.reference_ns = phase_ns.empty() ? 0 : std::llround(phase_ns[0]);
    grid.ns.assign(k.empty() ? 0 : static_cast<std::size_t>(k.back()) + 1, stats::PhaseGrid::hole);
    for (std::size_t i = 0; i < phase_ns.size(); ++i) {
        grid.ns[static_cast<std::size_t>(k[i])] =
            static_cast<std::int32_t>(std::llround(phase_ns[i]) - grid.reference_ns);
    }
    const double tau0 = static_cast<double>(options.period_ns) * 1e-9;
    const auto factors = stats::octave_factors(grid.ns.size());
    const auto lanes = stats::detail::widest_lanes();
    CALLGRIND_ZERO_STATS;  // not the copy above
    const Stage stability("stability");
    const auto all = stats::compute_stability(grid, tau0, stats::StabilityThreads::one);
    stability.report(n);
    const Stage scan("scan");
    const auto whole = stats::detail::scan_whole(grid.ns, lanes);
    scan.report(n);
    const Stage adev("adev");
    const auto a = stats::detail::whole_adev(whole, tau0, factors, lanes);
    adev.report(n);
    const Stage mdev("mdev");
    const auto m = stats::detail::whole_mdev(whole, tau0, factors, lanes);
    mdev.report(n);
    const Stage mtie("mtie");
    const auto t = stats::detail::whole_mtie(whole, factors, lanes);
    mtie.report(n);
    if (all.adev != a || all.mtie_s != t) {
        std::printf("(the stages differ from compute_stability: the grid is not whole)\n");
    }

    std::printf("%zu pulses, %zu taus; sigma %.3f ns, adev(1) %.3e, mdev(1) %.3e, mtie(1) %.3e\n",
                n, factors.size(), everything.headline().stddev, a.empty() ? 0.0 : a[0],
                m.empty() ? 0.0 : m[0], t.empty() ? 0.0 : t[0]);
    return 0;
}
