#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion of ppsbench, in a real bash with bash-completion loaded: the completion is
# registered (complete -p), offers exactly the commands of `ppsbench --help` and the options of
# each `ppsbench COMMAND --help`, the metric names of --metrics, the --format values and other
# option values that the option's own --help names, and capture files.
# Usage: completion_test.sh PPSBENCH COMPLETION-FILE
set -u
ppsbench=$(realpath "$1")
completion=$2
here=$(dirname "$(realpath "$0")")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
same_set() {  # WHAT EXPECTED ACTUAL (newline-separated)
    local expected actual
    expected=$(sort -u <<<"$2") actual=$(sort -u <<<"$3")
    [ "$expected" = "$actual" ] || fail "$1: expected [$(echo $expected)] got [$(echo $actual)]"
}

PATH=$(dirname "$ppsbench"):$PATH
[ -r /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
source "$completion"
source "$here/complete_line.bash"

spec=$(complete -p ppsbench 2>&1)
[[ $spec == "complete -F __ppsbench_complete ppsbench" ]] || fail "complete -p ppsbench: $spec"

commands=$(ppsbench --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
same_set "ppsbench TAB" "$commands"$'\n--help\n--version' "$(complete_line 'ppsbench ')"
same_set "ppsbench re TAB" "report" "$(complete_line 'ppsbench re')"

# The description of OPTION in COMMAND's --help, continuation lines joined.
describe() {  # COMMAND OPTION
    ppsbench "$1" --help | awk -v o="$2" '
        /^  -/ { on = 0 } /^  -/ && index($0, o " ") { on = 1 }
        on { sub(/^ +/, ""); printf "%s ", $0 }'
}

for command in $commands; do
    # Each option line's own name (its first --word; a description may name other options).
    options=$(ppsbench "$command" --help | sed -nE 's/^  (-[a-zA-Z] \[ )?(--[a-z0-9][a-z0-9-]*).*/\2/p')
    same_set "ppsbench $command -- TAB" "$options" "$(complete_line "ppsbench $command --")"
    for option in $options; do
        choices=$(__ppsbench_choices "$command" "$option")
        [ -z "$choices" ] && continue
        text=$(describe "$command" "$option")
        for choice in $choices; do
            grep -qF -- "$choice" <<<"$text" ||
                fail "completion offers '$choice' for $command $option, its --help does not: $text"
        done
        same_set "ppsbench $command $option TAB" "$(tr ' ' '\n' <<<"$choices")" \
            "$(complete_line "ppsbench $command $option ")"
    done
done
same_set "report --format=c TAB (after the '=' break)" csv "$(complete_line 'ppsbench report --format=c')"
same_set "doctor --format TAB" $'text\njson' "$(complete_line 'ppsbench doctor --format ')"

metrics=$(describe report --metrics | sed 's/.*comma-separated://; s/(e\.g\..*//' | tr ',' '\n' |
    sed 's/ //g; s/TAU$//' | grep .)
same_set "report --metrics TAB" "$metrics" "$(complete_line 'ppsbench report --metrics ')"
[ "$(wc -l <<<"$metrics")" -gt 20 ] || fail "only $(wc -l <<<"$metrics") metric names in report --help"
same_set "report -m sigma,p9 TAB" $'sigma,p90\nsigma,p99\nsigma,p99.9\nsigma,p99.99' \
    "$(complete_line 'ppsbench report -m sigma,p9')"

# The source specs are a "Sources" paragraph of run --help, after the options.
sources=$(ppsbench run --help | sed -n '/^Sources/,/^$/p')
for model in $(complete_line 'ppsbench run --source sim:'); do
    grep -q "${model#sim:}" <<<"$sources" || fail "sim model $model is not in run --help's Sources"
done
same_set "run --source sim:thr TAB" threaded "$(complete_line 'ppsbench run --source sim:thr')"

workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT
cd "$workdir" && mkdir runs && touch stock.csv rt.csv notes.txt runs/old.csv summary.json plot.svg
same_set "report TAB (capture files)" $'runs/\nstock.csv\nrt.csv\nsummary.json' "$(complete_line 'ppsbench report ')"
same_set "report runs/ TAB" runs/old.csv "$(complete_line 'ppsbench report runs/')"
same_set "compare --plot TAB" $'runs/\nplot.svg' "$(complete_line 'ppsbench compare --plot ')"
same_set "run --source replay:s TAB" stock.csv "$(complete_line 'ppsbench run --source replay:s')"
formats=$(ppsbench import --help | sed -n '/^Formats:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ "$(wc -l <<<"$formats")" -ge 10 ] || fail "only $(wc -l <<<"$formats") formats in import --help"
same_set "import TAB" "$formats" "$(complete_line 'ppsbench import ')"
same_set "import ppswatch TAB (files)" $'runs/\nstock.csv\nrt.csv\nnotes.txt\nsummary.json\nplot.svg' \
    "$(complete_line 'ppsbench import ppswatch ')"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "bash completion: $(wc -w <<<"$commands") commands, their options, choices, metrics and files all offered"
