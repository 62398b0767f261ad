"""What a live page draws in the browser while its tab trains: charts drawn per second.

    python benchmarks/live_pages.py                       # one tab: Population, Rules, Train
    python benchmarks/live_pages.py --tabs 6 --browser-nice 19 --pages Population

The tabs open the app on the sample and press Start (as ``classroom.py`` does); then, page by
page, every tab opens the page and, once each has answered, the benchmark watches them for
``--seconds``: per tab, the plotly charts its browser drew from scratch per second (Streamlit
mounts a new chart for every changed figure; a figure sent again unchanged is not redrawn); for
all of them, the CPU used by the server and by the browser's processes, in shares of a core.
Then what one drawing holds: per chart its traces, plotted points and SVG nodes, and the page's
DOM elements. CPU shares are what to compare on a shared machine: wall times move with the
load (printed beside).
"""

from __future__ import annotations

import argparse
import os
import time

from classroom import TEACHER, cpu_shares, load, peak_rss_mb, served, shares_text, start_class

#: Counts in the page every plotly chart drawn from scratch (its ``svg-container`` created).
COUNT_DRAWS = """
window.__mlrDraws = 0;
const seen = new WeakSet();
new MutationObserver(records => {
  for (const r of records) for (const n of r.addedNodes)
    if (n.nodeType === 1)
      for (const c of [n, ...n.querySelectorAll('.svg-container')])
        if (c.matches('.svg-container') && !seen.has(c)) {
          seen.add(c);
          window.__mlrDraws += 1;
        }
}).observe(document, {childList: true, subtree: true});
"""
#: What the page's charts hold: per chart, its traces and plotted values; and the DOM's size.
CONTENT = """() => {
  const charts = [...document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')];
  return {
    charts: charts.map(g => ({traces: g.data.length,
                              values: g.calcdata.reduce((s, t) => s + t.length, 0),
                              svg: g.querySelectorAll('path, text, rect').length})),
    elements: document.querySelectorAll('*').length,
  };
}"""


def draws(tab) -> int:
    return tab.page.evaluate("window.__mlrDraws")


def watch(tabs: list, title: str, pid: int, seconds: float) -> None:
    for tab in tabs:
        tab.open(title)
    print(f"{title}: opened in " + ", ".join(f"{t.clicks[-1].seconds:.2f}" for t in tabs)
          + f" s (load {load():.2f})")
    before = [draws(tab) for tab in tabs]
    with cpu_shares(pid) as shares:
        time.sleep(seconds)
    spent = shares["seconds"]
    drawn = [(draws(tab) - old) / spent for tab, old in zip(tabs, before, strict=True)]
    print("  charts drawn from scratch per second, per tab: "
          + ", ".join(f"{d:.2f}" for d in drawn))
    content = tabs[0].page.evaluate(CONTENT)
    print("  one redraw holds: " + "; ".join(
        f"chart {i + 1}: {c['traces']} traces, {c['values']:,} values, {c['svg']:,} SVG nodes"
        for i, c in enumerate(content["charts"])) + f"; {content['elements']:,} DOM elements")
    print(f"  CPU over {spent:.0f} s: {shares_text(shares)} of a core (load {load():.2f})",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=1)
    parser.add_argument("--pages", nargs="+", default=TEACHER[:2] + TEACHER[3:],
                        help="pages to watch, in turn (default: Population, Rules, Train)")
    parser.add_argument("--seconds", type=float, default=20.0, help="watched per page")
    parser.add_argument("--warm", type=float, default=10.0,
                        help="seconds of training before the first page")
    parser.add_argument("--browser-nice", type=int, metavar="N",
                        help="the browser's processes at nice N")
    args = parser.parse_args()
    args.renice = False
    with served() as (process, url, browser, _):
        tabs = start_class(browser, url, process.pid, args)
        for tab in tabs:
            tab.page.evaluate(COUNT_DRAWS)
        for title in args.pages:
            watch(tabs, title, process.pid, args.seconds)
        print(f"server peak RSS {peak_rss_mb(process.pid):.0f} MB; load average now "
              f"{', '.join(f'{v:.2f}' for v in os.getloadavg())}")

if __name__ == "__main__":
    main()
