// SPDX-License-Identifier: GPL-2.0-or-later
#include "options.hpp"

#include <fmt/format.h>
#include <iostream>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"

namespace ppsbench::app {

namespace {

std::vector<std::string> option_names(const po::options_description& options) {
    std::vector<std::string> names;
    for (const auto& option : options.options()) {
        if (!option->long_name().empty()) {
            names.push_back("--" + option->long_name());
        }
    }
    return names;
}

}  // namespace

bool parse_options(std::string_view command, std::string_view usage, std::string_view description,
                   const std::vector<std::string>& args, const po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm,
                   const po::options_description& hidden) {
    po::options_description visible = options;
    visible.add_options()("help,h", "show this help and exit");
    po::options_description all = visible;
    all.add(hidden);
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        if (vm.count("help") != 0U) {
            std::cout << "Usage: " << usage << "\n\n"
                      << wrap_text(description) << "\n\n"
                      << visible << "\n";
            return false;
        }
        po::notify(vm);
    } catch (const po::unknown_option& e) {
        throw core::UsageError(
            fmt::format("{}{}; see 'ppsbench {} --help'", e.what(),
                        core::did_you_mean(e.get_option_name(), option_names(visible)), command));
    } catch (const po::error& e) {
        throw core::UsageError(fmt::format("{}; see 'ppsbench {} --help'", e.what(), command));
    }
    return true;
}

std::string human_default(double value) {
    return fmt::format("{}", value);
}

std::string wrap_text(std::string_view text, std::size_t width) {
    std::string out;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? "" : text.substr(newline + 1);
        if (!line.empty() && line.front() != ' ') {
            while (line.size() > width) {
                auto cut = line.rfind(' ', width);
                if (cut == std::string_view::npos || cut == 0) {
                    break;
                }
                out.append(line.substr(0, cut)).append("\n");
                line = line.substr(cut + 1);
            }
        }
        out.append(line);
        if (newline != std::string_view::npos) {
            out.append("\n");
        }
    }
    return out;
}

}  // namespace ppsbench::app
