// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/core/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <array>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/unique_fd.hpp"

extern char** environ;

namespace ppsbench::core {
namespace {

struct Pipe {
    UniqueFd read_end;
    UniqueFd write_end;
};

Pipe make_pipe() {
    std::array<int, 2> fds{};
    // O_CLOEXEC so a chronyc started concurrently by another thread does not inherit our ends
    // (and hold them open past our child's exit).
    if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
        throw core::MeasurementError(fmt::format("cannot create a pipe for a helper program: {}",
                                                 core::errno_message(errno)));
    }
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// Reaps the child whatever happens; if it is still running when we give up on it, it is
// killed first, so no zombie and no stray chronyc outlive a sample.
class Child {
  public:
    explicit Child(pid_t pid) : pid_(pid) {}
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }

    void kill() { ::kill(pid_, SIGKILL); }

    // Returns the raw wait status.
    int wait() {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
        return status;
    }

  private:
    pid_t pid_;
};

class SpawnActions {
  public:
    SpawnActions() { ::posix_spawn_file_actions_init(&actions_); }
    SpawnActions(const SpawnActions&) = delete;
    SpawnActions& operator=(const SpawnActions&) = delete;
    ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
    posix_spawn_file_actions_t* get() { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_{};
};

std::vector<std::string> child_environment() {
    std::vector<std::string> env;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string_view entry(*e);
        if (entry.starts_with("LC_") || entry.starts_with("LANG=") ||
            entry.starts_with("LANGUAGE=")) {
            continue;
        }
        env.emplace_back(entry);
    }
    env.emplace_back("LC_ALL=C");
    return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    pointers.reserve(strings.size() + 1);
    for (auto& s : strings) {
        pointers.push_back(s.data());
    }
    pointers.push_back(nullptr);
    return pointers;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
    ProcessResult result;
    if (argv.empty()) {
        result.spawn_error = EINVAL;
        return result;
    }
    Pipe out = make_pipe();
    Pipe err = make_pipe();

    SpawnActions actions;
    ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end.get(), STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(actions.get(), err.write_end.get(), STDERR_FILENO);

    std::vector<std::string> args = argv;
    std::vector<std::string> env = child_environment();
    auto arg_ptrs = c_strings(args);
    auto env_ptrs = c_strings(env);

    pid_t pid = -1;
    const bool search_path = argv[0].find('/') == std::string::npos;
    const int rc = search_path ? ::posix_spawnp(&pid, args[0].c_str(), actions.get(), nullptr,
                                                arg_ptrs.data(), env_ptrs.data())
                               : ::posix_spawn(&pid, args[0].c_str(), actions.get(), nullptr,
                                               arg_ptrs.data(), env_ptrs.data());
    if (rc != 0) {
        result.spawn_error = rc;
        return result;
    }
    Child child(pid);
    // Our copies of the write ends must go, or we would never see EOF.
    out.write_end.reset();
    err.write_end.reset();

    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::array<pollfd, 2> fds{pollfd{out.read_end.get(), POLLIN, 0},
                              pollfd{err.read_end.get(), POLLIN, 0}};
    std::array<std::string*, 2> sinks{&result.out, &result.err};
    int open_streams = 2;
    std::array<char, 4096> buffer{};
    while (open_streams > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            result.timed_out = true;
            child.kill();
            break;
        }
        const int n = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            child.kill();
            break;
        }
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) {
                continue;
            }
            const ssize_t got = ::read(fds[i].fd, buffer.data(), buffer.size());
            if (got > 0) {
                sinks[i]->append(buffer.data(), static_cast<std::size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                fds[i].fd = -1;  // negative fds are ignored by poll
                --open_streams;
            }
        }
    }
    const int status = child.wait();
    if (WIFEXITED(status)) {
        result.exit_code = WEXITSTATUS(status);
    }
    return result;
}

}  // namespace ppsbench::core
