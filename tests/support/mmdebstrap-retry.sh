# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the scripts that make a Debian root: mmdebstrap_retry TARGET MMDEBSTRAP-ARGUMENT...
# runs mmdebstrap (whose arguments must end with TARGET and its mirror) up to three times.
#
# Why: a root is ~600 MB of .debs from the mirror, and a CI run once failed on one of them
# (mmdebstrap exit 25 in apt-get install, on a tree that made the same root here minutes
# before and after). A download that fails is the network's, not the project's; a second
# try a minute later is what a person would do. mmdebstrap's own output goes to a log that
# is shown (its last lines, where apt says what failed, and the disk's free space) only when
# an attempt fails, so a passing run stays as quiet as --quiet.
mmdebstrap_retry() {
    local target=$1 attempt status log
    shift
    log=$(mktemp /tmp/ppsbench-mmdebstrap.XXXXXX.log)
    for attempt in 1 2 3; do
        # A folder the caller made (mktemp -d) is emptied, not removed: its name stays its own.
        if [ -d "$target" ]; then
            find "$target" -xdev -mindepth 1 -delete
        fi
        status=0
        mmdebstrap --aptopt='Acquire::Retries "3"' "$@" >"$log" 2>&1 || status=$?
        if [ "$status" -eq 0 ]; then
            rm -f "$log"
            return 0
        fi
        echo "mmdebstrap: attempt $attempt of 3 for $target failed (exit $status); its last lines:" >&2
        tail -n 25 "$log" | sed 's/^/  | /' >&2
        df -h "$(dirname "$target")" | tail -n 1 | sed 's/^/  | free space: /' >&2
        [ "$attempt" -lt 3 ] && sleep $((attempt * 30))
    done
    [ -d "$target" ] && find "$target" -xdev -mindepth 1 -delete
    rm -f "$log"
    return "$status"
}
