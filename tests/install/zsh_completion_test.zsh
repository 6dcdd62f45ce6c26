#!/usr/bin/zsh -f
# SPDX-License-Identifier: GPL-2.0-or-later
# zsh runs the bash completion through bashcompinit (dist/completion/_ppsbench.in). This loads it
# the same way, sets what bashcompinit's _bash_complete sets (1-based words, COMP_CWORD =
# CURRENT - 1, COMP_LINE, COMP_POINT), calls the completion, and keeps the candidates that start
# with the word under the cursor, as zsh's compadd does. No terminal is involved.
# Usage: zsh_completion_test.zsh PPSBENCH BASH-COMPLETION-FILE
ppsbench=${1:A} completion=${2:A}
path=(${ppsbench:h} $path)
autoload -U compinit && compinit -u -D
autoload -U +X bashcompinit && bashcompinit
emulate ksh -o bash_rematch -c "source '$completion'"
failures=0

zcomplete() {  # LINE -> the candidates zsh would show, sorted, space-separated
    local -a words=(${(z)1})
    [[ $1 == *' ' ]] && words+=('')
    local CURRENT=${#words}
    local COMP_LINE=$1 COMP_POINT=${#1} COMP_CWORD=$((CURRENT - 1))
    local -a COMP_WORDS=("${words[@]}") COMPREPLY=()
    __ppsbench_complete
    local word=${words[CURRENT]}
    print -r -- ${(o)${(M)COMPREPLY:#${~${(b)word}}*}}
}
expect() {  # LINE EXPECTED
    local got=$(zcomplete $1)
    if [[ $got != $2 ]]; then
        print -r -- "FAIL: [$1] expected [$2] got [$got]"
        (( failures++ ))
    fi
}

cd "$(mktemp -d)" && mkdir runs && touch stock.csv notes.txt
expect 'ppsbench rep' 'report'
expect 'ppsbench report --form' '--format'
expect 'ppsbench report --format ' 'csv json markdown text'
expect 'ppsbench doctor --format j' 'json'
expect 'ppsbench report --metrics sigma,p9' 'sigma,p90 sigma,p99 sigma,p99.9 sigma,p99.99'
expect 'ppsbench run --source sim:thr' 'sim:threaded'
expect 'ppsbench report ' 'runs/ stock.csv'
expect 'ppsbench import ' 'chrony-refclocks chrony-statistics chrony-tracking ntp-loopstats ntp-peerstats ntpshmmon phc2sys ppstest ppswatch ts2phc'
rm -rf "$PWD"
(( failures == 0 )) || { print "$failures failure(s)"; exit 1 }
print "zsh completion: the bash completion under bashcompinit offers the same words"
