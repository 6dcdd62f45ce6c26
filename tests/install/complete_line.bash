# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the completion tests: run the ppsbench completion for a command line the way bash
# does on TAB, and print the candidates one per line. The line is split into COMP_WORDS as
# readline does (at blanks, and at the COMP_WORDBREAKS characters ':' and '=', which become
# words of their own); the cursor is at the end of the line.
complete_line() {  # LINE
    local line=$1
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMP_WORDS=()
    local word="" char i
    for ((i = 0; i < ${#line}; i++)); do
        char=${line:i:1}
        case $char in
            " ") [ -n "$word" ] && COMP_WORDS+=("$word"); word="" ;;
            ":" | "=")
                [ -n "$word" ] && COMP_WORDS+=("$word")
                COMP_WORDS+=("$char")
                word=""
                ;;
            *) word+=$char ;;
        esac
    done
    # The word under the cursor: what follows the last blank or break character (maybe "").
    if [[ $line == *" " ]] || [[ $line == *[:=] ]]; then
        COMP_WORDS+=("")
    else
        COMP_WORDS+=("$word")
    fi
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    local spec
    spec=$(complete -p ppsbench) || return 1
    local function=${spec##*-F }
    function=${function%% *}
    COMPREPLY=()
    "$function" ppsbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\n' "${COMPREPLY[@]}"
}
