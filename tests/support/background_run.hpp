// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// A ppsbench process left running while a test acts on it (signals, a second run, a report):
// started with fork/exec, its stdout and stderr in files, ended and reaped on destruction.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"

namespace ppsbench::testing {

class BackgroundRun {
  public:
    struct Options {
        bool ignore_hangup = false;  // as nohup leaves it
    };

    BackgroundRun(const std::vector<std::string>& args, Options options)
        : out_path_(scratch_.file("stdout")), err_path_(scratch_.file("stderr")) {
        pid_ = ::fork();
        if (pid_ < 0) {
            throw std::runtime_error("fork failed");
        }
        if (pid_ == 0) {
            if (options.ignore_hangup) {
                std::signal(SIGHUP, SIG_IGN);
            }
            const int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int err = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(out, STDOUT_FILENO);
            ::dup2(err, STDERR_FILENO);
            std::vector<char*> argv{const_cast<char*>(PPSBENCH_BINARY)};
            for (const auto& arg : args) {
                argv.push_back(const_cast<char*>(arg.c_str()));
            }
            argv.push_back(nullptr);
            ::execv(PPSBENCH_BINARY, argv.data());
            ::_exit(127);
        }
    }
    explicit BackgroundRun(const std::vector<std::string>& args) : BackgroundRun(args, Options{}) {}
    ~BackgroundRun() {
        if (pid_ > 0 && !reaped_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    BackgroundRun(const BackgroundRun&) = delete;
    BackgroundRun& operator=(const BackgroundRun&) = delete;

    pid_t pid() const { return pid_; }
    void signal(int sig) const { ::kill(pid_, sig); }
    bool running() {
        if (reaped_) {
            return false;
        }
        if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
            reaped_ = true;
        }
        return !reaped_;
    }
    // Waits until `path` holds at least `bytes` (the run has started writing pulses).
    bool wait_for_file(const std::string& path, std::uintmax_t bytes) {
        for (int i = 0; i < 500 && running(); ++i) {
            std::error_code ignored;
            if (std::filesystem::file_size(path, ignored) >= bytes && !ignored) {
                return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }
    // Waits for the process to end: its exit code (128 + N for a signal), stdout and stderr.
    CommandResult wait() {
        if (!reaped_) {
            ::waitpid(pid_, &status_, 0);
            reaped_ = true;
        }
        CommandResult result;
        result.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
        result.out = read_text(out_path_);
        result.err = read_text(err_path_);
        return result;
    }

  private:
    TempDir scratch_;
    std::string out_path_;
    std::string err_path_;
    pid_t pid_ = -1;
    int status_ = 0;
    bool reaped_ = false;
};

}  // namespace ppsbench::testing
