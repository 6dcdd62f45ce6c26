#include "command.hpp"

namespace ppsbench::app {
namespace {
class ReportCommand final : public Command {
public:
    std::string_view name() const override { return "report"; }
    std::string_view summary() const override { return "(not yet implemented)"; }
    int run(const std::vector<std::string>&) override { return 2; }
};
}  // namespace
std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }
}  // namespace ppsbench::app
