#include "options.hpp"

#include <fmt/format.h>
#include <iostream>

#include "ppsbench/core/error.hpp"

namespace ppsbench::app {

bool parse_options(std::string_view command, std::string_view usage, std::string_view description,
                   const std::vector<std::string>& args, const po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm) {
    po::options_description all = options;
    all.add_options()("help,h", "show this help and exit");
    try {
        po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
        if (vm.count("help") != 0U) {
            std::cout << "Usage: " << usage << "\n\n" << description << "\n\n" << all << "\n";
            return false;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        throw core::UsageError(
            fmt::format("ppsbench {}: {}; see 'ppsbench {} --help'", command, e.what(), command));
    }
    return true;
}

}  // namespace ppsbench::app
