# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for ppsbench(1)                                     -*- shell-script -*-
#
# Commands, options and metric names are read from the program's own --help, so they follow
# the program: `ppsbench --help` lists the commands, `ppsbench COMMAND --help` the options (and,
# for report, the metric names). The values of options that take one of a few words are listed
# below; tests/install/completion_test.sh checks each of them against that option's --help.
# Only bash builtins are used, so zsh runs the same code through bashcompinit (_ppsbench).

# The --help text of COMMAND (empty for the top level).
__ppsbench_help() {
    LC_ALL=C "${__ppsbench_program:-ppsbench}" ${1:+"$1"} --help 2>/dev/null
}

__ppsbench_commands() {
    __ppsbench_help | while read -r name _; do
        case $name in
            Commands:) listing=1 ;;
            "") [ -n "${listing:-}" ] && break ;;
            *) [ -n "${listing:-}" ] && printf '%s\n' "$name" ;;
        esac
    done
}

# Long options of COMMAND, one per line; with "arg" as the second field when they take a value.
# Boost.Program_options prints "  -o [ --output ] arg ..." or "  --force   ...".
__ppsbench_options() {
    local line pattern='^  (-[a-zA-Z] \[ )?(--[a-z0-9-]+)( \])?( arg)?'
    __ppsbench_help "$1" | while IFS= read -r line; do
        if [[ $line =~ $pattern ]]; then
            printf '%s %s\n' "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]# }"
        fi
    done
}

# Import formats from the "Formats:" list of `import --help` (the program's table of formats).
__ppsbench_import_formats() {
    __ppsbench_help import | while read -r name _; do
        case $name in
            Formats:) listing=1 ;;
            "") [ -n "${listing:-}" ] && break ;;
            *) [ -n "${listing:-}" ] && printf '%s\n' "$name" ;;
        esac
    done
}

# Metric names from the --metrics description of `report --help` ("adev@TAU" becomes "adev@").
__ppsbench_metrics() {
    local text
    text=$(__ppsbench_help report | tr '\n' ' ')
    text=${text#*comma-separated:}
    text=${text%%(e.g.*}
    local word
    for word in ${text//,/ }; do
        printf '%s\n' "${word%TAU}"
    done
}

# The words an option takes, when it takes one of a few.
__ppsbench_choices() {  # COMMAND OPTION
    case $1:$2 in
        report:--format | compare:--format) echo "text markdown csv json" ;;
        doctor:--format | calibrate:--format) echo "text json" ;;
        calibrate:--edge) echo "assert clear" ;;
        run:--edge | latency:--edge) echo "assert clear both" ;;
        run:--pace) echo "fast realtime" ;;
        run:--bias) echo "as-is pull-up pull-down disable" ;;
        run:--chrony) echo "auto on off" ;;
        *:--detrend) echo "1 2" ;;
        import:--format) echo $(__ppsbench_import_formats) ;;
        import:--offset) echo "raw cooked" ;;
        import:--edge) echo "assert clear" ;;
    esac
}

# Files with one of the suffixes (and directories to descend into).
__ppsbench_files() {  # CURRENT SUFFIX...
    local cur=$1 path suffix
    shift
    local IFS=$'\n'
    for path in $(compgen -d -- "$cur"); do
        COMPREPLY+=("$path/")
    done
    for path in $(compgen -f -- "$cur"); do
        [ -d "$path" ] && continue
        if [ $# -eq 0 ]; then
            COMPREPLY+=("$path")
            continue
        fi
        for suffix in "$@"; do
            case $path in
                *."$suffix") COMPREPLY+=("$path") ;;
            esac
        done
    done
}

__ppsbench_sources() {  # CURRENT
    local cur=$1 device candidates=()
    for device in /dev/pps[0-9]*; do
        [ -e "$device" ] && candidates+=("pps:$device")
    done
    for device in /dev/gpiochip[0-9]*; do
        [ -e "$device" ] && candidates+=("gpio:${device#/dev/}:")
    done
    candidates+=(sim:hardirq sim:threaded sim:nothread sim:reference replay:)
    case $cur in
        replay:*)
            local files=()
            COMPREPLY=()
            __ppsbench_files "${cur#replay:}" csv
            for device in "${COMPREPLY[@]}"; do
                files+=("replay:$device")
            done
            COMPREPLY=("${files[@]}")
            return
            ;;
    esac
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "${candidates[*]}" -- "$cur"))
}

