// `ppsbench import chrony-refclocks|chrony-tracking LOG`: chrony's own logs into ppsbench files.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "command.hpp"
#include "options.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::app {
namespace {

// Each skipped line once, then how many more there were: the user fixes or ignores them.
void print_problems(const std::vector<chrony::LogProblem>& kept, std::size_t total) {
    for (const auto& p : kept) {
        std::cerr << "ppsbench: warning: " << p.to_string() << "; line skipped\n";
    }
    if (total > kept.size()) {
        std::cerr << fmt::format("ppsbench: warning: ... and {} more malformed lines skipped\n",
                                 total - kept.size());
    }
}

int import_refclocks(const std::string& log, const std::string& output, bool force,
                     const chrony::RefclocksImportOptions& options) {
    if (output.empty()) {
        throw core::UsageError(
            "import chrony-refclocks: name the capture file to write with -o FILE");
    }
    const auto imported = chrony::import_refclocks_log(log, options);
    print_problems(imported.problems, imported.problem_count);
    store::CaptureWriter writer(output, imported.metadata, force);
    writer.write(imported.pulses);
    store::EndRecord end;
    end.stop_reason = store::StopReason::end_of_stream;
    end.pulses = imported.pulses.size();
    end.skipped_lines = imported.problem_count;
    writer.write_end(end);
    writer.close();
    std::cout << fmt::format("{} pulses of refclock {} from {} written to {}",
                             imported.pulses.size(), imported.refid, log, output);
    if (imported.problem_count > 0) {
        std::cout << fmt::format(" ({} malformed lines skipped)", imported.problem_count);
    }
    std::cout << "\n";
    return 0;
}

void write_tracking_csv(const chrony::TrackingImport& imported, std::ostream& out) {
    out << "time_ns,reference,stratum,leap,offset_ns,rms_offset_ns,frequency_ppm,skew_ppm,"
           "offset_sd_ns,root_delay_ns,root_dispersion_ns,max_error_ns\n";
    for (const auto& e : imported.entries) {
        out << fmt::format("{},{},{},{},{:.1f},{},{},{},{:.1f},{:.1f},{:.1f},{:.1f}\n", e.time_ns,
                           e.reference, e.stratum, chrony::to_string(e.leap), e.offset_ns,
                           e.rms_offset_ns ? fmt::format("{:.1f}", *e.rms_offset_ns) : "",
                           e.frequency_ppm, e.frequency_error_ppm, e.offset_sd_ns, e.root_delay_ns,
                           e.root_dispersion_ns, e.max_error_ns);
    }
}

int import_tracking(const std::string& log, const std::string& output, bool force, bool strict) {
    const auto imported = chrony::import_tracking_log(log, {.strict = strict});
    print_problems(imported.problems, imported.problem_count);
    if (output.empty() || output == "-") {
        write_tracking_csv(imported, std::cout);
        return 0;
    }
    if (!force && std::ifstream(output).good()) {
        throw core::InputError(fmt::format("{} exists; pass --force to overwrite it", output));
    }
    std::ofstream out(output, std::ios::trunc);
    write_tracking_csv(imported, out);
    out.close();
    if (!out) {
        throw core::InputError(
            fmt::format("cannot write {}; check the directory and free space", output));
    }
    return 0;
}

class ImportCommand final : public Command {
  public:
    std::string_view name() const override { return "import"; }
    std::string_view summary() const override {
        return "turn chrony's refclocks.log into a capture file, or tracking.log into CSV";
    }

    int run(const std::vector<std::string>& args) override {
        po::options_description options("Options");
        std::string format;
        std::string log;
        std::string output;
        std::string refid;
        std::string offset = "raw";
        // clang-format off
        options.add_options()
            ("format", po::value(&format), "chrony-refclocks or chrony-tracking (positional)")
            ("log", po::value(&log), "the log file (positional)")
            ("output,o", po::value(&output),
             "file to write: a capture file (chrony-refclocks, required), or CSV "
             "(chrony-tracking; default stdout)")
            ("force", "overwrite the output file")
            ("refid", po::value(&refid),
             "chrony-refclocks: the refclock to import (needed when the log has several)")
            ("offset", po::value(&offset),
             "chrony-refclocks: raw (against the system clock, default) or cooked (against "
             "chronyd's NTP clock)")
            ("strict", "stop at the first malformed line instead of skipping it");
        // clang-format on
        po::positional_options_description positional;
        positional.add("format", 1).add("log", 1);
        po::variables_map vm;
        if (!parse_options("import",
                           "ppsbench import chrony-refclocks LOG [--refid PPS] -o FILE\n"
                           "       ppsbench import chrony-tracking LOG [-o FILE.csv]",
                           "Reads chrony's logs ('log refclocks tracking' in chrony.conf). "
                           "chrony-refclocks rebuilds each PPS pulse's timestamp from its raw "
                           "offset (docs/chrony.md) into a capture file for 'ppsbench report'; "
                           "chrony-tracking prints chrony's offset and RMS offset series as CSV.",
                           args, options, positional, vm)) {
            return 0;
        }
        if (log.empty()) {
            throw core::UsageError(
                "import: name the format and the log, e.g. 'ppsbench import chrony-refclocks "
                "/var/log/chrony/refclocks.log -o run.csv'");
        }
        const bool force = vm.count("force") != 0U;
        const bool strict = vm.count("strict") != 0U;
        if (format == "chrony-refclocks") {
            chrony::RefclocksImportOptions o;
            o.refid = refid;
            o.strict = strict;
            if (offset == "raw") {
                o.offset = chrony::RefclockOffset::raw;
            } else if (offset == "cooked") {
                o.offset = chrony::RefclockOffset::cooked;
            } else {
                throw core::UsageError(
                    fmt::format("import: --offset '{}' is neither raw nor cooked", offset));
            }
            return import_refclocks(log, output, force, o);
        }
        if (format == "chrony-tracking") {
            return import_tracking(log, output, force, strict);
        }
        throw core::UsageError(fmt::format(
            "import: unknown format '{}'; use chrony-refclocks or chrony-tracking", format));
    }
};

}  // namespace

std::unique_ptr<Command> make_import_command() {
    return std::make_unique<ImportCommand>();
}

}  // namespace ppsbench::app
