#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages and --help must not drift apart: ppsbench(1) and one ppsbench-COMMAND(1) page
# for every command `ppsbench --help` lists, each naming every option of that command's --help,
# each with a NAME line man-db's whatis can index (lexgrog), none printing "??" for σ or µ.
# Usage: man_pages_test.sh PPSBENCH MAN-DIR
set -eu
ppsbench=$1 man_dir=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The page as a reader sees it: rendered, one line per paragraph, no hyphenation.
render() { MANWIDTH=1000 MANROFFOPT='-rHY=0' LC_ALL=C.UTF-8 man -l "$1" 2>/dev/null | col -b; }

# Long options of a --help text (Boost: "  -o [ --output ] arg" or "  --force").
options_of() { grep -E '^  -' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u; }

commands=$("$ppsbench" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$commands" ] || fail "'ppsbench --help' lists no commands"

check_page() {  # PAGE-NAME HELP-ARGS...
    page=$1
    shift
    file=$man_dir/$page.1
    if [ ! -f "$file" ]; then
        fail "$page: no man page $file (add dist/man/$page.h2m)"
        return
    fi
    lexgrog "$file" >/dev/null 2>&1 || fail "$page: whatis cannot read its NAME section"
    text=$(render "$file")
    [ -n "$text" ] || fail "$page: renders empty"
    # help2man outside a UTF-8 locale turns σ, µ, − and → into "??".
    if printf '%s\n' "$text" | grep -q '??'; then
        fail "$page: prints ?? where --help has a non-ASCII character: $(printf '%s\n' "$text" | grep -m1 '??')"
    fi
    count=0
    for option in $("$ppsbench" "$@" | options_of); do
        count=$((count + 1))
        printf '%s\n' "$text" | grep -qE -- "(^|[^a-z0-9-])$option([^a-z0-9-]|\$)" ||
            fail "$page: option $option of 'ppsbench $*' is not in the page"
    done
    echo "$page: $count options of 'ppsbench $*' all in $file"
}

check_page ppsbench --help
for command in $commands; do
    check_page "ppsbench-$command" "$command" --help
    printf '%s\n' "$(render "$man_dir/ppsbench.1")" | grep -q "ppsbench-$command(1)" ||
        fail "ppsbench(1) does not point to ppsbench-$command(1)"
done
# A page for a command that no longer exists would be stale documentation.
for file in "$man_dir"/ppsbench-*.1; do
    command=$(basename "$file" .1)
    command=${command#ppsbench-}
    echo "$commands" | grep -qx "$command" || fail "$file: 'ppsbench --help' has no command $command"
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
