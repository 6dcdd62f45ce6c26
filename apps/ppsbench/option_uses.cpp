// SPDX-License-Identifier: GPL-2.0-or-later
#include "option_uses.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::app {

namespace {

// The value as typed, for the message: "--bias pull-up", "--quiet".
std::string typed_value(const po::variable_value& value) {
    if (const auto* text = boost::any_cast<std::string>(&value.value())) {
        return " " + *text;
    }
    if (const auto* words = boost::any_cast<std::vector<std::string>>(&value.value())) {
        return fmt::format(" {}", fmt::join(*words, " "));
    }
    if (const auto* number = boost::any_cast<int>(&value.value())) {
        return fmt::format(" {}", *number);
    }
    if (const auto* number = boost::any_cast<double>(&value.value())) {
        return fmt::format(" {}", *number);
    }
    return "";  // a switch
}

}  // namespace

bool given(const po::variables_map& vm, std::string_view option) {
    const auto it = vm.find(std::string(option));
    return it != vm.end() && !it->second.defaulted();
}

void refuse_unused_options(const po::variables_map& vm, std::span<const OptionUse> uses) {
    for (const auto& use : uses) {
        if (!use.used && given(vm, use.option)) {
            throw core::UsageError(
                fmt::format("--{}{}: {}", use.option, typed_value(vm[use.option]), use.why));
        }
    }
}

std::vector<OptionUse> source_option_uses(const std::vector<std::string>& specs) {
    std::vector<OptionUse> uses;
    for (const auto option : capture::source_option_names) {
        bool used = false;
        for (const auto& spec : specs) {
            used = used || capture::source_reads(spec, option);
        }
        uses.push_back(
            {std::string(option), used,
             fmt::format("only {} sources use it, and --source {} {}; drop it",
                         capture::sources_reading(option), fmt::join(specs, " --source "),
                         specs.size() == 1 ? "is not one" : "are none of them")});
    }
    return uses;
}

}  // namespace ppsbench::app
