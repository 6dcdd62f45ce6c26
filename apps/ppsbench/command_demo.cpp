#include "command.hpp"

namespace ppsbench::app {
namespace {
class DemoCommand final : public Command {
public:
    std::string_view name() const override { return "demo"; }
    std::string_view summary() const override { return "(not yet implemented)"; }
    int run(const std::vector<std::string>&) override { return 2; }
};
}  // namespace
std::unique_ptr<Command> make_demo_command() { return std::make_unique<DemoCommand>(); }
}  // namespace ppsbench::app
