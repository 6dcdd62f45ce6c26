// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A real chronyd per test (header-only, so tests/chrony needs no helper sources):
// `chronyd -x -d -u root -f CONF` in a mode-700 temporary directory, never touching the host
// clock (-x), its command socket there (bindcmdaddress), no NTP port (port 0, cmdport 0), and a
// `refclock SOCK` fed by a thread that plays a simulated PPS: one pulse per second, stamped
// S + e with e Gaussian (seeded), as a PPS device with interrupt latency would stamp it.

#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ppsbench/chrony/chronyc.hpp"
#include "ppsbench/chrony/report.hpp"
#include "ppsbench/core/pulse.hpp"

namespace ppsbench::chrony::testing {

inline std::string chronyd_path() {
    const char* env = std::getenv("PPSBENCH_CHRONYD");
    return env != nullptr ? env : "/usr/sbin/chronyd";
}

inline bool chronyd_installed() {
    return ::access(chronyd_path().c_str(), X_OK) == 0;
}

inline std::int64_t realtime_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A private directory, removed with everything in it.
class TempDir {
  public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "ppsbench-chrony-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
        }
        path_ = pattern;
        // chronyd refuses a command socket in a directory others can reach.
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// Sends chrony's `struct sock_sample` datagrams to a SOCK refclock.
class SockRefclockClient {
  public:
    explicit SockRefclockClient(std::string path) : path_(std::move(path)) {
        fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) {
            throw std::runtime_error("socket(AF_UNIX) failed");
        }
    }
    SockRefclockClient(const SockRefclockClient&) = delete;
    SockRefclockClient& operator=(const SockRefclockClient&) = delete;
    ~SockRefclockClient() { ::close(fd_); }

    // A PPS pulse the system clock stamped at `timestamp_ns`. chrony 4.3's SOCK driver hands a
    // pulse sample's `offset` to the PPS code as the pulse's position within the second, the
    // way refclock_pps passes ts.tv_nsec: refclocks.log then shows raw offset = -offset, just as
    // for `refclock PPS /dev/ppsN`. `tv` is the pulse time (chrony rejects future samples).
    bool send_pulse(std::int64_t timestamp_ns) {
        Sample s{};
        s.tv_sec = timestamp_ns / 1'000'000'000;
        s.tv_usec = (timestamp_ns % 1'000'000'000) / 1000;
        std::int64_t phase = timestamp_ns % 1'000'000'000;
        if (phase > 500'000'000) {
            phase -= 1'000'000'000;
        }
        s.offset = static_cast<double>(phase) * 1e-9;
        s.pulse = 1;
        s.magic = 0x534f434b;  // "SOCK"
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
        return ::sendto(fd_, &s, sizeof(s), 0, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) ==
               static_cast<ssize_t>(sizeof(s));
    }

  private:
    // refclock_sock.c's layout on 64-bit Linux (40 bytes, native endian).
    struct Sample {
        std::int64_t tv_sec;
        std::int64_t tv_usec;
        double offset;  // seconds
        std::int32_t pulse;
        std::int32_t leap;
        std::int32_t pad;
        std::int32_t magic;
    };
    static_assert(sizeof(Sample) == 40);

    std::string path_;
    int fd_ = -1;
};

struct ChronydConfig {
    // `local stratum 1`: lets chronyd accept PPS pulses with no other time source (as a PPS-only
    // benchmark box is configured); unsynchronised it then reports the local refid 7F7F0101.
    bool local = true;
    // Feed one simulated pulse per second from a background thread.
    bool feed = true;
    double jitter_sigma_ns = 2000.0;
    std::uint32_t seed = 20240611;
    // chrony.conf's `logbanner` (entries between banners); unset: chrony's default, 32.
    std::optional<int> logbanner;
    // The refclock's `poll` (log2 s between clock updates).
    int poll = 0;
    // The refclock's `offset` (seconds), written only when set.
    std::optional<double> refclock_offset;
    // chrony.conf's `fallbackdrift MIN MAX` (log2 s): 2^MIN s after the last clock update
    // chronyd switches to a fallback drift and logs an unsynchronised line in the same process.
    // Such a drift needs updates at least 1 s apart (poll 1 or more) over 2·2^MIN s first.
    std::optional<std::pair<int, int>> fallbackdrift;
};

class ChronydFixture {
  public:
    explicit ChronydFixture(ChronydConfig config = {}) : config_(config) {
        write_config();
        start();
        if (config_.feed) {
            feeder_ = std::jthread([this](std::stop_token stop) { feed(stop); });
        }
    }
    ChronydFixture(const ChronydFixture&) = delete;
    ChronydFixture& operator=(const ChronydFixture&) = delete;
    ~ChronydFixture() {
        if (feeder_.joinable()) {
            feeder_.request_stop();
            wake_.notify_all();
            feeder_.join();
        }
        stop_chronyd();
    }

    std::filesystem::path dir() const { return dir_.path(); }
    std::string socket_path() const { return (dir() / "chronyd.sock").string(); }
    std::string refclock_socket() const { return (dir() / "refclock.sock").string(); }
    std::string refclocks_log() const { return (dir() / "refclocks.log").string(); }
    std::string tracking_log() const { return (dir() / "tracking.log").string(); }
    std::string conf_path() const { return (dir() / "chrony.conf").string(); }

    ChronycOptions chronyc() const {
        ChronycOptions o;
        o.socket = socket_path();
        return o;
    }

    // Pulses sent so far (what the simulated device "stamped").
    std::vector<core::Pulse> sent_pulses() const {
        std::lock_guard lock(mutex_);
        return sent_;
    }

