"""MLR Studio against a bare Streamlit app under a fixed CPU load, side by side in one run.

    python benchmarks/under_load.py                     # 3 burners: load about 4 on 2 cores
    python benchmarks/under_load.py --burners 3 --repeats 5
    python benchmarks/under_load.py --burners 3 -- benchmarks/classroom.py --tabs 1 --data yeast

Issue 34's target: under load 4 on 2 cores, the first chart after launch at most 1.5 times a
bare Streamlit app's (one title, one metric, one plotly chart: ``bench_dashboard.BARE_APP``),
and Compact and audit within twice its idle time. The load is made by ``--burners`` Python busy
loops at the default niceness (with the benchmark's own server and browser, 3 of them make a
1-minute load average of about 4 on an otherwise idle machine); they start ``--settle`` seconds
before the first measure, so that the load average has risen, and stop at the end. Both apps
are launched and timed by the same code (``bench_dashboard.bench_first_answer``: ``streamlit run``,
then Chromium until the first drawn chart), alternately, so that they see the same load. With
a command after ``--``, that script runs instead, under the same burners (e.g. the one-tab
classroom run, whose "Compact and audit" line is the second target). Every figure is printed
with the load average while it was taken.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from bench_dashboard import bench_first_answer

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def burners(count: int, settle: float):
    """``count`` busy loops for as long as the block lasts, after ``settle`` seconds."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(settle)
        yield
    finally:
        for loop in loops:
            loop.terminate()
        for loop in loops:
            loop.wait()


def load_text() -> str:
    return "load " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def first_charts(repeats: int) -> None:
    medians = bench_first_answer(repeats)
    ours, floor = medians["MLR Studio"][-1], medians["bare Streamlit app"][-1]
    print(f"first chart: MLR Studio {ours:.2f} s, {ours / floor:.2f} x the bare app's "
          f"{floor:.2f} s (target: at most 1.5 x); {load_text()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=3, help="busy loops making the load")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="seconds the burners run before the first measure")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("command", nargs="*", help="a script to run under the load instead")
    args = parser.parse_args()
    print(f"before the burners: {load_text()}")
    with burners(args.burners, args.settle):
        print(f"{args.burners} burners for {args.settle:.0f} s: {load_text()}", flush=True)
        if args.command:
            subprocess.run([sys.executable, *args.command], cwd=ROOT, check=True)
        else:
            first_charts(args.repeats)
    print(f"burners stopped: {load_text()}")


if __name__ == "__main__":
    main()
