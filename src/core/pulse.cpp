#include "ppsbench/core/pulse.hpp"

namespace ppsbench::core {

std::string_view to_string(ClockId clock) {
    switch (clock) {
        case ClockId::realtime:
            return "realtime";
        case ClockId::monotonic:
            return "monotonic";
        case ClockId::tai:
            return "tai";
    }
    return "unknown";
}

std::string_view to_string(Edge edge) {
    return edge == Edge::assert_edge ? "assert" : "clear";
}

std::string_view to_string(EdgeSelection edges) {
    switch (edges) {
        case EdgeSelection::assert_only:
            return "assert";
        case EdgeSelection::clear_only:
            return "clear";
        case EdgeSelection::both:
            return "both";
    }
    return "unknown";
}

std::optional<ClockId> parse_clock_id(std::string_view text) {
    if (text == "realtime") {
        return ClockId::realtime;
    }
    if (text == "monotonic") {
        return ClockId::monotonic;
    }
    if (text == "tai") {
        return ClockId::tai;
    }
    return std::nullopt;
}

std::optional<Edge> parse_edge(std::string_view text) {
    if (text == "assert") {
        return Edge::assert_edge;
    }
    if (text == "clear") {
        return Edge::clear_edge;
    }
    return std::nullopt;
}

std::optional<EdgeSelection> parse_edge_selection(std::string_view text) {
    // GPIO users think in rising/falling; PPS users in assert/clear. Accept both vocabularies.
    if (text == "assert" || text == "rising") {
        return EdgeSelection::assert_only;
    }
    if (text == "clear" || text == "falling") {
        return EdgeSelection::clear_only;
    }
    if (text == "both") {
        return EdgeSelection::both;
    }
    return std::nullopt;
}

bool selects(EdgeSelection selection, Edge edge) {
    switch (selection) {
        case EdgeSelection::assert_only:
            return edge == Edge::assert_edge;
        case EdgeSelection::clear_only:
            return edge == Edge::clear_edge;
        case EdgeSelection::both:
            return true;
    }
    return false;
}

}  // namespace ppsbench::core
