// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench import FORMAT FILE...`: logs and captures from other tools into ppsbench files
// (docs/import.md). The formats, their readers and their options are one table
// (ppsbench/import/formats.hpp); this command parses, checks the options against the chosen
// row and writes what the reader hands back: a capture file or CSV.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "command.hpp"
#include "input_files.hpp"
#include "options.hpp"
#include "ppsbench/core/atomic_file.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/file_plan.hpp"
#include "ppsbench/core/suggest.hpp"
#include "ppsbench/import/formats.hpp"
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
            "ppsbench: warning: ... and {} more lines skipped (run with --strict to stop at the "
            "first)\n",
            total - std::min(kept.size(), shown));
    }
}

void print_notes(const std::vector<std::string>& notes) {
    for (const auto& note : notes) {
        std::cerr << "ppsbench: note: " << note << "\n";
    }
}

// The importer's metadata (store::to_json of its RunMeta) as the `# meta` line; `end` gets the
// stop reason and pulse count every import shares.
void write_capture(const std::string& output, bool force, const nlohmann::json& metadata,
                   const std::vector<core::Pulse>& pulses, store::EndRecord end) {
    // The readers skip such lines, naming them; this is the backstop that keeps a refused
    // import from leaving a file behind (the writer would refuse it only after its header).
    for (const auto& pulse : pulses) {
        if (!core::is_capture_time(pulse.timestamp_ns)) {
            throw core::InputError(fmt::format(
                "{}: not written: the pulse of sequence {} falls at {} ns, outside the range a "
                "capture holds (from 1970 to 2116)",
                output, pulse.sequence, pulse.timestamp_ns));
        }
    }
    store::CaptureWriter writer(output, metadata, force);
    writer.write(pulses);
    end.stop_reason = store::StopReason::end_of_stream;
    end.pulses = pulses.size();
    writer.write_end(end);
    writer.close();
}

// What `import` was asked for, as given on the command line.
struct ImportArguments {
    std::string format;
    InputFiles files;
    std::string output;
    bool force = false;
    import::ImportOptions options;
};

int write_refclocks(const chrony::RefclocksImport& imported, const ImportArguments& a) {
    print_problems(imported.problems, imported.problem_count);
    print_notes(imported.notes);
    store::EndRecord end;
    end.skipped_lines = imported.problem_count;
    write_capture(a.output, a.force, imported.metadata, imported.pulses, end);
    std::cout << fmt::format("{} pulses of refclock {} written to {}", imported.pulses.size(),
                             imported.refid, a.output);
    if (imported.problem_count > 0) {
        std::cout << fmt::format(" ({} lines skipped)", imported.problem_count);
    }
    std::cout << "\n";
    return 0;
}

int write_pulses(const import::CaptureImport& imported, const ImportArguments& a) {
    print_problems(imported.problems, imported.problem_count);
    print_notes(imported.notes);
    for (const auto& warning : imported.warnings) {
        std::cerr << "ppsbench: warning: " << warning << "\n";
    }
    store::EndRecord end;
    end.skipped_lines = imported.problem_count;
    end.duplicates = imported.duplicates;
    end.missed_pulses = imported.gaps.missed_pulses;
    end.unseen_events = imported.gaps.unseen_events;
    write_capture(a.output, a.force, imported.metadata, imported.pulses, end);
    std::cout << fmt::format(
        "{} pulses written to {} ({} repeated lines removed, {} missed pulses, {} sequence skips "
        "without a time gap (unseen events), {} lines skipped)\n",
        imported.pulses.size(), a.output, imported.duplicates, imported.gaps.missed_pulses,
        imported.gaps.unseen_events, imported.problem_count);
    return 0;
}

int write_series(const import::SeriesImport& imported, const ImportArguments& a) {
    print_problems(imported.problems, imported.problem_count);
    print_notes(imported.notes);
    for (const auto& warning : imported.warnings) {
        std::cerr << "ppsbench: warning: " << warning << "\n";
    }
    if (a.output.empty() || a.output == "-") {
        import::write_series_csv(imported, std::cout);
        return 0;
    }
    // Written whole: a failed import leaves an earlier CSV as it was. The file plan refused an
    // existing one without --force before any log was read.
    std::ostringstream csv;
    import::write_series_csv(imported, csv);
    core::write_file_atomically(a.output, csv.str(), "-o");
    return 0;
}

// The options, each bound to its field; --force and --strict are read from the variables map.
po::options_description declare_import_options(ImportArguments& a) {
    auto& o = a.options;
    po::options_description options("Options");
    // clang-format off
    options.add_options()
        ("output,o", po::value(&a.output),
         "file to write: a capture file (required for capture formats), or CSV (series "
         "formats; default stdout)")
        ("force", "overwrite the output file")
        ("refid", po::value(&o.refid),
         "chrony-refclocks: the refclock to import (needed when the log has several)")
        ("offset", po::value(&o.offset),
         "chrony-refclocks: raw (against the system clock, default) or cooked (against "
         "chronyd's NTP clock)")
        ("logbanner", po::value(&o.logbanner),
         "chrony-tracking: chrony.conf's logbanner, when not the default 32 and the files are "
         "too short to show it (restarts are found by banners out of this cycle)")
        ("peer", po::value(&o.peer),
         "ntp-peerstats: the peer to import (default: the one PPS peer, 127.127.22.u or PPS(u))")
        ("loopstats", po::value(&o.loopstats),
         "ntp-peerstats: ntpd's loopstats of the same time (repeat for rotated files): the "
         "offsets ntpd's clock discipline logged are checked against the imported ones where "
         "the peer was ntpd's PPS peer, and ntpd's own jitter is shown (docs/import.md)")
        ("edge", po::value(&o.edge),
         "ppswatch: the edge ppswatch watched, assert (ppswatch -a) or clear (its default; "
         "default: from a pasted 'ppswatch -a' command line)")
        ("clock", po::value(&o.clock),
         "ts2phc: the PHC to import as the log names it, eth0 or /dev/ptp0 (needed when the log "
         "has several)")
        ("unit", po::value(&o.unit),
         "ntpshmmon: the segment to import, NTP1 (default: the one PPS segment, NTP1 or NTP3)")
        ("strict", "stop at the first line that is not this format's instead of skipping it "
                   "(ts2phc: also refuse an edge ts2phc ignored, or phases its servo contradicts; "
                   "ntp-peerstats: offsets its --loopstats contradicts; ppswatch: closing "
                   "figures its lines contradict; any format: data after a .gz's end)");
    // clang-format on
    return options;
}

