#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The --html page in a real browser: Debian's headless Chromium renders it (network-isolated
# with `unshare -n` where the kernel allows it), and the test asserts what a reader would see:
# the screenshot is not blank, light and dark both paint, it prints, the DOM holds the tables and both
# plots, the console shows no error, and nothing was fetched. Debian's tidy checks the markup.
# Exit 77 (ctest: SKIPPED) with the reason when Chromium or tidy cannot run here.
# Usage: browser_test.sh PPSBENCH SOURCE-DIR
set -euo pipefail
ppsbench=$1 source_dir=$2
fixtures=$source_dir/tests/report/fixtures
lab=$source_dir/examples/lab/captures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -z "${PPSBENCH_KEEP_PAGE:-}" ] || trap - EXIT  # keep the page and screenshots to look at
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIPPED: $*"; exit 77; }

command -v tidy >/dev/null || skip "tidy is not installed (apt install tidy)"
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "Chromium is not installed (apt install chromium)"

# Simulated runs and a real kernel's capture (the QEMU lab's, with its fingerprint), so the
# page has plots, the configuration and the fingerprint's findings.
page=$work/page.html
"$ppsbench" compare --baseline "$fixtures/stock.csv" "$fixtures/rt.csv" "$fixtures/rt-nothread.csv" \
    "$lab/rt-threaded.pps-b.csv" --html "$page" >/dev/null

# Markup: tidy's exit status is 2 for errors (1 is warnings only, also reported).
set +e
tidy -q -e "$page" >"$work/tidy.txt" 2>&1
tidy_status=$?
set -e
[ "$tidy_status" -lt 2 ] || fail "tidy found errors: $(head -5 "$work/tidy.txt")"
[ "$tidy_status" -eq 0 ] || echo "note: tidy warnings: $(head -5 "$work/tidy.txt")"

# Self-contained: no URL to fetch, no script, no external stylesheet or image.
if grep -Eiq 'https?://|<script|<link |<img |@import|url\((["'"'"'])?[a-z]+:' "$page"; then
    fail "the page refers to something outside itself: $(grep -Eio 'https?://[^" ]*|<script|<link |<img |@import' "$page" | head -3)"
fi

# Chromium as root needs --no-sandbox; without a network namespace nothing can be fetched even
# if the page asked. Crashpad and D-Bus complaints are the sandbox's, not the page's.
isolate=()
if unshare -n true 2>/dev/null; then
    isolate=(unshare -n)
else
    echo "note: unshare -n is not permitted here; the page is checked for URLs by grep only"
fi
chrome() {
    timeout 90 "${isolate[@]}" "$browser" --headless --no-sandbox --disable-gpu \
        --no-first-run --disable-extensions --enable-logging=stderr --v=0 \
        --user-data-dir="$work/profile" "$@"
}
if ! chrome --dump-dom "file://$page" >"$work/dom.html" 2>"$work/dom.log"; then
    skip "Chromium cannot run here: $(grep -v 'dbus\|bus.cc' "$work/dom.log" | tail -1)"
fi
[ -s "$work/dom.html" ] || skip "Chromium printed no DOM: $(tail -1 "$work/dom.log")"

# The DOM as the browser built it: both tables' header cells, both plots with their titles.
grep -q '<table>' "$work/dom.html" || fail "no table in the DOM"
grep -q '<th scope="col">raw PPS jitter (σ)</th>' "$work/dom.html" || fail "no σ column header"
grep -q '<th scope="row">PREEMPT_RT (simulated)</th>' "$work/dom.html" || fail "no run row header"
svgs=$(grep -o '<svg ' "$work/dom.html" | wc -l)
[ "$svgs" -eq 2 ] || fail "expected 2 inline plots, the DOM has $svgs"
grep -q '<title>PPS phase offset by run' "$work/dom.html" || fail "the offset plot has no <title>"
grep -q '<title>Stability of the PPS phase' "$work/dom.html" || fail "σ(τ) has no <title>"
grep -q 'PREEMPT_RT</td>\|<td>yes</td>' "$work/dom.html" || fail "no PREEMPT_RT in the configuration"
grep -q 'irq/24-pps-gpio-lab' "$work/dom.html" || fail "the lab run's IRQ thread is not among the findings"
# Console messages reach stderr as "CONSOLE(…)" lines; a failed fetch as "Failed to load".
if grep -Ei 'CONSOLE|Uncaught|Failed to load|net::ERR' "$work/dom.log"; then
    fail "the browser console reported the lines above"
fi

# Screenshots, light and dark: not one colour, and the background follows the scheme.
shot() {  # OUT.png [FLAGS...]
    local out=$1
    shift
    chrome --window-size=1200,2400 --hide-scrollbars "$@" --screenshot="$out" "file://$page" \
        >/dev/null 2>"$out.log" || fail "screenshot $out: $(tail -1 "$out.log")"
}
shot "$work/light.png"
shot "$work/dark.png" --force-dark-mode --blink-settings=preferredColorScheme=0
python3 - "$work/light.png" "$work/dark.png" <<'PY' || failures=$((failures + 1))
import struct, sys, zlib

def pixels(path):
    """RGB(A) rows of an 8-bit, non-interlaced PNG (what Chromium writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unexpected PNG {header}"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return rows

ok = True
for path, want_dark in ((sys.argv[1], False), (sys.argv[2], True)):
    rows = pixels(path)
    background = rows[5][5]
    flat = [p for row in rows[::4] for p in row[::4]]
    colours = len(set(flat))
    ink = sum(1 for p in flat if p != background) / len(flat)
    luminance = sum(background) / 3
    print(f"{path}: background {background}, {colours} colours, {ink:.1%} painted")
    if colours < 16 or ink < 0.02:
        print(f"FAIL: {path} is blank or nearly so"); ok = False
    if want_dark != (luminance < 80):
        print(f"FAIL: {path}: background {background} is not {'dark' if want_dark else 'light'}"); ok = False
    # Some run colour must be on the page: the plots drew (Okabe–Ito orange, #D55E00).
    if not any(abs(p[0] - 0xD5) < 24 and abs(p[1] - 0x5E) < 24 and p[2] < 40 for p in flat):
        print(f"FAIL: {path}: no plot colour drawn"); ok = False
sys.exit(0 if ok else 1)
PY

# Print: Chromium lays the page out for paper (@media print) and writes a PDF of it.
chrome --print-to-pdf="$work/page.pdf" --no-pdf-header-footer "file://$page" >/dev/null \
    2>"$work/pdf.log" || fail "print to PDF: $(tail -1 "$work/pdf.log")"
if [ "$(head -c 4 "$work/page.pdf" 2>/dev/null)" != "%PDF" ] ||
    [ "$(grep -ac '/Type /Page\b' "$work/page.pdf")" -lt 2 ]; then
    fail "the printed page is not a PDF of at least two pages"
fi

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "browser_test: the page renders, light and dark, with its tables and plots, nothing fetched"
