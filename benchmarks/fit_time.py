"""Fit time of MLR's defaults against BOOMER's, measured in one run on the same folds (issues
18 and 22).

    python benchmarks/fit_time.py                         # fold 0 of the 8 datasets, 3 rounds
    python benchmarks/fit_time.py --datasets slashdot ohsumed mediamill --rounds 1
    python benchmarks/fit_time.py --folds 0 1 --rounds 5 --out docs/fit_time.md
    python benchmarks/fit_time.py --quick                 # flags, fold 0, one round
    python benchmarks/fit_time.py --base ../wt-old        # MLR against another checkout's too

For each dataset and fold the training part (``../shared/field/folds``, features min-max scaled
on it, as the field's peers were run; features constant on it dropped, see below) is fitted by
``MLRClassifier(random_state=0)`` and by
mlr-boomer's ``BoomerClassifier`` with its defaults (``random_state=1``, its default seed, as in
``mlr_core/evaluation/learners.py``), each in a fresh process, after a throw-away fit that loads
the libraries and compiled code, so only ``fit`` is timed. The two alternate, round after round,
so that both see the same load on a shared machine; the table shows the median wall-clock
seconds of the rounds (CPU seconds beside them) and the ratio MLR / BOOMER, then the sums and
the targets for the five paper datasets and for the scale panel (``field.py``'s `FIVE` and
`SCALE`) apart.

Constant features are dropped for both learners because mlr-boomer 0.12.3 learns nothing but its
default rule when they are there: on genbase (1,073 of its 1,185 features are constant) it fits
2 rules in 0.01 s and predicts no label, 1,000 rules without them. They carry no information for
either learner (a rule's interval on such a feature matches every row).

mlr-boomer pins an older scikit-learn than this project, so it lives in its own environment:
``--boomer-python`` (default ``../boomer-venv/bin/python`` beside the repository, made with
``python -m venv ../boomer-venv && ../boomer-venv/bin/pip install mlrl-boomer``). Without it,
MLR's times are printed alone.

``--base CHECKOUT`` times that checkout's ``MLRClassifier(random_state=0)`` too ("MLR base", in
the same alternating rounds, each fit in a fresh process started in that checkout), with the
ratio MLR / MLR base per fold: whether a change made fitting slower, on every dataset at once.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from field import FIELD, FIVE, SCALE, load

REPO = Path(__file__).resolve().parents[1]
DATASETS = FIVE + SCALE
DEFAULT_BOOMER_PYTHON = REPO.parent / "boomer-venv" / "bin" / "python"
RESULT_TAG = "FIT-TIME "
NOTES = "\n<!-- notes: written by hand, kept when the tables above are regenerated -->\n"

WORKER = """
import json, sys, time
import numpy as np
data = np.load(sys.argv[1])
X, Y = data["X"], data["Y"]
{make}
model(X[:60], Y[:60])  # load the libraries and compiled code; not timed
wall, cpu = time.perf_counter(), time.process_time()
fitted = model(X, Y)
print("{tag}" + json.dumps({{"wall": time.perf_counter() - wall,
                             "cpu": time.process_time() - cpu, "extra": {extra}}}))
