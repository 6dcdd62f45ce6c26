// `ppsbench import FORMAT FILE...`: logs and captures from other tools into ppsbench files
// (docs/import.md). Each format's reader takes the files in order (rotated logs oldest first),
// `-` for standard input, and gzip-compressed files as they are.
#include <fmt/format.h>

#include <iostream>
#include <sstream>

#include "command.hpp"
#include "input_files.hpp"
#include "options.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/atomic_file.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/suggest.hpp"
#include "ppsbench/import/capture_import.hpp"
#include "ppsbench/import/file_kind.hpp"
#include "ppsbench/import/input.hpp"
#include "ppsbench/import/ntp_peerstats.hpp"
#include "ppsbench/import/ppstest.hpp"
#include "ppsbench/store/capture_writer.hpp"

namespace ppsbench::app {
namespace {

// The first few skipped lines, then how many more there were (--strict stops at the first).
void print_problems(const std::vector<chrony::LogProblem>& kept, std::size_t total) {
    constexpr std::size_t shown = 10;
    for (std::size_t i = 0; i < kept.size() && i < shown; ++i) {
        std::cerr << "ppsbench: warning: " << kept[i].to_string() << "; line skipped\n";
    }
    if (total > std::min(kept.size(), shown)) {
        std::cerr << fmt::format(
            "ppsbench: warning: ... and {} more lines skipped that are not this format's (run "
            "with --strict to stop at the first)\n",
            total - std::min(kept.size(), shown));
    }
}

// Opens each file in order, refuses one that is another format, and hands it to `reader`.
template <typename Reader>
void read_all(const std::vector<std::string>& files, import::FileKind kind, Reader& reader) {
    std::size_t stdin_uses = 0;
    for (const auto& path : files) {
        if (path == "-" && ++stdin_uses > 1) {
            throw core::UsageError("'-' (standard input) can be named only once");
        }
        import::Input input(path);
        import::require_kind(input.head(), kind, input.name());
        reader.read(input.stream(), input.name());
    }
}

// The importer's metadata (store::to_json of its RunMeta) as the `# meta` line; `end` gets the
// stop reason and pulse count every import shares.
void write_capture(const std::string& output, bool force, const nlohmann::json& metadata,
                   const std::vector<core::Pulse>& pulses, store::EndRecord end) {
    store::CaptureWriter writer(output, metadata, force);
    writer.write(pulses);
    end.stop_reason = store::StopReason::end_of_stream;
    end.pulses = pulses.size();
    writer.write_end(end);
    writer.close();
}

void require_output(const std::string& output, std::string_view format) {
    if (output.empty() || output == "-") {
        throw core::UsageError(fmt::format(
            "import {}: name the capture file to write with -o FILE (a capture file is a file; "
            "only chrony-tracking's CSV goes to standard output)",
            format));
    }
}

int import_refclocks(const std::vector<std::string>& files, const std::string& output, bool force,
                     const chrony::RefclocksImportOptions& options) {
    require_output(output, "chrony-refclocks");
    chrony::RefclocksLogReader reader(options);
    read_all(files, import::FileKind::chrony_refclocks, reader);
    const auto imported = reader.finish();
    print_problems(imported.problems, imported.problem_count);
    store::EndRecord end;
    end.skipped_lines = imported.problem_count;
    write_capture(output, force, imported.metadata, imported.pulses, end);
    std::cout << fmt::format("{} pulses of refclock {} written to {}", imported.pulses.size(),
                             imported.refid, output);
    if (imported.problem_count > 0) {
        std::cout << fmt::format(" ({} lines skipped)", imported.problem_count);
    }
    std::cout << "\n";
    return 0;
}

int import_capture(const import::CaptureImport& imported, const std::string& output, bool force) {
    print_problems(imported.problems, imported.problem_count);
    for (const auto& note : imported.notes) {
        std::cerr << "ppsbench: note: " << note << "\n";
    }
    store::EndRecord end;
    end.skipped_lines = imported.problem_count;
    end.duplicates = imported.duplicates;
    end.missed_pulses = imported.gaps.missed_pulses;
    end.unseen_events = imported.gaps.unseen_events;
    write_capture(output, force, imported.metadata, imported.pulses, end);
    std::cout << fmt::format(
        "{} pulses written to {} ({} repeated lines removed, {} missed pulses, {} sequence skips "
        "without a time gap (unseen events), {} lines skipped)\n",
        imported.pulses.size(), output, imported.duplicates, imported.gaps.missed_pulses,
        imported.gaps.unseen_events, imported.problem_count);
    return 0;
}

// Every duration as the log wrote it: the log prints at most 7 significant digits and a
// double's 15 give them back exactly, where a fixed number of decimals rounded 2.234e-11 s
// to 0.0 ns.
std::string exact(double value) {
    return fmt::format("{:.15g}", value);
}

void write_tracking_csv(const chrony::TrackingImport& imported, std::ostream& out) {
    out << "time_ns,reference,stratum,leap,offset_ns,rms_offset_ns,frequency_ppm,skew_ppm,"
           "offset_sd_ns,root_delay_ns,root_dispersion_ns,max_error_ns,process\n";
    for (const auto& e : imported.entries) {
        out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", e.time_ns, e.reference,
                           e.stratum, chrony::to_string(e.leap), exact(e.offset_ns),
                           e.rms_offset_ns ? exact(*e.rms_offset_ns) : "", exact(e.frequency_ppm),
                           exact(e.frequency_error_ppm), exact(e.offset_sd_ns),
                           exact(e.root_delay_ns), exact(e.root_dispersion_ns),
                           exact(e.max_error_ns), e.process);
    }
}

int import_tracking(const std::vector<std::string>& files, const std::string& output,
                    const chrony::TrackingImportOptions& options) {
    chrony::TrackingLogReader reader(options);
    read_all(files, import::FileKind::chrony_tracking, reader);
    const auto imported = reader.finish();
    print_problems(imported.problems, imported.problem_count);
    if (imported.entries.empty()) {
        throw core::InputError(
            fmt::format("{}: no tracking.log lines (14 columns: date, time, reference, ...); "
                        "import chrony-tracking reads chrony's tracking.log ('log tracking')",
                        files.size() == 1 ? files.front() : fmt::format("{} files", files.size())));
    }
    for (const auto& r : imported.restarts) {
        std::cerr << fmt::format(
            "ppsbench: note: {}:{}: chronyd restarted ({}); the RMS offset starts afresh here, "
            "as chronyd's does\n",
            r.file, r.line, r.evidence);
    }
    if (output.empty() || output == "-") {
        write_tracking_csv(imported, std::cout);
        return 0;
    }
    // Written whole: a failed import leaves an earlier CSV as it was. The file plan refused an
    // existing one without --force before any log was read.
    std::ostringstream csv;
    write_tracking_csv(imported, csv);
    core::write_file_atomically(output, csv.str(), "-o");
    return 0;
}

// What `import` was asked for, as given on the command line.
struct ImportArguments {
    std::string format;
    InputFiles files;
    std::string output;
    bool force = false;
    bool strict = false;
    std::string refid;           // chrony-refclocks
    std::string offset = "raw";  // chrony-refclocks
    int logbanner = 0;           // chrony-tracking; 0: not given
    std::string peer;            // ntp-peerstats
};

// The options, each bound to its field; --force and --strict are read from the variables map.
po::options_description declare_options(ImportArguments& a) {
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("output,o", po::value(&a.output),
         "file to write: a capture file (required), or CSV (chrony-tracking; default stdout)")
        ("force", "overwrite an existing output file (never one of the inputs)")
        ("refid", po::value(&a.refid),
         "chrony-refclocks: the refclock to import (needed when the log has several)")
        ("offset", po::value(&a.offset),
         "chrony-refclocks: raw (against the system clock, default) or cooked (against "
         "chronyd's NTP clock)")
        ("logbanner", po::value(&a.logbanner),
         "chrony-tracking: chrony.conf's logbanner, when not the default 32 and the files are "
         "too short to show it (restarts are found by banners out of this cycle)")
        ("peer", po::value(&a.peer),
         "ntp-peerstats: the peer to import (default: the one 127.127.22.u PPS peer)")
        ("strict", "stop at the first line that is not this format's instead of skipping it");
    // clang-format on
    return options;
}

chrony::RefclocksImportOptions refclocks_options(const ImportArguments& a) {
    chrony::RefclocksImportOptions o;
    o.refid = a.refid;
    o.strict = a.strict;
    if (a.offset == "raw") {
        o.offset = chrony::RefclockOffset::raw;
    } else if (a.offset == "cooked") {
        o.offset = chrony::RefclockOffset::cooked;
    } else {
        throw core::UsageError(fmt::format("--offset '{}' is neither raw nor cooked", a.offset));
    }
    return o;
}

chrony::TrackingImportOptions tracking_options(const ImportArguments& a) {
    chrony::TrackingImportOptions o;
    o.strict = a.strict;
    if (a.logbanner > 0) {
        o.logbanner = static_cast<std::size_t>(a.logbanner);
    }
    return o;
}

// Hands the files to the format's reader and writes what it gives back.
int import_format(const ImportArguments& a) {
    if (a.format == "chrony-refclocks") {
        return import_refclocks(a.files.paths, a.output, a.force, refclocks_options(a));
    }
    if (a.format == "chrony-tracking") {
        return import_tracking(a.files.paths, a.output, tracking_options(a));
    }
    if (a.format == "ppstest") {
        require_output(a.output, a.format);
        import::PpstestReader reader({.strict = a.strict});
        read_all(a.files.paths, import::FileKind::ppstest, reader);
        return import_capture(reader.finish(), a.output, a.force);
    }
    if (a.format == "ntp-peerstats") {
        require_output(a.output, a.format);
        import::PeerstatsReader reader({.peer = a.peer, .strict = a.strict});
        read_all(a.files.paths, import::FileKind::ntp_peerstats, reader);
        return import_capture(reader.finish(), a.output, a.force);
    }
    throw core::UsageError(fmt::format(
        "unknown format '{}'{}; use chrony-refclocks, chrony-tracking, ppstest or ntp-peerstats",
        a.format,
        core::did_you_mean(a.format,
                           {"chrony-refclocks", "chrony-tracking", "ppstest", "ntp-peerstats"})));
}

class ImportCommand final : public Command {
  public:
    std::string_view name() const override { return "import"; }
    std::string_view summary() const override {
        return "turn chrony, ppstest and ntpd logs into capture files (or tracking.log into CSV)";
    }

