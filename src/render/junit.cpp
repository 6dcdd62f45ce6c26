// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/render/junit.hpp"

#include <algorithm>

#include "xml.hpp"

namespace ppsbench::render {

JunitCase junit_not_judged(const std::string& reason) {
    return {"the gate could judge the run",
            "ppsbench.gate",
            false,
            reason,
            reason + "\nNo limit was checked: fix the input and run the gate again.",
            true};
}

void write_junit(const std::string& suite_name, const std::vector<JunitCase>& cases,
                 std::ostream& out) {
    const auto failures =
        std::count_if(cases.begin(), cases.end(), [](const JunitCase& c) { return c.failed; });
    const auto errors =
        std::count_if(cases.begin(), cases.end(), [](const JunitCase& c) { return c.error; });
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<testsuites name=\"ppsbench\" tests=\"" << cases.size() << "\" failures=\"" << failures
        << "\" errors=\"" << errors << "\">\n";
    out << "  <testsuite name=\"" << xml_escape(suite_name) << "\" tests=\"" << cases.size()
        << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\"0\">\n";
    for (const auto& c : cases) {
        out << "    <testcase name=\"" << xml_escape(c.name) << "\" classname=\""
            << xml_escape(c.classname) << "\">\n";
        if (c.error) {
            out << "      <error message=\"" << xml_escape(c.message) << "\" type=\"not-judged\">"
                << xml_escape(c.details) << "</error>\n";
        } else if (c.failed) {
            out << "      <failure message=\"" << xml_escape(c.message) << "\" type=\"regression\">"
                << xml_escape(c.details) << "</failure>\n";
        } else if (!c.details.empty()) {
            out << "      <system-out>" << xml_escape(c.details) << "</system-out>\n";
        }
        out << "    </testcase>\n";
    }
    out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace ppsbench::render
