"""Every script in ``benchmarks/`` runs in its quick mode and prints its figures.

Benchmarks are part of the product: a README figure has to be reproducible by its command. Each
script runs here in a fresh interpreter, as a user would start it, on its smallest setting; a
benchmark whose contenders need an optional package (XCSF, scikit-eLCS, mlrl-boomer) still runs
its MLR part without it. What each prints is checked for the line that carries its figures, not
for the figures themselves (speed is measured by the benchmarks, never asserted by tests).
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"

QUICK = {
    "audit_figures.py": (["--quick"], "| hypercube_2d | agg |"),
    "bench_dashboard.py": (["--repeats", "1", "--only", "rectangles", "--only", "tick",
                            "--only", "first-answer", "--only", "draw", "--only", "clicks"],
                           "MLR Studio, after `streamlit run`"),
    "bench_engine.py": (["--quick"], "ours predict, 10,000 yeast rows"),
    "boomer_stand_ins.py": (["--datasets", "sparse-12", "--folds", "1"],
                            "## accuracy (higher is better; ranks among the full models)"),
    "classroom.py": (["--tabs", "2", "--rounds", "1", "--warm", "1", "--read", "0.2"],
                     "errors: 0 in the tabs, 0 in the server log"),
    "bench_load.py": (["--repeat", "1"], "all five (best wall)"),
    "compact.py": (["--datasets", "flags", "--folds", "1"], "## MLR-k against BOOMER-k"),
    "cut_plateau.py": (["--datasets", "flags", "--tolerances", "8"], "5 fits in"),
    "dashboard_sparse.py": (["--rows", "300", "--features", "2000", "--density", "0.01",
                             "--iterations", "200"], "| sparse | csr_matrix |"),
    "field.py": (["--configs", "MLR defaults", "--datasets", "flags", "--sparse", "--heavy"],
                 "## The five: average rank among 10 learners"),
    "field_seeds.py": (["--seeds", "0", "1", "--datasets", "flags"],
                       "| rank of the measures' means over the seeds |"),
    "export_speed.py": (["--quick"], "## SQL: a full model of"),
    "fit_time.py": (["--quick", "--base", "{repo}"], "**Against the base checkout** (1 fits)"),
    "iteration_curve.py": (["--quick"], "| flags | 0 | 4,000 |"),
    "many_labels.py": (["--rows", "20", "--labels", "300"], "calibrate"),
    "missing_values.py": (["--datasets", "flags", "--folds", "0", "--learners", "MLR native",
                           "MLR imputed"], "| flags | "),
    "nominal_features.py": (["--quick"], "| categories | mean |"),
    "monotone_maps.py": (["--datasets", "flags", "--axes", "rank"], "| flags | 0 | rank | exp |"),
    "other_domains.py": (["--quick"], "## hamming_loss"),
    "profile_fit.py": (["--quick"], "cycle: matching"),
    "paper_tables.py": (["--datasets", "flags", "--folds", "2", "--out", "{tmp}"],
                        "CSVs in"),
    "reproduce_paper.py": (["--quick", "--parts", "theory", "--out", "{tmp}/results"],
                           "theory:"),
    "sparse_input.py": (["--quick"], "sparse / dense fit time:"),
    "live_pages.py": (["--pages", "Population", "--seconds", "2", "--warm", "1"],
                      "server peak RSS"),
    "versions_ab.py": (["this={repo}", "--dataset", "flags", "--n-rules", "100", "--n-iter",
                        "2000", "--rounds", "1"], "us/iteration of"),
    "under_load.py": (["--burners", "1", "--settle", "0", "--repeats", "1"], "burners stopped"),
    "screenshots.py": (["flags", "--iterations", "200", "--pages", "Train (live)", "Population",
                        "--out", "{tmp}"], "Population:"),
}
"""Per script: the arguments of its quick run (``{tmp}`` is a scratch folder, ``{repo}`` this
checkout) and a line its output must contain. ``reproduce_paper.py``'s ``render`` part is left
out: its PNG export needs kaleido, which docs/figures.md asks for separately."""


def test_every_benchmark_has_a_quick_run():
    assert sorted(QUICK) == sorted(p.name for p in BENCHMARKS.glob("*.py"))


def run(script: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """``python benchmarks/<script> args`` as a user starts it, in ``tmp_path``; it must end
    well."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO),
                                                        os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


@pytest.mark.timeout(300)
@pytest.mark.parametrize("script", sorted(QUICK))
def test_benchmark_runs_quick(script, tmp_path, shared_datasets_dir):
    args, expected = QUICK[script]
    proc = run(script, [a.format(tmp=tmp_path, repo=REPO) for a in args], tmp_path)
    assert expected in proc.stdout, proc.stdout[-3000:]


@pytest.mark.timeout(300)
def test_under_load_times_the_floor_of_a_click(tmp_path):
    """``--click-floor``: the bare app's button, clicked idle, under the burners and idle
    again, is the floor that Compact and audit's "within 2x its idle time" is read against."""
    proc = run("under_load.py", ["--click-floor", "--burners", "1", "--settle", "0",
                                 "--repeats", "1"], tmp_path)
    assert proc.stdout.count("  bare click: ") == 3, proc.stdout[-3000:]
    assert "x idle" in proc.stdout.splitlines()[-1], proc.stdout[-3000:]


def shop_csv(n: int = 200, seed: int = 0) -> str:
    """A table a shop keeps: a colour (text, as a CSV holds a category), an amount, and two
    labels (``label:`` columns) planted on them."""
    rng = np.random.default_rng(seed)
    colour = rng.choice(["red", "ochre", "blue"], n)
    amount = np.round(np.exp(rng.normal(3.0, 1.0, n)), 2)
    rows = [f"{c},{a},{int(c != 'blue')},{int(a > 20)}" for c, a in zip(colour, amount,
                                                                        strict=True)]
    return "\n".join(["colour,amount,label:warm,label:dear", *rows]) + "\n"


@pytest.mark.timeout(300)
def test_screenshots_take_a_csv_of_the_data_folder(tmp_path):
    """The Data page lists a CSV beside the ARFF files: the script finds it by its name too
    (it waited for ``shop.arff`` until it timed out)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "shop.csv").write_text(shop_csv())
    proc = run("screenshots.py", ["shop", "--data-dir", str(data), "--iterations", "200",
                                  "--pages", "Population", "--out", str(tmp_path)], tmp_path)
    assert "shop: trained to iteration 200" in proc.stdout, proc.stdout[-3000:]
    assert (tmp_path / "shop-population.png").stat().st_size > 0
