// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/session/run_session.hpp"
#include "source_options.hpp"

namespace ppsbench::app {

// `run`'s report step: the summary printed from the files a run wrote, and its exit status
// (1 when a source failed mid-run). A single run's, and a two-path run's (which runs it first).
int print_run_summary(const session::RunOutcome& outcome);
int run_dual(const session::RunOptions& run, const SourceArguments& source);

}  // namespace ppsbench::app
