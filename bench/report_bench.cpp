// SPDX-License-Identifier: GPL-2.0-or-later
// End-to-end cost of `ppsbench report` (issue 3 targets, on the project's 2-core machine):
//   read a 2.6 M-pulse capture file and compute every measure, < 1 s wall;
//   the same for 10 M pulses, < 4 s wall and < 400 MB peak resident memory;
//   the Allan family (ADEV, MDEV, TDEV, MTIE at octave taus) on 1 M samples, < 0.5 s.
//
// Run: build-rel/bench/report_bench [DIR]
// The capture files are written once into DIR (default /tmp/ppsbench-report-bench) by the same
// simulator `ppsbench run --source sim:threaded,missed=0.001,outliers=0.0005 --count N` uses,
// and reused by later runs. Each file is measured in a fresh child process, so its peak RSS
// (getrusage's high-water mark) is that of one read + analyze, not of the bench's history.
// CPU time is user + system of all threads: quote it alongside wall time on a loaded machine.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "phase_data.hpp"
#include "ppsbench/capture/capture_loop.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/stability.hpp"
#include "ppsbench/store/capture_reader.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace {

using namespace ppsbench;

constexpr const char* sim_spec = "sim:threaded,missed=0.001,outliers=0.0005";

struct Clock {
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    double cpu = cpu_seconds();

    static double cpu_seconds() {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        auto seconds = [](const timeval& tv) {
            return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
        };
        return seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    double wall_s() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    }
    double cpu_s() const { return cpu_seconds() - cpu; }
};

double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

std::string ensure_capture(const std::filesystem::path& dir, std::uint64_t pulses) {
    const auto path = dir / ("sim-" + std::to_string(pulses) + ".csv");
    if (std::filesystem::exists(path)) {
        return path.string();
    }
    std::printf("writing %s (%llu pulses, once)...\n", path.c_str(),
                static_cast<unsigned long long>(pulses));
    std::fflush(stdout);
    const auto partial = path.string() + ".partial";
    {
        auto source = capture::open_source(sim_spec, {});
        store::CaptureWriter writer(partial,
                                    {{"label", "bench"},
                                     {"source", sim_spec},
                                     {"simulated", true},
                                     {"clock", "realtime"},
                                     {"period_ns", core::ns_per_second}},
                                    true);
        capture::CaptureLimits limits;
        limits.count = pulses;
        capture::run_capture(*source, writer, limits, nullptr);
    }
    std::filesystem::rename(partial, path);
    return path.string();
}

// One report's worth of work, in a child process; prints one line.
void measure_report(const std::string& path) {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        const Clock total;
        const auto file = store::read_capture_file(path);
        const double read_wall = total.wall_s();
        const double read_cpu = total.cpu_s();
        const Clock analysis;
        stats::AnalysisOptions options;
        options.period_ns = file.meta.value("period_ns", core::ns_per_second);
        const auto r = stats::analyze(file.pulses, options);
        std::printf(
            "report %9zu pulses: read %6.3f s wall %6.3f s CPU | analyze %6.3f s wall %6.3f s "
            "CPU | total %6.3f s wall %6.3f s CPU | peak RSS %6.1f MB | sigma %.1f ns, "
            "%zu outliers, %llu missed\n",
            file.pulses.size(), read_wall, read_cpu, analysis.wall_s(), analysis.cpu_s(),
            total.wall_s(), total.cpu_s(), peak_rss_mb(), r.headline().stddev,
            r.outliers.pulses.size(), static_cast<unsigned long long>(r.missed_pulses));
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("report %s: child failed (status %d)\n", path.c_str(), status);
    }
}

void measure_allan(std::size_t n) {
    const auto x = ppsbench::bench::phase_seconds(n);
    double best_wall = INFINITY;
    double best_cpu = INFINITY;
    std::size_t taus = 0;
    for (int repeat = 0; repeat < 3; ++repeat) {
        const Clock c;
        const auto s = stats::compute_stability(x, 1.0);
        best_wall = std::min(best_wall, c.wall_s());
        best_cpu = std::min(best_cpu, c.cpu_s());
        taus = s.tau_s.size();
    }
    std::printf(
        "allan  %9zu samples: ADEV+MDEV+TDEV+MTIE at %zu octave taus: %6.3f s wall "
        "%6.3f s CPU (best of 3)\n",
        n, taus, best_wall, best_cpu);
}

}  // namespace

int main(int argc, char** argv) {
    const std::filesystem::path dir = argc > 1 ? argv[1] : "/tmp/ppsbench-report-bench";
    std::filesystem::create_directories(dir);
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) == 3) {
        std::printf("load average %.2f %.2f %.2f on %ld CPUs (wall times are noisy under load)\n",
                    load[0], load[1], load[2], sysconf(_SC_NPROCESSORS_ONLN));
    }
    for (const std::uint64_t n : {2'600'000ULL, 10'000'000ULL}) {
        measure_report(ensure_capture(dir, n));
    }
    measure_allan(1'000'000);
    return 0;
}
