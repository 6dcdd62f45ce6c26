// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench doctor`: read the system fingerprint, diagnose it, print both.
#include <fmt/format.h>
#include <algorithm>
#include <iostream>
#include <optional>
#include <vector>

#include "command.hpp"
#include "options.hpp"
#include "ppsbench/analysis/offset_check.hpp"
#include "ppsbench/chrony/conf.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/suggest.hpp"
#include "ppsbench/render/calibration_text.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/doctor_text.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::app {
namespace {

constexpr std::string_view kDoctorUsage =
    "ppsbench doctor [DEVICE] [--sysroot DIR] [--format text|json]\n"
    "                       [--pulse-wait DURATION] [--bias FILE]";

// One line per paragraph: wrap_text fills each to the terminal's width, so none ends early
// where a hard break was typed.
constexpr std::string_view kDoctorDescription =
    "Check what costs PPS timestamp accuracy on this system and say how to fix it.\n"
    "\n"
    "Reads /proc and /sys (no root needed): the kernel and its preemption model (PREEMPT_RT, "
    "threadirqs), the PPS device (default: the first in /sys/class/pps) with its interrupt, "
    "IRQ thread and handler, clocksource, CPU frequency and idle states, and chrony. Then it "
    "prints verdicts (ok / warn / fail) with the reason and the fix. The main one: whether the "
    "PPS timestamp is taken at the interrupt edge or, force-threaded on PREEMPT_RT or with "
    "threadirqs, only after an IRQ thread wakes up. An irq/N- thread alone proves nothing: "
    "current pps-gpio (Debian 6.1.190+, upstream stable 6.1.188+) splits its handler and keeps "
    "the timestamp in hard IRQ; ppsbench tells the two apart by the driver's symbols.\n"
    "\n"
    "Also: the edge chrony's refclock takes (:clear, a PHC's width), IRQ thread affinity, "
    "PCIe link power states (the Pi 5's RP1), Energy-Efficient Ethernet on a PTP NIC, and "
    "deep idle states with nothing holding them off.\n"
    "\n"
    "The pulse check reads the device's assert/clear twice, --pulse-wait apart. With "
    "--sysroot on an image (a mounted SD card: no /proc or /sys of a running system) it "
    "reads the boot files (cmdline.txt, config.txt, GRUB) and says \"cannot tell\" for what "
    "only the booted system shows.\n"
    "\n"
    "With --bias FILE (the PPS path's capture of a run with a reference, or its saved "
    "summary) it checks the offset chrony.conf's PPS refclock (and ntp.conf's time1) applies "
    "against the one the bias calls for, and names the line to change (docs/calibrate.md).\n"
    "\n"
    "Verdicts: ok, warn, fail, or ? (cannot tell: not readable here, e.g. needs root). Exit "
    "status: 0 no fail verdict, 1 at least one fail verdict, 2 bad usage. See docs/doctor.md "
    "for every check.\n"
    "\n"
    "Examples:\n"
    "  ppsbench doctor\n"
    "  ppsbench doctor /dev/pps1 --format json\n"
    "  ppsbench doctor --sysroot /mnt/sdcard --pulse-wait 0";

// --bias FILE: each PPS refclock offset the system configures, against the measured one.
std::vector<analysis::OffsetVerdict> offset_verdicts(const sysinfo::SystemFingerprint& fingerprint,
                                                     const std::string& sysroot,
                                                     const analysis::BiasEvidence& evidence) {
    std::vector<analysis::ConfiguredOffset> configured;
    // The refclocks of the PPS device doctor looked at; all PPS ones when none names it.
    const auto& refclocks = fingerprint.chrony.refclocks;
    const bool any_uses = std::any_of(refclocks.begin(), refclocks.end(),
                                      [](const auto& line) { return line.uses_device; });
    for (const auto& line : refclocks) {
        if (any_uses && !line.uses_device) {
            continue;
        }
        for (auto directive : chrony::parse_conf_text(line.text, line.file)) {
            directive.line = line.line;
            if (const auto offset = analysis::chrony_refclock_offset(directive)) {
                configured.push_back(*offset);
            }
        }
    }
    const auto ntp = analysis::read_ntp_pps_offsets(sysroot);
    configured.insert(configured.end(), ntp.begin(), ntp.end());
    std::vector<analysis::OffsetVerdict> verdicts;
    for (const auto& c : configured) {
        verdicts.push_back(
            analysis::check_offset(c, evidence.measured_ns, evidence.uncertainty_ns));
    }
    return verdicts;
}

class DoctorCommand final : public Command {
  public:
    std::string_view name() const override { return "doctor"; }
    std::string_view summary() const override {
        return "diagnose the kernel, PPS IRQ path and chrony for PPS accuracy";
    }

