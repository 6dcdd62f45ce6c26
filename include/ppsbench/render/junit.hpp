// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ppsbench::render {

// One check of a gate, as a JUnit test case: CI systems (GitLab, Jenkins, GitHub actions with a
// JUnit reporter) show these per check.
struct JunitCase {
    std::string name;       // "PREEMPT_RT: σ ratio ≤ 1.25"
    std::string classname;  // "ppsbench.gate"
    bool failed = false;
    std::string message;  // one line: the numbers and the rule
    std::string details;  // more text for the failure body / system-out
    // The check could not be judged (bad input, too few pulses): an <error>, which CI viewers
    // show red like a failure, with `message` as the reason.
    bool error = false;
};

// The one test case of a gate that could not judge: written in place of the checks on exit 2,
// so the JUnit file (state, replaced on every run) never keeps an earlier green verdict.
JunitCase junit_not_judged(const std::string& reason);

void write_junit(const std::string& suite_name, const std::vector<JunitCase>& cases,
                 std::ostream& out);

}  // namespace ppsbench::render
