"""Load time of the five real datasets (issue 3: yeast well under 1 s, all five under 3 s), and
of the hostile files of issue 16 (time and memory growth).

    python benchmarks/bench_load.py                      # ../shared/datasets, best of 3
    python benchmarks/bench_load.py --repeat 5 --datasets /path/to/datasets
    python benchmarks/bench_load.py --hostile            # issue 16's files, one process each

For each dataset it prints the first load (what a user waits for) and the best of ``--repeat``
loads, each a full ``load_dataset``: read the .arff and .xml, parse, decode nominals, validate; in
wall-clock time and in CPU time, which stays meaningful on a shared machine. The last column is
the CPU time of liac-arff's parse alone, because that is where the time goes: liac-arff converts
value by value in Python, and genbase has 1,185 nominal attributes (~800,000 values written
"NO, NO, ...", whose spaces also keep liac-arff off its csv-module fast path). Everything after
the parse is vectorised numpy and costs a fraction of it.

``--hostile`` loads, each in a fresh process, the files of issue 16's sweep: a 0.34 MB sparse ARFF
declaring 8,000 x 10,000 cells (refused by the memory budget; it used to grow the process by
2.45 GB in 7 s), the same shape at 1,500 rows (within the budget), and a 2.3 MB CSV of 200,000
columns x 2 rows (63 s before; target under 2 s). It prints the seconds and the growth of the
process's peak resident memory (``ru_maxrss``) over what importing the loaders took.
"""

import argparse
import multiprocessing
import resource
import time
from pathlib import Path

import arff

from mlr_core.data.loaders import load_dataset, load_dataset_bytes
from mlr_core.errors import DatasetError

NAMES = ("yeast", "emotions", "flags", "cal500", "genbase")
DEFAULT_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
BUDGET_S = 3.0


def timed(call) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call (CPU time barely moves when other jobs share the
    machine, wall time does)."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def sparse_arff(n_attributes: int, n_rows: int) -> bytes:
    header = "".join(f"@attribute a{j} numeric\n" for j in range(n_attributes))
    return (f"@relation 'wide: -C 2'\n{header}@data\n" + "{0 1,2 0.5}\n" * n_rows).encode()


def wide_csv(n_columns: int) -> bytes:
    header = ",".join(f"f{j}" for j in range(n_columns)) + ",label:y"
    row = ",".join(["0.25"] * n_columns)
    return f"{header}\n{row},1\n{row},0\n".encode()


HOSTILE = {
    "sparse ARFF, 8,000 x 10,000": (lambda: sparse_arff(10_000, 8_000), "h.arff"),
    "sparse ARFF, 1,500 x 10,000": (lambda: sparse_arff(10_000, 1_500), "h.arff"),
    "CSV, 2 x 200,000 columns": (lambda: wide_csv(200_000), "h.csv"),
}


def _load_one(case: str, answer) -> None:
    make, filename = HOSTILE[case]
    data = make()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    try:
        outcome = "loaded {}x{}".format(*load_dataset_bytes(data, filename).X.shape)
    except DatasetError as err:
        outcome = f"refused: {str(err)[:70]}..."
    seconds = time.perf_counter() - start
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # KiB on Linux
    answer.put((len(data), seconds, growth, outcome))


def hostile() -> None:
    context = multiprocessing.get_context("spawn")  # a fresh process: ru_maxrss is a high mark
    print(f"{'file':<30}{'MB':>6}{'seconds':>9}{'peak RSS growth':>17}   outcome")
    for case in HOSTILE:
        answer = context.Queue()
        worker = context.Process(target=_load_one, args=(case, answer))
        worker.start()
        size, seconds, growth, outcome = answer.get()
        worker.join()
        print(f"{case:<30}{size / 1e6:>6.2f}{seconds:>9.2f}{growth / 1e6:>14.0f} MB   {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DIR, help="folder of the .arff")
    parser.add_argument("--repeat", type=int, default=3, help="loads per dataset (best is kept)")
    parser.add_argument("--hostile", action="store_true", help="issue 16's files instead")
    args = parser.parse_args()
    if args.hostile:
        hostile()
        return

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
