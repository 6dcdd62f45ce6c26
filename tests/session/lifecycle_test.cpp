// SPDX-License-Identifier: GPL-2.0-or-later
// The one lifecycle every capture session goes through (session/lifecycle.hpp): the steps in
// rtla's order, and abandon() exactly when something was enabled and nothing measured.
#include "ppsbench/session/lifecycle.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "ppsbench/core/error.hpp"

namespace ppsbench::session {
namespace {

// Records the steps it is taken through; fails at the step named `fail_at`.
class RecordingSession final : public Session {
  public:
    explicit RecordingSession(std::string fail_at = {}) : fail_at_(std::move(fail_at)) {}
    void open() override { step("open"); }
    capture::RealtimeOptions settings() const override {
        steps.push_back("settings");
        return {};
    }
    void enable() override { step("enable"); }
    void main_loop(capture::StopFlag stop) override {
        EXPECT_NE(stop, nullptr);
        EXPECT_FALSE(*stop) << "no signal yet";
        step("main loop");
    }
    void finish(const capture::StopOnSignals& signals) override {
        EXPECT_EQ(signals.signal_number(), 0);
        step("finish");
    }
    void abandon() noexcept override { steps.push_back("abandon"); }

    mutable std::vector<std::string> steps;

  private:
    void step(const std::string& name) {
        steps.push_back(name);
        if (name == fail_at_) {
            throw core::InputError(name + " failed");
        }
    }
    std::string fail_at_;
};

using Steps = std::vector<std::string>;

TEST(Lifecycle, RunsEverySessionThroughTheSameStepsInOrder) {
    RecordingSession session;
    run_lifecycle(session);
    EXPECT_EQ(session.steps, (Steps{"open", "settings", "enable", "main loop", "finish"}));
}

TEST(Lifecycle, AFailureBeforeAnythingIsEnabledLeavesNothingToUndo) {
    RecordingSession session("open");
    EXPECT_THROW(run_lifecycle(session), core::InputError);
    EXPECT_EQ(session.steps, (Steps{"open"}));
}

TEST(Lifecycle, AFailureWhileEnablingOrInTheLoopAbandonsTheFilesAndIsRethrown) {
    RecordingSession enabling("enable");
    EXPECT_THROW(run_lifecycle(enabling), core::InputError);
    EXPECT_EQ(enabling.steps, (Steps{"open", "settings", "enable", "abandon"}));

    RecordingSession looping("main loop");
    EXPECT_THROW(run_lifecycle(looping), core::InputError);
    EXPECT_EQ(looping.steps, (Steps{"open", "settings", "enable", "main loop", "abandon"}));
}

// Settings that cannot be applied (a CPU that does not exist) stop the session before its
// files exist: enable never runs.
TEST(Lifecycle, RefusedSettingsStopTheSessionBeforeItsFilesExist) {
    class BadCpu final : public Session {
      public:
        void open() override {}
        capture::RealtimeOptions settings() const override {
            capture::RealtimeOptions options;
            options.cpu = 1 << 20;
            return options;
        }
        void enable() override { ADD_FAILURE() << "enabled despite refused settings"; }
        void main_loop(capture::StopFlag) override {}
        void finish(const capture::StopOnSignals&) override {}
        void abandon() noexcept override { ADD_FAILURE() << "nothing to abandon"; }
    } session;
    EXPECT_THROW(run_lifecycle(session), core::UsageError);
}

}  // namespace
}  // namespace ppsbench::session
