"""How fast the exports run (issues 23 and 33): the SQL of a full model of ~3,000 rules and 45
labels, and of genbase's full model (1,185 features), in SQLite and DuckDB on 2,500 rows; the
Python export at 50 rules and for a full model on yeast (103 features) and genbase (1,185
features: the width the Python export must not pay for); each checked against ``predict`` on
every row. The SQL is a script (the model's numbers and the rows' values into temporary
tables, then one query), written for SQLite (the default) and for DuckDB (`engine="duckdb"`: no
indexes); SQLite's runs in both, DuckDB's in DuckDB. DuckDB runs a script in one call, SQLite
statement by statement. Genbase
has 662 rows: its SQL runs on them repeated to 2,500 (row i is genbase's row i mod 662).

Each SQL engine runs in a fresh Python process that loads only the engine and the rows: its wall
and CPU time for the script (CPU summed over DuckDB's threads), the process's resident memory
before the script (Python, pandas, the engine and its copy of the rows: the pandas frame they
came in is dropped, as it is no part of the export's cost) and its peak (``VmHWM``). The
Python export runs in this process, in plain CPython (the exported module imports nothing).
The machine is shared: CPU time is the steadier figure.

    PYTHONPATH=$PWD python benchmarks/export_speed.py > docs/export_speed.md
    python benchmarks/export_speed.py --quick   # SQL on 300 rows (a cube of 10 labels),
                                                # Python on 300 rows: a check that it runs
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mlr_core import MLRClassifier, load_dataset, make_hypercube_dataset
from mlr_core.compaction import compact
from mlr_core.export import ENGINES, python_labels, sql_statements, to_python

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"

RUN_SQL = r"""
import gc, json, sys, time
import numpy as np, pandas as pd
engine, folder, written_for = sys.argv[1:4]
def memory(field):  # MB; VmHWM is the peak since exec (ru_maxrss would include the parent's)
    status = open("/proc/self/status").read().split("\n")
    return int(next(line for line in status if line.startswith(field)).split()[1]) / 1024
frame = pd.read_pickle(f"{folder}/rows.pkl")
statements = json.load(open(f"{folder}/model-{written_for}.json"))
if engine == "sqlite":
    import sqlite3
    db = sqlite3.connect(":memory:")
    frame.to_sql("data", db, index=False)
    version = sqlite3.sqlite_version
else:
    import duckdb
    db = duckdb.connect()
    db.execute("SET enable_progress_bar = false")
    db.register("frame", frame)
    db.execute("CREATE TABLE data AS SELECT * FROM frame")
    db.unregister("frame")  # the table is DuckDB's own copy: pandas' is not the export's cost
    version = duckdb.__version__
del frame
gc.collect()
before = memory("VmRSS")
wall, cpu = time.perf_counter(), time.process_time()
if engine == "sqlite":  # Python's sqlite3 takes one statement per execute
    db.executescript("\n".join(statements[:-1]))
    rows = db.execute(statements[-1]).fetchall()
else:  # the whole script, as a file is run
    rows = db.execute("\n".join(statements)).fetchall()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
np.save(f"{folder}/{engine}.npy", np.array([row[1:] for row in rows], dtype=np.uint8))
print(json.dumps({"version": version, "wall": wall, "cpu": cpu, "before_mb": before,
                  "peak_mb": memory("VmHWM")}))
"""


def sql_figures(model, X, folder: Path) -> list[str]:
    """Run the model's SQL on X in each engine; a table row per engine."""
    frame = pd.DataFrame(X, columns=model.feature_names_)
    frame.insert(0, "row_id", np.arange(len(X)))
    frame.to_pickle(folder / "rows.pkl")
    sizes = []
    for written_for in ENGINES:
        statements = sql_statements(model.rule_set_, "data", engine=written_for)
        (folder / f"model-{written_for}.json").write_text(json.dumps(statements))
        sql = "\n".join(statements)
        sizes.append(f"{written_for}'s {len(sql) / 1e6:.2f} MB")
    expected = model.predict(X).astype(np.uint8)
    lines = []
    # SQLite's script (the default) in both engines, DuckDB's in DuckDB
    for written_for, engine in (("sqlite", "sqlite"), ("sqlite", "duckdb"), ("duckdb", "duckdb")):
        out = subprocess.run([sys.executable, "-c", RUN_SQL, engine, str(folder), written_for],
                             stdout=subprocess.PIPE, text=True, check=True)
        got = json.loads(out.stdout)
        same = np.array_equal(np.load(folder / f"{engine}.npy"), expected)
        lines.append(f"| {engine} {got['version']} | {written_for} | {len(X):,} | "
                     f"{got['wall']:.2f} | {got['cpu']:.2f} | {got['before_mb']:.0f} | "
                     f"{got['peak_mb']:.0f} | {same} |")
    return [f"SQL text: {', '.join(sizes)}.", "",
            "| engine | script for | rows | wall s | CPU s | MB before | MB peak | "
            "labels = predict |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |", *lines]


