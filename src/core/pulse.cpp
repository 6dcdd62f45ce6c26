// SPDX-License-Identifier: GPL-2.0-or-later
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

std::string_view to_string(Cadence cadence) {
    switch (cadence) {
        case Cadence::every_edge:
            return "every-edge";
        case Cadence::every_edge_with_losses:
            return "every-edge-with-losses";
        case Cadence::sampled:
            return "sampled";
    }
    return "unknown";
}

std::string_view to_string(SequenceEvidence evidence) {
    return evidence == SequenceEvidence::kernel ? "kernel" : "synthetic";
}

std::optional<Cadence> parse_cadence(std::string_view text) {
    for (const auto c : {Cadence::every_edge, Cadence::every_edge_with_losses, Cadence::sampled}) {
        if (to_string(c) == text) {
            return c;
        }
    }
    return std::nullopt;
}

std::optional<SequenceEvidence> parse_sequence_evidence(std::string_view text) {
    for (const auto e : {SequenceEvidence::kernel, SequenceEvidence::synthetic}) {
        if (to_string(e) == text) {
            return e;
        }
    }
    return std::nullopt;
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
