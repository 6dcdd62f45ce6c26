// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the page's one stylesheet, inline so the page needs nothing else.

namespace ppsbench::render {

// Light by default, dark where the reader's system asks (prefers-color-scheme); the plots draw
// in currentColor and --bg (svg_embed.hpp), so they follow. In print: black on white, no
// background, tables and plots kept whole on a page.
inline constexpr const char* page_style = R"css(
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #5b5b5b;
  --rule: #c8c8c8; --head: #f0f0f0; --pass: #1a7f37; --fail: #c0362c; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --bg: #141414; --muted: #a8a8a8; --rule: #4a4a4a; --head: #242424;
    --pass: #57c27a; --fail: #ff7b72; }
}
html { color: var(--fg); background: var(--bg); }
body { font: 15px/1.45 "DejaVu Sans", Arial, sans-serif; max-width: 1100px; margin: 0 auto;
  padding: 1em 1.5em 3em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid var(--rule); padding-bottom: 0.2em;
  margin-top: 2em; }
.simulated { font-weight: bold; border: 2px solid var(--fail); padding: 0.4em 0.8em; }
.muted, figcaption, .notes { color: var(--muted); }
table { border-collapse: collapse; margin: 1em 0; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
th, td { border: 1px solid var(--rule); padding: 0.25em 0.6em; vertical-align: top; }
thead th { background: var(--head); }
td.number { text-align: right; white-space: nowrap; }
tbody th { text-align: left; font-weight: normal; }
.verdict { font-size: 1.3em; font-weight: bold; }
.pass { color: var(--pass); }
.fail { color: var(--fail); }
figure { margin: 1.5em 0; }
figure svg { width: 100%; height: auto; fill: currentColor; font: 12px "DejaVu Sans", Arial, sans-serif; }
sup a { text-decoration: none; }
@media print {
  :root { --fg: #000000; --bg: #ffffff; --muted: #333333; --rule: #999999; --head: #eeeeee; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  table, figure { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; }
}
)css";

}  // namespace ppsbench::render