"""
MLR_MAKER = ("from mlr_core import MLRClassifier\n"
             "def model(X, Y):\n    return MLRClassifier(random_state=0).fit(X, Y)",
             "int(fitted.n_iter_)")
MAKERS = {
    "MLR": MLR_MAKER,
    "MLR base": MLR_MAKER,
    "BOOMER": ("from mlrl.boosting import BoomerClassifier\n"
               "def model(X, Y):\n    return BoomerClassifier(random_state=1).fit(X, Y)",
               "None"),
}
"""Per learner: the code that defines ``model(X, Y)`` (a fitted default model) and what else
its worker reports (MLR: the iterations its stopping rule ran)."""


def fold_files(names, folds, folder):
    """One ``.npz`` per (dataset, fold): the training part, min-max scaled on itself, without
    the features constant on it."""
    from mlr_core.evaluation.folds import read_fold_file

    paths = {}
    for name in names:
        data = load(name)
        splits = read_fold_file(FIELD / "folds" / f"{name}.json", data.Y)
        for k in folds:
            X, Y = data.X[splits[k][0]], data.Y[splits[k][0]]
            low, span = X.min(axis=0), np.ptp(X, axis=0)
            varying = span > 0
            X = (X[:, varying] - low[varying]) / span[varying]
            paths[name, k] = Path(folder) / f"{name}-{k}.npz"
            np.savez(paths[name, k], X=X, Y=np.asarray(Y, dtype=np.uint8))
    return paths


def time_fit(python, learner, path, checkout=REPO):
    """(wall seconds, CPU seconds, extra) of one fit in a fresh process (its ``mlr_core`` that
    of ``checkout``), or an error text."""
    make, extra = MAKERS[learner]
    code = WORKER.format(make=make, extra=extra, tag=RESULT_TAG)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([str(python), "-c", code, str(path)], capture_output=True, text=True,
                          env=env, cwd=checkout)  # python -c puts its folder first
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_TAG):
            result = json.loads(line[len(RESULT_TAG):])
            return result["wall"], result["cpu"], result["extra"]
    return (proc.stderr.strip().splitlines() or ["no output"])[-1]


def report(times, names, folds, rounds, loads, boomer_python):
    """The Markdown report: per dataset and fold, the median seconds of each learner and the
    ratio; then, for the five and the scale panel apart, the sums and the verdict on the
    issues' targets."""
    learners = [who for who in MAKERS if any(key[2] == who for key in times)]
    both = "BOOMER" in learners
    against = [other for other in ("BOOMER", "MLR base") if other in learners]
    lines = [
        "# Fit time: MLR's defaults against BOOMER's",
        f"Command: `python benchmarks/fit_time.py` ({rounds} rounds, folds "
        f"{', '.join(map(str, folds))}; load average {min(loads):.1f} to {max(loads):.1f} "
        f"on {os.cpu_count()} CPUs while it ran). Median wall-clock seconds of `fit` over the "
        "rounds, each fit in a fresh process; CPU seconds of the process in brackets (BLAS and "
        "numba threads add up there).",
        "",
        "| dataset | fold | MLR iterations | "
        + " | ".join([*learners, *(f"MLR / {other}" for other in against)]) + " |",
        "|---|---|---|" + "---|" * (len(learners) + len(against)),
    ]
    wall, cpu = {}, {}
    for name in names:
        for k in folds:
            cells = []
            for who in learners:
                runs = times.get((name, k, who), [])
                if isinstance(runs, str):
                    cells.append(f"error: {runs}")
                    continue
                wall[name, k, who] = float(np.median([r[0] for r in runs]))
                cpu[name, k, who] = float(np.median([r[1] for r in runs]))
                cells.append(f"{wall[name, k, who]:.2f} ({cpu[name, k, who]:.2f})")
            mlr = times.get((name, k, "MLR"))
            iterations = f"{mlr[0][2]:,}" if isinstance(mlr, list) and mlr else "-"
            row = f"| {name} | {k} | {iterations} | " + " | ".join(cells)
            for other in against:
                pair = [wall.get((name, k, who)) for who in ("MLR", other)]
                row += f" | {pair[0] / pair[1]:.2f}x" if None not in pair else " | -"
            lines.append(row + " |")
    lines.append("")
    based = [(name, k) for name in names for k in folds
             if all((name, k, who) in wall for who in ("MLR", "MLR base"))]
    if based:
        ratios = {key: wall[(*key, "MLR")] / wall[(*key, "MLR base")] for key in based}
        worst = max(ratios, key=ratios.get)
        lines += [f"**Against the base checkout** ({len(based)} fits): MLR / MLR base from "
                  f"{min(ratios.values()):.2f}x to {ratios[worst]:.2f}x ({worst[0]}); no "
                  f"dataset above 1.25x: {verdict(ratios[worst] <= 1.25)}.", ""]
    if not both:
        lines.append(f"BOOMER not run: no Python at {boomer_python} that imports mlrl.boosting "
                     "(see the module docstring); MLR's times alone.")
    for title, panel in (("The five", FIVE), ("The scale panel", SCALE)):
        keys = [(name, k) for name in names if name in panel for k in folds]
        timed = [key for key in keys if all((*key, who) in wall for who in learners)]
        if not timed:
            continue
        sums = {who: sum(wall[(*key, who)] for key in timed) for who in learners}
        text = (f"**{title}** ({len(timed)} of {len(keys)} fits timed by all): sum "
                + ", ".join(f"{who} {sums[who]:.2f} s" for who in learners))
        if both:
            ratios = [wall[(*key, "MLR")] / wall[(*key, "BOOMER")] for key in timed]
            faster, worst = sum(r < 1 for r in ratios), max(ratios)
            total = sums["MLR"] / sums["BOOMER"]
            on_cpu = (sum(cpu[(*key, "MLR")] for key in timed)
                      / sum(cpu[(*key, "BOOMER")] for key in timed))
            text += (f", MLR / BOOMER {total:.2f}x (CPU seconds: {on_cpu:.2f}x); worst "
                     f"{worst:.2f}x. Targets (wall): ")
            if panel == FIVE:
                text += (f"issue 22: faster on at least 3 of 5: {faster} of {len(timed)} "
                         f"({verdict(faster >= 3)}); issue 18: faster on the sum "
                         f"({verdict(total < 1)}), no dataset above 3x ({verdict(worst <= 3)}).")
            else:
                text += (f"issue 22: sum at most 0.75x BOOMER's ({verdict(total <= 0.75)}), "
                         f"no dataset above 2x ({verdict(worst <= 2)}).")
        lines += [text, ""]
    return "\n".join(lines)


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def boomer_available(python) -> bool:
    if not Path(python).is_file():
        return False
    probe = subprocess.run([str(python), "-c", "import mlrl.boosting"], capture_output=True)
    return probe.returncode == 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--folds", nargs="+", type=int, default=[0])
    parser.add_argument("--rounds", type=int, default=3, help="fits per learner and fold")
    parser.add_argument("--boomer-python", type=Path, default=DEFAULT_BOOMER_PYTHON)
    parser.add_argument("--out", type=Path, default=None, help="also write the report here")
    parser.add_argument("--quick", action="store_true", help="flags, fold 0, one round")
    parser.add_argument("--base", type=Path, default=None,
                        help="a checkout of this repository whose MLR is timed too")
    args = parser.parse_args(argv)
    if args.quick:
        args.datasets, args.folds, args.rounds = ["flags"], [0], 1
    learners = (["MLR"] + (["MLR base"] if args.base else [])
                + (["BOOMER"] if boomer_available(args.boomer_python) else []))
    pythons = {"MLR": sys.executable, "MLR base": sys.executable, "BOOMER": args.boomer_python}
    checkouts = {"MLR base": args.base.resolve() if args.base else None}
    times, loads = {}, [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as folder:
        paths = fold_files(args.datasets, args.folds, folder)
        for round_ in range(args.rounds):
            for (name, k), path in paths.items():
                for who in learners:
                    result = time_fit(pythons[who], who, path, checkouts.get(who) or REPO)
                    loads.append(os.getloadavg()[0])
                    if isinstance(result, str):
                        times[name, k, who] = result
                        continue
                    runs = times.setdefault((name, k, who), [])
                    if isinstance(runs, list):
                        runs.append(result)
                    print(f"round {round_ + 1}: {name} fold {k} {who}: {result[0]:.2f} s wall, "
                          f"{result[1]:.2f} s CPU, load {loads[-1]:.1f}", flush=True)
    text = report(times, args.datasets, args.folds, args.rounds, loads, args.boomer_python)
    print(text)
    if args.out:  # keep the hand-written notes below NOTES in an existing report
        old = args.out.read_text() if args.out.is_file() else ""
        args.out.write_text(text + (NOTES + old.split(NOTES, 1)[1] if NOTES in old else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
