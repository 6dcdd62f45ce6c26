// SPDX-License-Identifier: GPL-2.0-or-later
// Issue 22, as a user meets it: signed figures gated without their sign, saved summaries that
// passed what they did not hold, a σ-0 baseline "within noise", and duplicates and disorder
// invisible to machines. Each case passed (exit 0) on main before the fix.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

std::string labelled_capture(const TempDir& dir, const std::string& name, int seed = 1,
                             int count = 600) {
    const auto path = dir.file(name);
    const auto result =
        run_ppsbench({"run", "-s", "sim:hardirq", "--seed", std::to_string(seed), "--count",
                      std::to_string(count), "--label", name, "-q", "-o", path});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return path;
}

// The capture at `from` with its pulse lines ("sequence,edge,timestamp_ns") rewritten.
std::string rewritten(const TempDir& dir, const std::string& from, const std::string& name,
                      const std::function<void(std::vector<std::string>&)>& edit) {
    std::istringstream in(testing::read_text(from));
    std::vector<std::string> head;
    std::vector<std::string> pulses;
    std::string line;
    while (std::getline(in, line)) {
        const bool pulse = !line.empty() && line[0] >= '0' && line[0] <= '9';
        (pulse ? pulses : head).push_back(line);
    }
    edit(pulses);
    std::string text;
    for (const auto& l : head) {
        if (l.rfind("# end", 0) != 0) {
            text += l + "\n";
        }
    }
    for (const auto& l : pulses) {
        text += l + "\n";
    }
    testing::write_text(dir.file(name), text);
    return dir.file(name);
}

// Every timestamp moved by `ns` (and, with `flatten`, put exactly on the second).
std::string shifted(const TempDir& dir, const std::string& from, const std::string& name,
                    std::int64_t ns, bool flatten = false) {
    return rewritten(dir, from, name, [&](std::vector<std::string>& pulses) {
        for (auto& p : pulses) {
            const auto comma = p.rfind(',');
            std::int64_t t = std::stoll(p.substr(comma + 1));
            if (flatten) {
                t = (t + 500'000'000) / 1'000'000'000 * 1'000'000'000;
            }
            p = p.substr(0, comma + 1) + std::to_string(t + ns);
        }
    });
}

std::string summary(const TempDir& dir, const std::vector<std::string>& captures,
                    const std::string& name) {
    std::vector<std::string> args = {"report", "--format", "json"};
    args.insert(args.end(), captures.begin(), captures.end());
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    testing::write_text(dir.file(name), result.out);
    return dir.file(name);
}