    // Stop feeding (chronyd's state then holds still: no new samples, no clock updates).
    void pause_feed() {
        std::lock_guard lock(mutex_);
        paused_ = true;
    }
    void resume_feed() {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }

    // Polls `chronyc -c tracking` until chronyd follows the refclock; false on timeout.
    bool wait_synchronised(std::chrono::seconds timeout) const {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto r = run_chronyc(chronyc(), "tracking");
            if (r.outcome == ChronycOutcome::ok && parse_tracking(r.out).synchronised()) {
                return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return false;
    }

    // Waits until chronyd has logged at least `n` raw PPS samples after the first sync.
    void wait_pulses(std::size_t n, std::chrono::seconds timeout) const {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (sent_pulses().size() < n && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }

    // SIGTERM and start again on the same directory, logs and driftfile: a service restart or
    // a reboot. The feeder keeps sending; pulses that arrive while no chronyd listens are lost
    // (not recorded as sent).
    void restart_chronyd() {
        stop_chronyd();
        std::filesystem::remove(socket_path());
        std::filesystem::remove(refclock_socket());
        start();
    }

    // SIGSTOP: chronyd still owns its socket but answers nothing (a hung daemon).
    void freeze() {
        if (pid_ > 0) {
            ::kill(pid_, SIGSTOP);
        }
    }

    // SIGKILL, as a crash or the OOM killer would: no clean-up by chronyd.
    void kill_chronyd() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
    }

    std::string chronyd_output() const {
        std::ifstream in(dir() / "chronyd.out");
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }

  private:
    void write_config() {
        std::ofstream conf(conf_path());
        const auto d = dir().string();
        conf << "# written by ppsbench's test harness\n"
             << "bindcmdaddress " << socket_path() << "\n"
             << "cmdport 0\n"
             << "port 0\n"
             // poll 0 (default), filter 1: one sample per pulse, so chronyd syncs in seconds.
             << "refclock SOCK " << refclock_socket() << " refid PPS poll " << config_.poll
             << " filter 1"
             << (config_.refclock_offset ? " offset " + std::to_string(*config_.refclock_offset)
                                         : std::string())
             << "\n"
             << (config_.local ? "local stratum 1\n" : "") << "logdir " << d << "\n"
             << "log refclocks tracking\n"
             << "driftfile " << d << "/drift\n"
             << "pidfile " << d << "/chronyd.pid\n";
        if (config_.logbanner) {
            conf << "logbanner " << *config_.logbanner << "\n";
        }
        if (config_.fallbackdrift) {
            conf << "fallbackdrift " << config_.fallbackdrift->first << " "
                 << config_.fallbackdrift->second << "\n";
        }
    }

    void start() {
        std::vector<std::string> args{chronyd_path(), "-x", "-d"};
        if (::geteuid() == 0) {
            args.insert(args.end(), {"-u", "root"});
        } else {
            // Without root chronyd needs -U, and the directory must belong to its user.
            const passwd* pw = ::getpwuid(::geteuid());
            args.insert(args.end(), {"-U", "-u", pw != nullptr ? pw->pw_name : "nobody"});
        }
        args.insert(args.end(), {"-f", conf_path()});

        std::vector<char*> argv;
        for (auto& a : args) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        ::posix_spawn_file_actions_init(&actions);
        const std::string out = (dir() / "chronyd.out").string();
        ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                           O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
        const int rc = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        ::posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            pid_ = -1;
            throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!std::filesystem::exists(socket_path()) ||
               !std::filesystem::exists(refclock_socket())) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                throw std::runtime_error("chronyd exited at start: " + chronyd_output());
            }
            if (std::chrono::steady_clock::now() > deadline) {
                stop_chronyd();
                throw std::runtime_error("chronyd made no command socket in 5 s: " +
                                         chronyd_output());
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }

    void stop_chronyd() {
        if (pid_ <= 0) {
            return;
        }
        ::kill(pid_, SIGCONT);  // in case a test froze it
        ::kill(pid_, SIGTERM);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (std::chrono::steady_clock::now() < deadline) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

    void feed(std::stop_token stop) {
        SockRefclockClient client(refclock_socket());
        std::mt19937_64 rng(config_.seed);
        std::normal_distribution<double> jitter(0.0, config_.jitter_sigma_ns);
        std::uint64_t sequence = 0;
        while (!stop.stop_requested()) {
            // Send 1 ms after the top of the next second, stamping the pulse S + e.
            const std::int64_t now = realtime_ns();
            const std::int64_t second = (now / 1'000'000'000 + 1) * 1'000'000'000;
            const auto wake = std::chrono::system_clock::time_point(
                std::chrono::duration_cast<std::chrono::system_clock::duration>(
                    std::chrono::nanoseconds(second + 1'000'000)));
            std::unique_lock lock(mutex_);
            if (wake_.wait_until(lock, stop, wake, [] { return false; })) {
                break;
            }
            if (stop.stop_requested()) {
                break;
            }
            if (paused_) {
                continue;
            }
            const auto e = static_cast<std::int64_t>(std::llround(jitter(rng)));
            const core::Pulse pulse{++sequence, second + e, core::Edge::assert_edge};
            if (client.send_pulse(pulse.timestamp_ns)) {
                sent_.push_back(pulse);
            }
        }
    }

    ChronydConfig config_;
    TempDir dir_;
    pid_t pid_ = -1;
    mutable std::mutex mutex_;
    std::condition_variable_any wake_;
    bool paused_ = false;
    std::vector<core::Pulse> sent_;
    std::jthread feeder_;
};

}  // namespace ppsbench::chrony::testing
