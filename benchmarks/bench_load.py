"""Load time of the five real datasets (issue 3: yeast well under 1 s, all five under 3 s).

    python benchmarks/bench_load.py                      # ../shared/datasets, best of 3
    python benchmarks/bench_load.py --repeat 5 --datasets /path/to/datasets

For each dataset it prints the first load (what a user waits for) and the best of ``--repeat``
loads, each a full ``load_dataset``: read the .arff and .xml, parse, decode nominals, validate; in
wall-clock time and in CPU time, which stays meaningful on a shared machine. The last column is
the CPU time of liac-arff's parse alone, because that is where the time goes: liac-arff converts
value by value in Python, and genbase has 1,185 nominal attributes (~800,000 values written
"NO, NO, ...", whose spaces also keep liac-arff off its csv-module fast path). Everything after
the parse is vectorised numpy and costs a fraction of it.
"""

import argparse
import time
from pathlib import Path

import arff

from mlr_core.data.loaders import load_dataset

NAMES = ("yeast", "emotions", "flags", "cal500", "genbase")
DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
BUDGET_S = 3.0


def timed(call) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call (CPU time barely moves when other jobs share the
    machine, wall time does)."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DIR, help="folder of the .arff")
    parser.add_argument("--repeat", type=int, default=3, help="loads per dataset (best is kept)")
    args = parser.parse_args()

    header = ("first wall", "best wall", "best CPU", "parse CPU")
    print(f"{'dataset':<10}" + "".join(f"{h:>12}" for h in header) + "   (seconds)")
    totals = [0.0] * len(header)
    for name in NAMES:
        path = args.datasets / f"{name}.arff"
        loads = [timed(lambda p=path: load_dataset(p)) for _ in range(args.repeat)]
        text = path.read_text()
        parse = min(timed(lambda t=text: arff.loads(t))[1] for _ in range(args.repeat))
        row = (loads[0][0], min(w for w, _ in loads), min(c for _, c in loads), parse)
        totals = [t + r for t, r in zip(totals, row, strict=True)]
        print(f"{name:<10}" + "".join(f"{v:>12.3f}" for v in row))
    print(f"{'total':<10}" + "".join(f"{v:>12.3f}" for v in totals))
    best = totals[1]
    verdict = "within" if best < BUDGET_S else "OVER"
    print(f"all five (best wall): {best:.2f} s, {verdict} the {BUDGET_S:.0f} s budget")


if __name__ == "__main__":
    main()