// On main: "[pass] … mean -50.0 µs is within the limit", exit 0; the same for median and min.
TEST(SignedFigures, AreGatedOnTheirMagnitude) {
    TempDir dir;
    const auto early = shifted(dir, labelled_capture(dir, "stock.csv"), "early.csv", -50'000);
    for (const char* key : {"mean", "median", "min"}) {
        const auto result = run_ppsbench({"gate", early, "--max", std::string(key) + "=1us"});
        EXPECT_EQ(result.exit_code, 1) << key << "\n" << result.out << result.err;
        EXPECT_TRUE(contains(result.out, std::string("[FAIL] |") + key + "| ≤ 1000 ns"))
            << result.out;
    }
    const auto mean = run_ppsbench({"gate", early, "--max", "mean=1us"});
    EXPECT_TRUE(contains(mean.out, "|mean| 49.9 µs > 1000 ns (mean -49.9 µs)")) << mean.out;
    const auto within = run_ppsbench({"gate", early, "--min", "mean=-51us", "--max", "mean=51us"});
    EXPECT_EQ(within.exit_code, 0) << within.out << within.err;
    const auto bad = run_ppsbench({"gate", early, "--max", "mean=-1us"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_TRUE(contains(bad.err, "--max mean: '-1us' is negative")) << bad.err;
}

// On main the summary passed with "σ without outliers 0 ns" where the capture fails.
TEST(SavedSummaries, GiveTheVerdictsTheirCaptureGives) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    const auto base = summary(dir, {stock}, "base.json");
    for (const std::vector<std::string>& limit :
         {std::vector<std::string>{"--max", "sigma_no_outliers=1us"},
          {"--max", "sigma_no_outliers=3us"},
          {"--max", "adev@16s=1e-6"},
          {"--max", "adev@16s=1e-8"},
          {"--max", "tdev@4s=1us"},
          {"--max", "mean=10ns"},
          {"--max", "duplicates=0"},
          {"--min", "pulses=601"},
          {"--max-sigma", "3us"}}) {
        auto on_capture = std::vector<std::string>{"gate", stock};
        auto on_summary = std::vector<std::string>{"gate", base};
        on_capture.insert(on_capture.end(), limit.begin(), limit.end());
        on_summary.insert(on_summary.end(), limit.begin(), limit.end());
        const auto a = run_ppsbench(on_capture);
        const auto b = run_ppsbench(on_summary);
        EXPECT_EQ(b.exit_code, a.exit_code) << limit[1] << "\n" << a.out << b.out << b.err;
        EXPECT_NE(b.exit_code, 2) << limit[1] << "\n" << b.err;
        const auto verdict = [](const std::string& out) { return out.substr(out.find('\n')); };
        EXPECT_EQ(verdict(b.out), verdict(a.out)) << limit[1];
    }
}

TEST(SavedSummaries, RefuseImpossibleAndAbsentFiguresNamingTheSummary) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    auto document = nlohmann::json::parse(testing::read_text(summary(dir, {stock}, "base.json")));
    auto edited = document;
    edited["runs"][0]["offset_ns"]["stddev"] = -5;
    testing::write_text(dir.file("negative.json"), edited.dump());
    const auto negative = run_ppsbench({"gate", dir.file("negative.json"), "--max-sigma", "3us"});
    EXPECT_EQ(negative.exit_code, 2) << negative.out;
    EXPECT_TRUE(contains(negative.err, dir.file("negative.json") +
                                           ": run 1 (\"stock.csv\") holds "
                                           "an impossible figure, offset_ns: stddev -5 is "
                                           "negative"))
        << negative.err;

    edited = document;
    edited["runs"][0]["offset_ns"].erase("stddev_without_outliers");
    testing::write_text(dir.file("older.json"), edited.dump());
    const auto absent =
        run_ppsbench({"gate", dir.file("older.json"), "--max", "sigma_no_outliers=10us"});
    EXPECT_EQ(absent.exit_code, 2) << absent.out;
    EXPECT_TRUE(contains(absent.err, dir.file("older.json") + ": run 1 has no σ without outliers"))
        << absent.err;

    const auto chrony = run_ppsbench({"gate", dir.file("older.json"), "--max-rms-offset", "1us"});
    EXPECT_EQ(chrony.exit_code, 2);
    EXPECT_TRUE(contains(chrony.err, dir.file("older.json") + " has no synchronised chrony"))
        << chrony.err;
    EXPECT_FALSE(contains(chrony.err, stock)) << chrony.err;  // not the capture inside it
}

// chrony's figures are read back too: a summary of a run with chronyd is a baseline for them.
TEST(SavedSummaries, KeepChronysFigures) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    auto document = nlohmann::json::parse(testing::read_text(summary(dir, {stock}, "base.json")));
    // As `report` writes it: the figures, and whether chrony was synchronised at the end.
    document["runs"][0]["chrony"] = {{"rms_offset_ns", {{"end", 440}, {"mean", 450}}},
                                     {"status", "ok"},
                                     {"samples", 60},
                                     {"synchronised_samples", 60}};
    testing::write_text(dir.file("chrony.json"), document.dump());
    const auto gate = run_ppsbench({"gate", dir.file("chrony.json"), "--max-rms-offset", "1us"});
    EXPECT_EQ(gate.exit_code, 0) << gate.out << gate.err;
    EXPECT_TRUE(contains(gate.out, "chrony RMS offset 440 ns is within the limit")) << gate.out;
    // Without the status the figure "at the end" may be from before chronyd died (issue 39).
    document["runs"][0]["chrony"].erase("status");
    testing::write_text(dir.file("unsure.json"), document.dump());
    const auto unsure = run_ppsbench({"gate", dir.file("unsure.json"), "--max-rms-offset", "1us"});
    EXPECT_EQ(unsure.exit_code, 2) << unsure.out;
    EXPECT_TRUE(contains(unsure.err, "does not say whether chrony was synchronised")) << unsure.err;
    const auto compare =
        run_ppsbench({"compare", "--baseline", dir.file("chrony.json"), stock, "--format", "csv"});
    EXPECT_EQ(compare.exit_code, 0) << compare.err;
    EXPECT_TRUE(contains(compare.out, "chrony_rms_offset_ns,offset_stddev_ns")) << compare.out;
}

TEST(SavedSummaries, RunPicksOneRunOfSeveral) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv", 1);
    const auto again = labelled_capture(dir, "again.csv", 2);
    const auto both = summary(dir, {stock, again}, "both.json");
    const auto unchosen = run_ppsbench({"gate", "--baseline", both, again, "--max-ratio", "1.25"});
    EXPECT_EQ(unchosen.exit_code, 2);
    EXPECT_TRUE(contains(unchosen.err, "choose one with --run LABEL|N")) << unchosen.err;
    const auto chosen =
        run_ppsbench({"gate", "--baseline", both, "--run", "1", again, "--max-ratio", "1.25"});
    EXPECT_EQ(chosen.exit_code, 0) << chosen.out << chosen.err;
    EXPECT_TRUE(contains(chosen.out, "σ ratio vs stock.csv")) << chosen.out;
    const auto by_label = run_ppsbench(
        {"compare", "--baseline", both, "--run", "again.csv", stock, "--format", "csv"});
    EXPECT_EQ(by_label.exit_code, 0) << by_label.err;
    EXPECT_EQ(std::count(by_label.out.begin(), by_label.out.end(), '\n'), 3) << by_label.out;
    const auto report = run_ppsbench({"report", both, "--run", "2", "--format", "csv"});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_TRUE(contains(report.out, "again.csv")) << report.out;
    EXPECT_FALSE(contains(report.out, "\nstock.csv")) << report.out;
    const auto out_of_range = run_ppsbench({"report", both, "--run", "3"});
    EXPECT_EQ(out_of_range.exit_code, 2);
    EXPECT_TRUE(contains(out_of_range.err, "--run 3: " + both +
                                               " holds 2 runs, so there is no "
                                               "run 3"))
        << out_of_range.err;
}

