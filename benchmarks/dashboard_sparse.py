"""The dashboard's peak memory on a sparse ARFF, kept sparse or read dense (issue 32, item 3).

    python benchmarks/dashboard_sparse.py                       # 20,000 x 20,000 at 0.2%
    python benchmarks/dashboard_sparse.py --rows 10000 --features 2000 --paths sparse dense

Writes a sparse ARFF of 0/1 words with its MULAN XML (``sparse_input.planted``: labels planted
on two words each) into a scratch data folder, then, for each path, in a fresh Python process:
starts the app under Streamlit's AppTest on that folder, loads the file from the Data page,
trains ``--iterations`` (the sidebar's Step), opens every page, traces an iteration on the
Microscope, fits the rule weights on Explain, and compacts and audits on Rules. Reported: the
process's peak resident memory (Linux VmHWM: data, model, numba, Streamlit) after the load,
after training and at the end, and the wall seconds. **sparse** is the dashboard as it is (the
file stays a CSR matrix, ``dashboard/sparse_features.py``); **dense** reads it dense as the
dashboard did before, with the loader's memory budget raised so that it may.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_arff(folder: Path, rows: int, features: int, density: float, labels: int,
               seed: int) -> Path:
    """``folder/words.arff`` (sparse format) and ``words.xml``."""
    from sparse_input import planted

    sys.path.insert(0, str(ROOT / "tests"))
    from sparse_mulan import write_sparse_mulan

    X, Y = planted(rows, features, density, labels, seed)
    return write_sparse_mulan(folder, "words", X, Y, [f"w{j}" for j in range(features)],
                              [f"topic{k}" for k in range(labels)], word_type="numeric")


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM: Linux only")


def one_path(path: str, iterations: int) -> dict:
    """The app on the data folder (``MLR_DATA_DIR``), one path; its peaks (run in its own
    process)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "dashboard")]
    from apptest import started
    from stepping import step

    from dashboard import data_folder
    from dashboard.page_registry import BY_NAME, PAGES
    from mlr_core import load_dataset

    if path == "dense":  # the dashboard before: every file read dense
        data_folder.load = lambda file: load_dataset(file, max_bytes=float("inf"))
    began = time.perf_counter()
    out = {"path": path}

    def checked(at, where):
        problems = [e.value for e in (*at.exception, *at.error)]
        if problems:
            raise RuntimeError(f"{where}: {problems}")
        return at

    at = started().switch_page(BY_NAME["data"].path).run()
    at.button(key="load_folder").click().run()
    checked(at, "load")
    session = at.session_state["session"]
    X = session.split.dataset.X
    out["X"] = type(X).__name__
    out["load_mb"] = peak_mb()
    at.number_input(key="step_k").set_value(iterations)
    step(at)
    out["train_mb"] = peak_mb()
    for page in PAGES:
        at = checked(at.switch_page(page.path).run(), page.name)
    at = at.switch_page(BY_NAME["microscope"].path).run()
    checked(at.button(key="trace").click().run(), "trace")
    at = at.switch_page(BY_NAME["explain"].path).run()
    checked(at.toggle(key="fitted_weights").set_value(True).run(), "explain, fitted")
    at = at.switch_page(BY_NAME["rules"].path).run()
    checked(at.button(key="run_audit").click().run(), "audit")
    out["end_mb"] = peak_mb()
    out["seconds"] = time.perf_counter() - began
    out["rules"] = len(session.snapshot().rules)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--features", type=int, default=20_000)
    parser.add_argument("--density", type=float, default=0.002)
    parser.add_argument("--labels", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--paths", nargs="+", default=["sparse"], choices=["sparse", "dense"])
    parser.add_argument("--one", choices=["sparse", "dense"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_path(args.one, args.iterations)))
        return
    with tempfile.TemporaryDirectory() as folder:
        arff = write_arff(Path(folder), args.rows, args.features, args.density, args.labels,
                          args.seed)
        dense_gb = args.rows * args.features * 8 / 1e9
        print(f"## {args.rows:,} x {args.features:,} at {args.density:.1%} ({dense_gb:.2f} GB "
              f"dense), {arff.stat().st_size / 1e6:.1f} MB sparse ARFF, {args.iterations:,} "
              f"iterations; load average {os.getloadavg()[0]:.1f}")
        print("| path | X | peak after load | after training | at the end | wall s | rules |")
        print("|---|---|---|---|---|---|---|")
        for path in args.paths:
            env = {**os.environ, "MLR_DATA_DIR": folder}
            run = subprocess.run([sys.executable, __file__, "--one", path, "--iterations",
                                  str(args.iterations)], env=env, capture_output=True,
                                 text=True, cwd=ROOT)
            if run.returncode:
                print(f"| {path} | failed: {run.stderr.strip().splitlines()[-1:]} |")
                continue
            r = json.loads(run.stdout.strip().splitlines()[-1])
            print(f"| {path} | {r['X']} | {r['load_mb']:,.0f} MB | {r['train_mb']:,.0f} MB | "
                  f"{r['end_mb']:,.0f} MB | {r['seconds']:,.0f} | {r['rules']:,} |")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