    int run(const std::vector<std::string>& args) override {
        std::string device;
        std::string sysroot;
        std::string format;
        std::string pulse_wait;
        std::string bias_file;
        po::options_description options("Options");
        options.add_options()  //
            ("sysroot", po::value(&sysroot)->default_value("/"),
             "read /proc and /sys under DIR instead of / (a copied tree; a mounted image is read "
             "from its boot files)")("format", po::value(&format)->default_value("text"),
                                     "output: text or json")(
                "pulse-wait", po::value(&pulse_wait)->default_value("1.2s"),
                "time between the two reads of the pulse check; 0 skips it")(
                "bias", po::value(&bias_file),
                "a capture (or saved summary) with a bias against a reference: check the "
                "configured refclock offset against it");
        po::options_description hidden;
        hidden.add_options()("device", po::value(&device));
        po::positional_options_description positional;
        positional.add("device", 1);
        po::variables_map vm;
        if (!parse_options(name(), kDoctorUsage, kDoctorDescription, args, options, positional, vm,
                           hidden)) {
            return 0;
        }
        if (format != "text" && format != "json") {
            throw core::UsageError(fmt::format("--format {}: use text or json{}", format,
                                               core::did_you_mean(format, {"text", "json"})));
        }
        sysinfo::FingerprintOptions fingerprint_options;
        fingerprint_options.sysroot = sysroot;
        fingerprint_options.device = device;
        // parse_duration() rejects zero, which here means "skip the check": "0", "0s", "0ms".
        const bool zero = pulse_wait.find_first_of("123456789") == std::string::npos &&
                          !pulse_wait.empty() && pulse_wait.front() == '0';
        fingerprint_options.pulse_wait =
            zero ? std::chrono::milliseconds(0)
                 : std::chrono::duration_cast<std::chrono::milliseconds>(
                       core::parse_duration(pulse_wait, "--pulse-wait"));
        // A snapshot cannot pulse: judge only what a copied tree can show.
        fingerprint_options.snapshot =
            std::filesystem::path(sysroot).lexically_normal() != std::filesystem::path("/");
        std::error_code ec;
        if (!std::filesystem::is_directory(fingerprint_options.sysroot, ec)) {
            throw core::UsageError(
                fmt::format("--sysroot '{}' is not a directory; give the root of a "
                            "system tree",
                            sysroot));
        }

        // A FILE that cannot be read or holds no bias fails before the system is read.
        std::optional<analysis::BiasEvidence> evidence;
        if (!bias_file.empty()) {
            evidence = analysis::load_bias_evidence(bias_file);
        }
        const auto fingerprint = sysinfo::read_fingerprint(fingerprint_options);
        const auto verdicts = sysinfo::diagnose(fingerprint);
        const auto offsets = evidence ? offset_verdicts(fingerprint, sysroot, *evidence)
                                      : std::vector<analysis::OffsetVerdict>{};
        if (format == "json") {
            auto document = sysinfo::doctor_json(fingerprint, verdicts);
            if (evidence) {
                document["bias_check"] = render::offset_check_json(*evidence, offsets);
            }
            std::cout << document.dump(2) << "\n";
        } else {
            sysinfo::write_doctor_text(std::cout, fingerprint, verdicts);
            if (evidence) {
                std::cout << render::offset_check_text(*evidence, offsets);
            }
        }
        return sysinfo::has_failure(verdicts) ? 1 : 0;
    }
};

}  // namespace

std::unique_ptr<Command> make_doctor_command() {
    return std::make_unique<DoctorCommand>();
}

}  // namespace ppsbench::app