// On main: "σ — (95 % CI n/a), within noise", exit 0, where gate refused.
TEST(CompareBaseline, WithSigmaZeroOrNoneIsRefused) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    const auto perfect = shifted(dir, stock, "perfect.csv", 0, true);
    const auto flat = run_ppsbench({"compare", "--baseline", perfect, stock});
    EXPECT_EQ(flat.exit_code, 2) << flat.out;
    EXPECT_TRUE(contains(flat.err, "the baseline " + perfect +
                                       " has σ 0, so no ratio to it "
                                       "exists"))
        << flat.err;
    EXPECT_FALSE(contains(flat.out, "within noise")) << flat.out;
    const auto one = labelled_capture(dir, "one.csv", 2, 1);
    const auto single = run_ppsbench({"compare", "--baseline", one, stock});
    EXPECT_EQ(single.exit_code, 2) << single.out;
    EXPECT_TRUE(contains(single.err, "the baseline " + one + " has no σ (1 pulse)")) << single.err;
    const auto gate = run_ppsbench({"gate", "--baseline", perfect, stock, "--max-ratio", "1.25"});
    EXPECT_EQ(gate.exit_code, 2);
    EXPECT_TRUE(contains(gate.err, "has σ 0")) << gate.err;
}

// On main every line doubled showed 600 pulses and no count anywhere a machine reads.
TEST(DuplicatesAndDisorder, AreFiguresOfEveryMachineFormatAndTheGate) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    const auto doubled = rewritten(dir, stock, "doubled.csv", [](std::vector<std::string>& p) {
        std::vector<std::string> twice;
        for (const auto& line : p) {
            twice.push_back(line);
            twice.push_back(line);
        }
        p = twice;
    });
    const auto shuffled = rewritten(dir, stock, "shuffled.csv", [](std::vector<std::string>& p) {
        for (std::size_t i = 0; i + 1 < p.size(); i += 7) {
            std::swap(p[i], p[i + 1]);
        }
    });
    const auto json = nlohmann::json::parse(
        run_ppsbench({"report", "--format", "json", doubled, shuffled, stock}).out);
    EXPECT_EQ(json["schema"], "ppsbench.report/2");
    EXPECT_EQ(json["runs"][0]["duplicates"], 600);
    EXPECT_EQ(json["runs"][1]["out_of_order"], 86);
    EXPECT_EQ(json["runs"][2]["duplicates"], 0);
    EXPECT_EQ(json["runs"][2]["out_of_order"], 0);
    const auto csv = run_ppsbench(
        {"report", "--format", "csv", "--metrics", "pulses,duplicates,out_of_order", doubled});
    EXPECT_TRUE(contains(csv.out, "pulses,duplicates,out_of_order\n")) << csv.out;
    EXPECT_TRUE(contains(csv.out, ",600,600,0\n")) << csv.out;
    const auto gate = run_ppsbench({"gate", doubled, "--max", "duplicates=0"});
    EXPECT_EQ(gate.exit_code, 1) << gate.out << gate.err;
    EXPECT_TRUE(contains(gate.out, "[FAIL] duplicates ≤ 0: 600 duplicates, limit 0")) << gate.out;
    const auto order = run_ppsbench({"gate", shuffled, "--max", "out_of_order=0"});
    EXPECT_EQ(order.exit_code, 1) << order.out << order.err;
    EXPECT_EQ(
        run_ppsbench({"gate", stock, "--max", "duplicates=0", "--max", "out_of_order=0"}).exit_code,
        0);
}

// The stability columns that are times carry their unit (issue 27, in this schema change).
TEST(DuplicatesAndDisorder, StabilityTimeColumnsCarryTheirUnit) {
    TempDir dir;
    const auto stock = labelled_capture(dir, "stock.csv");
    const auto csv = run_ppsbench(
        {"report", "--format", "csv", "--metrics", "adev@16s,mtie@16s,tdev@16s", stock});
    EXPECT_TRUE(contains(csv.out, "adev_at_16s,mtie_at_16s_ns,tdev_at_16s_ns\n")) << csv.out;
}

}  // namespace
}  // namespace ppsbench