    int run(const std::vector<std::string>& args) override {
        ImportArguments a;
        const po::options_description options = declare_options(a);
        po::options_description hidden;
        // The positionals: named in the usage line, not listed as options.
        hidden.add_options()("format", po::value(&a.format));
        po::positional_options_description positional;
        positional.add("format", 1);
        a.files.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options("import",
                           "ppsbench import chrony-refclocks LOG... [--refid PPS] -o FILE\n"
                           "       ppsbench import chrony-tracking LOG... [-o FILE.csv]\n"
                           "       ppsbench import ppstest OUTPUT... -o FILE\n"
                           "       ppsbench import ntp-peerstats PEERSTATS... [--peer ADDR] -o "
                           "FILE",
                           "Reads other tools' logs (docs/import.md). chrony-refclocks rebuilds "
                           "each PPS pulse from chrony's refclocks.log; ppstest keeps each event "
                           "of ppstest's output once; ntp-peerstats takes the PPS peer's "
                           "offsets; all three write a capture file for 'ppsbench report'. "
                           "chrony-tracking prints chrony's offset and RMS offset series as CSV, "
                           "the RMS rebuilt per chronyd process.",
                           args, options, positional, vm, hidden)) {
            return 0;
        }
        if (a.files.paths.empty()) {
            throw core::UsageError(
                "name the format and the files, e.g. 'ppsbench import chrony-refclocks "
                "/var/log/chrony/refclocks.log -o run.csv'");
        }
        a.force = vm.count("force") != 0U;
        // Before any input is read: a bad -o is found now, not after a long import, and it
        // is never one of the logs (the only copy of months).
        core::FilePlan plan;
        a.files.plan(plan);
        if (!a.output.empty() && a.output != "-") {
            plan.write("-o", a.output, core::OutputKind::record);
        }
        plan.check(a.force);
        a.strict = vm.count("strict") != 0U;
        return import_format(a);
    }
};

}  // namespace

std::unique_ptr<Command> make_import_command() {
    return std::make_unique<ImportCommand>();
}

}  // namespace ppsbench::app
