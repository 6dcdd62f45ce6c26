// SPDX-License-Identifier: GPL-2.0-or-later
// The one way session code starts a thread: with the stop signals blocked, so Ctrl-C, SIGTERM
// and SIGHUP reach the capture thread and interrupt its wait.
#include "ppsbench/session/worker_thread.hpp"

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

namespace ppsbench::session {
namespace {

using namespace std::chrono_literals;

bool blocks_every_stop_signal() {
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    return sigismember(&mask, SIGINT) == 1 && sigismember(&mask, SIGTERM) == 1 &&
           sigismember(&mask, SIGHUP) == 1;
}

bool blocks_any_stop_signal() {
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    return sigismember(&mask, SIGINT) == 1 || sigismember(&mask, SIGTERM) == 1 ||
           sigismember(&mask, SIGHUP) == 1;
}

TEST(WorkerThread, BlocksTheStopSignalsInTheWorkerAndLeavesTheCallerAsItWas) {
    ASSERT_FALSE(blocks_any_stop_signal()) << "the test thread starts with nothing blocked";
    bool worker_blocks = false;
    std::thread worker = start_worker_thread([&] { worker_blocks = blocks_every_stop_signal(); });
    worker.join();
    EXPECT_TRUE(worker_blocks);
    EXPECT_FALSE(blocks_any_stop_signal()) << "the caller's mask is restored";
}

TEST(WorkerThread, TakesAMoveOnlyJob) {
    auto value = std::make_unique<int>(7);
    int seen = 0;
    start_worker_thread([&seen, value = std::move(value)] { seen = *value; }).join();
    EXPECT_EQ(seen, 7);
}

TEST(PeriodicWorker, TicksAtTheTimesItsTickAsksForWithTheStopSignalsBlocked) {
    std::atomic<int> ticks{0};
    std::atomic<bool> all_blocked{true};
    const auto start = PeriodicWorker::Clock::now();
    {
        PeriodicWorker worker(start + 10ms, [&](auto now) {
            ++ticks;
            if (!blocks_every_stop_signal()) {
                all_blocked = false;
            }
            return now + 10ms;
        });
        std::this_thread::sleep_for(200ms);
    }
    // Every 10 ms for 200 ms; a loaded CI machine may be late, never early or very many.
    EXPECT_GE(ticks.load(), 5);
    EXPECT_LE(ticks.load(), 21);
    EXPECT_TRUE(all_blocked.load());
}

TEST(PeriodicWorker, StopIsPromptEvenBeforeALongWaitAndIdempotent) {
    std::atomic<int> ticks{0};
    PeriodicWorker worker(PeriodicWorker::Clock::now() + 1h, [&](auto now) {
        ++ticks;
        return now + 1h;
    });
    const auto before = std::chrono::steady_clock::now();
    worker.stop();
    worker.stop();
    EXPECT_LT(std::chrono::steady_clock::now() - before, 1s) << "stop waits for no deadline";
    EXPECT_EQ(ticks.load(), 0);
}

}  // namespace
}  // namespace ppsbench::session