__ppsbench_complete() {
    __ppsbench_candidates
    # Readline completes only the text after the last ':' or '=' (COMP_WORDBREAKS), so the
    # candidates drop what comes before it; zsh (bashcompinit) replaces whole words.
    local line=${COMP_LINE:0:$COMP_POINT}
    local cur=${line##*[[:space:]]}
    local head=${cur%"${cur##*[:=]}"} i
    if [ -n "$head" ] && [[ ${COMP_WORDBREAKS-} == *"${head: -1}"* ]]; then
        for i in "${!COMPREPLY[@]}"; do
            COMPREPLY[i]=${COMPREPLY[i]#"$head"}
        done
    fi
    # No space after a directory, "gpio:CHIP:" or "replay:": more follows.
    if [ ${#COMPREPLY[@]} -eq 1 ] && [[ ${COMPREPLY[0]} == */ || ${COMPREPLY[0]} == *: ]]; then
        compopt -o nospace 2>/dev/null || true
    fi
}

__ppsbench_candidates() {
    COMPREPLY=()
    local cur=${COMP_WORDS[$COMP_CWORD]} prev=""
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[$((COMP_CWORD - 1))]}
    # bash splits "--metrics=a" and "pps:/dev/pps0" at = and :; put such words back together.
    local line=${COMP_LINE:0:$COMP_POINT}
    cur=${line##*[[:space:]]}
    local __ppsbench_program=${COMP_WORDS[0]}

    local command="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [ -z "$command" ]; then
        COMPREPLY=($(compgen -W "$(__ppsbench_commands) --help --version" -- "$cur"))
        return
    fi

    # The option whose value is being completed: "--opt VALUE" or "--opt=VALUE".
    local option="" value=$cur
    case $cur in
        --*=*) option=${cur%%=*}; value=${cur#*=} ;;
        -*) ;;
        *)
            local before=${line%"$cur"}
            before=${before%"${before##*[![:space:]]}"}
            option=${before##*[[:space:]]}
            ;;
    esac
    case $option in
        -s) option=--source ;;
        -o) option=--output ;;
        -f) option=--format ;;
        -m) option=--metrics ;;
        -b) option=--baseline ;;
    esac
    local options
    options=$(__ppsbench_options "$command")
    if [[ $option == --* ]] && grep -qx -- "$option arg" <<<"$options"; then
        local prefix=""
        [[ $cur == --*=* ]] && prefix="$option="
        local choices
        choices=$(__ppsbench_choices "$command" "$option")
        if [ -n "$choices" ]; then
            COMPREPLY=($(compgen -P "$prefix" -W "$choices" -- "$value"))
            return
        fi
        case $option in
            --metrics)
                # A comma-separated list: complete its last item.
                local done_part=""
                [[ $value == *,* ]] && done_part=${value%,*},
                COMPREPLY=($(compgen -P "$prefix$done_part" -W "$(__ppsbench_metrics)" \
                    -- "${value##*,}"))
                ;;
            --source | --sense) __ppsbench_sources "$value" ;;
            --baseline) __ppsbench_files "$value" csv json ;;
            --file | --current) __ppsbench_files "$value" csv ;;
            --plot) __ppsbench_files "$value" svg ;;
            --prometheus) __ppsbench_files "$value" prom ;;
            --junit) __ppsbench_files "$value" xml ;;
            --html) __ppsbench_files "$value" html ;;
            --output | --log) __ppsbench_files "$value" ;;
            --sysroot) COMPREPLY=($(compgen -d -S / -- "$value")) ;;
            --device) COMPREPLY=($(compgen -W "$(compgen -G '/dev/pps[0-9]*')" -- "$value")) ;;
        esac
        return
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(cut -d' ' -f1 <<<"$options")" -- "$cur"))
        return
    fi
    case $command in
        report | compare | gate) __ppsbench_files "$cur" csv json ;;
        calibrate) __ppsbench_files "$cur" csv ;;
        import)
            local format named=
            for format in $(__ppsbench_import_formats); do
                case " ${COMP_WORDS[*]} " in
                    *" $format "*) named=1 ;;
                esac
            done
            if [ -n "$named" ]; then
                __ppsbench_files "$cur"
            else
                COMPREPLY=($(compgen -W "$(__ppsbench_choices import --format)" -- "$cur"))
            fi
            ;;
    esac
}

complete -F __ppsbench_complete ppsbench