std::string usage_text() {
    std::string usage;
    for (const auto& f : import::import_formats()) {
        usage += fmt::format("{}ppsbench import {} {}", usage.empty() ? "" : "\n       ", f.name,
                             f.usage);
    }
    return usage;
}

std::string format_names() {
    std::string names;
    for (const auto& f : import::import_formats()) {
        names += fmt::format("{}{}", names.empty() ? "" : ", ", f.name);
    }
    return names;
}

// The help's description: what import does, then the table's formats, one per line (the shell
// completion reads the names from this "Formats:" list).
std::string description_text() {
    std::string text =
        "Reads other tools' logs as their programs wrote them (docs/import.md): capture-like "
        "formats become a capture file for 'ppsbench report', series become CSV. Files are read "
        "in the order given (rotated logs oldest first), gzip-compressed or not, '-' for "
        "standard input.\n\nFormats:\n";
    for (const auto& f : import::import_formats()) {
        text += fmt::format("  {:<18} {}{}\n", f.name, f.reads,
                            f.output == import::ImportOutput::csv ? " (CSV)" : "");
    }
    return text.substr(0, text.size() - 1);
}

const import::ImportFormat& chosen_format(const std::string& name) {
    if (const auto* format = import::find_import_format(name)) {
        return *format;
    }
    std::vector<std::string> names;
    for (const auto& f : import::import_formats()) {
        names.emplace_back(f.name);
    }
    throw core::UsageError(fmt::format("unknown format '{}'{}; use {}", name,
                                       core::did_you_mean(name, names), format_names()));
}

// A format refuses the options of the others: a given option (not a default) that `format`
// does not take is named with the formats that do.
void refuse_other_formats_options(const import::ImportFormat& format, const po::variables_map& vm) {
    for (const auto option : import::format_options()) {
        const std::string name(option);
        if (vm.count(name) == 0U || vm[name].defaulted()) {
            continue;
        }
        if (std::find(format.options.begin(), format.options.end(), option) ==
            format.options.end()) {
            throw core::UsageError(fmt::format("--{} is an option of {}, not of {}", option,
                                               import::formats_taking(option), format.name));
        }
    }
}

class ImportCommand final : public Command {
  public:
    std::string_view name() const override { return "import"; }
    std::string_view summary() const override {
        return "read chrony, ntpd, pps-tools, linuxptp and gpsd logs as captures or CSV";
    }

    int run(const std::vector<std::string>& args) override {
        ImportArguments a;
        const po::options_description options = declare_import_options(a);
        po::options_description hidden;
        // The positionals: named in the usage line, not listed as options.
        hidden.add_options()("format", po::value(&a.format));
        po::positional_options_description positional;
        positional.add("format", 1);
        a.files.declare(hidden, positional);
        po::variables_map vm;
        if (!parse_options("import", usage_text(), description_text(), args, options, positional,
                           vm, hidden)) {
            return 0;
        }
        if (a.format.empty()) {
            throw core::UsageError(
                fmt::format("name the format and the files, e.g. 'ppsbench import chrony-refclocks "
                            "/var/log/chrony/refclocks.log -o run.csv'; formats: {}",
                            format_names()));
        }
        const import::ImportFormat& format = chosen_format(a.format);
        refuse_other_formats_options(format, vm);
        if (a.files.paths.empty()) {
            throw core::UsageError(
                fmt::format("name the files to import, e.g. 'ppsbench import {} "
                            "FILE...'",
                            format.name));
        }
        a.force = vm.count("force") != 0U;
        a.options.strict = vm.count("strict") != 0U;
        const bool writes_csv = format.output == import::ImportOutput::csv;
        if (!writes_csv && (a.output.empty() || a.output == "-")) {
            throw core::UsageError(fmt::format(
                "import {}: name the capture file to write with -o FILE (a capture file is a "
                "file; only the CSV of a series format goes to standard output)",
                format.name));
        }
        // Before any input is read: a bad -o is found now, not after a long import, and it
        // is never one of the logs (the only copy of months).
        core::FilePlan plan;
        a.files.plan(plan);
        for (const auto& path : a.options.loopstats) {
            plan.read("--loopstats", path);
        }
        if (!a.output.empty() && a.output != "-") {
            plan.write("-o", a.output, core::OutputKind::record);
        }
        plan.check(a.force);
        const import::Imported imported = format.read(a.files.paths, a.options);
        if (const auto* capture = std::get_if<import::CaptureImport>(&imported)) {
            return write_pulses(*capture, a);
        }
        if (const auto* refclocks = std::get_if<chrony::RefclocksImport>(&imported)) {
            return write_refclocks(*refclocks, a);
        }
        return write_series(std::get<import::SeriesImport>(imported), a);
    }
};

}  // namespace

std::unique_ptr<Command> make_import_command() {
    return std::make_unique<ImportCommand>();
}

}  // namespace ppsbench::app
