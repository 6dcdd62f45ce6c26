// SPDX-License-Identifier: GPL-2.0-or-later
#include "options.hpp"

#include <fmt/format.h>
#include <algorithm>
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

// Terminal columns of UTF-8 text: code points, so "σ" and "→" count one each.
std::size_t columns(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
    }));
}

// Boost reads "-o=x.csv" as -o with the value "=x.csv" (only long options take '='), which
// would create a file named "=x.csv". Refused before parsing, naming both spellings that work.
// Words after "--" are positional, whatever they look like.
void refuse_short_option_equals(const std::vector<std::string>& args,
                                const po::options_description& options) {
    for (const auto& arg : args) {
        if (arg == "--") {
            return;
        }
        if (arg.size() < 3 || arg[0] != '-' || arg[1] == '-' || arg[2] != '=') {
            continue;
        }
        const std::string short_name = arg.substr(0, 2);
        const std::string value = arg.substr(3);
        std::string long_form;
        for (const auto& option : options.options()) {
            if (option->canonical_display_name(po::command_line_style::allow_dash_for_short) ==
                    short_name &&
                !option->long_name().empty()) {
                long_form = fmt::format(", or --{}={}", option->long_name(), value);
            }
        }
        throw core::UsageError(fmt::format(
            "{}: a short option takes no '=' (its value would be \"={}\"); write {} {}{}", arg,
            value, short_name, value, long_form));
    }
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
    refuse_short_option_equals(args, all);
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

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string wrap_text(std::string_view text, std::size_t width) {
    std::string out;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? "" : text.substr(newline + 1);
        if (!line.empty() && line.front() != ' ') {
            while (columns(line) > width) {
                // The last space with at most `width` columns before it: columns, not bytes,
                // so a line holding "→" or "σ" is filled as full as any other.
                std::size_t cut = std::string_view::npos;
                std::size_t seen = 0;
                for (std::size_t i = 0; i < line.size() && seen <= width; ++i) {
                    if (line[i] == ' ') {
                        cut = i;
                    }
                    seen += (static_cast<unsigned char>(line[i]) & 0xC0U) != 0x80U ? 1 : 0;
                }
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
