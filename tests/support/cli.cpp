// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ppsbench::testing {

bool under_emulator() {
    const char* value = std::getenv("PPSBENCH_UNDER_EMULATOR");
    return value != nullptr && std::string(value) == "1";
}

CommandResult run_program(const std::vector<std::string>& argv) {
    TempDir scratch;
    const std::string out_path = scratch.file("stdout");
    const std::string err_path = scratch.file("stderr");
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = ::open("/dev/null", O_RDONLY);
        dup2(in, STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        std::vector<char*> args;
        for (const auto& a : argv) {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_text(out_path);
    result.err = read_text(err_path);
    return result;
}

CommandResult run_ppsbench(const std::vector<std::string>& args) {
    std::vector<std::string> argv{PPSBENCH_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_program(argv);
}

TempDir::TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "ppsbench-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("mkdtemp failed");
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

}  // namespace ppsbench::testing