def python_figures(model, X, what: str) -> str:
    source = to_python(model.rule_set_)
    namespace: dict = {}
    exec(compile(source, "<export>", "exec"), namespace)
    rows = [dict(zip(model.feature_names_, map(float, x), strict=True)) for x in X]
    predict = namespace["predict"]
    wall, cpu = time.perf_counter(), time.process_time()
    for row in rows:
        predict(row)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    same = np.array_equal(python_labels(source, X, model.feature_names_),
                          model.predict(X).astype(np.uint8))
    return (f"| {what} | {len(model.feature_names_):,} | {len(namespace['TESTED']):,} | "
            f"{model.rule_set_.rule_count:,} | {len(X):,} | {len(X) / cpu:,.0f} | "
            f"{len(X) / wall:,.0f} | {same} |")


def fitted(name: str, share: float):
    """(the dataset, ``MLRClassifier(random_state=0)`` fitted on its first ``share`` of rows)."""
    data = load_dataset(DATA / f"{name}.arff")
    train = int(len(data.X) * share)
    return data, MLRClassifier(random_state=0).fit(
        data.X[:train], data.Y[:train], feature_names=data.feature_names,
        label_names=data.label_names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="SQL on 300 rows (a cube of 10 labels), Python on 300 rows")
    quick = parser.parse_args().quick
    n, labels = (600, 10) if quick else (5000, 45)
    print("# Export speed\n")
    print(f"Made by `PYTHONPATH=$PWD python benchmarks/export_speed.py{' --quick' * quick}` (its "
          f"docstring says how it measures); load average {os.getloadavg()[0]:.1f} at the start "
          f"on {os.cpu_count()} cores.\n")
    cube = make_hypercube_dataset(n_samples=n, n_relevant=8, n_labels=labels, n_irrelevant=40,
                                  random_state=0)
    full = MLRClassifier(random_state=0).fit(cube.X[:n // 2], cube.Y[:n // 2])
    print(f"## SQL: a full model of {full.rule_set_.rule_count:,} rules and "
          f"{len(full.label_names_)} labels\n")
    print(f"`make_hypercube_dataset(n_samples={n}, n_relevant=8, n_labels={labels}, "
          "n_irrelevant=40, random_state=0)`, `MLRClassifier(random_state=0)` fitted on the "
          f"first {n // 2:,} rows, its SQL run on the other {n // 2:,}.\n")
    with tempfile.TemporaryDirectory() as folder:
        print("\n".join(sql_figures(full, cube.X[n // 2:], Path(folder))))
    yeast, yeast_full = fitted("yeast", 0.5)
    genbase, genbase_full = fitted("genbase", 0.7)
    wide_rows = genbase.X[np.arange(n // 2) % len(genbase.X)]
    print(f"\n## SQL: genbase's full model, {genbase_full.rule_set_.rule_count:,} rules on "
          f"{len(genbase.feature_names):,} features and {len(genbase.label_names)} labels\n")
    print("`MLRClassifier(random_state=0)` fitted on genbase's first 70% of rows, its SQL run on "
          f"genbase's {len(genbase.X)} rows repeated to {len(wide_rows):,}.\n")
    with tempfile.TemporaryDirectory() as folder:
        print("\n".join(sql_figures(genbase_full, wide_rows, Path(folder))))
    print("\n## Python: `MLRClassifier(random_state=0)` fitted on yeast's first half and on "
          "genbase's first 70%, and `compact(model, 50)`; `predict(row)` on "
          f"{'the first 300 rows' if quick else 'every row'} of the dataset\n")
    print("| model | features | tested | rules | rows | rows/s (CPU) | rows/s (wall) | "
          "labels = predict |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, data, model in (("yeast", yeast, yeast_full), ("genbase", genbase, genbase_full)):
        rows = data.X[:300] if quick else data.X
        print(python_figures(compact(model, 50), rows, f"{name} compact(50)"))
        print(python_figures(model, rows, f"{name} full"))


if __name__ == "__main__":
    main()
