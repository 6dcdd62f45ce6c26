#include "ppsbench/render/junit.hpp"

#include <algorithm>

#include "xml.hpp"

namespace ppsbench::render {

void write_junit(const std::string& suite_name, const std::vector<JunitCase>& cases,
                 std::ostream& out) {
    const auto failures =
        std::count_if(cases.begin(), cases.end(), [](const JunitCase& c) { return c.failed; });
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<testsuites name=\"ppsbench\" tests=\"" << cases.size() << "\" failures=\"" << failures
        << "\">\n";
    out << "  <testsuite name=\"" << xml_escape(suite_name) << "\" tests=\"" << cases.size()
        << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"0\">\n";
    for (const auto& c : cases) {
        out << "    <testcase name=\"" << xml_escape(c.name) << "\" classname=\""
            << xml_escape(c.classname) << "\">\n";
        if (c.failed) {
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
