"""The experiment runner never loses finished work: a run killed (SIGKILL, with two loky workers)
or stopped with Ctrl-C and then resumed writes the same tables as an uninterrupted run; its
workers do not outlive it; a folder holding results is added to (``--resume``) or refused, never
replaced; tables are replaced atomically. (Issue 16's sweep, runner cases.)"""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest

from mlr_core import make_hypercube_dataset
from mlr_core.evaluation import experiments
from mlr_core.evaluation import tables as result_tables
from mlr_core.evaluation.journal import JOURNAL

REPO = Path(__file__).resolve().parents[2]
LEARNERS = ["BR-LR", "LP-DT", "ECC-LR"]
TIMING = ["fit_seconds", "predict_seconds"]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """Three small datasets as CSV files and the arguments of a 27-fit sweep over them (without
    --out), with the tables of one uninterrupted run."""
    folder = tmp_path_factory.mktemp("sweep")
    paths = []
    for m in (3, 4, 5):
        data = make_hypercube_dataset(n_samples=150, n_labels=m, random_state=m, name=f"c{m}")
        data.to_frame().to_csv(folder / f"c{m}.csv", index=False)
        paths.append(str(folder / f"c{m}.csv"))
    args = ["--datasets", *paths, "--learners", *LEARNERS, "--folds", "3"]
    assert experiments.main([*args, "--out", str(folder / "reference")]) == 0
    return args, folder / "reference"


def tables(out: Path) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """What a run wrote, less the seconds (which differ from run to run)."""
    folds = pd.read_csv(out / "folds.csv").drop(columns=TIMING)
    means = pd.read_csv(out / "means.csv").drop(columns=TIMING)
    text = (out / "tables.md").read_text()
    return folds, means, text[: text.index("## Time")]


def assert_same_tables(out: Path, reference: Path) -> None:
    got, expected = tables(out), tables(reference)
    pd.testing.assert_frame_equal(got[0], expected[0])
    pd.testing.assert_frame_equal(got[1], expected[1])
    assert got[2] == expected[2]


def journal_rows(out: Path) -> int:
    path = out / JOURNAL
    return path.read_text().count("\n") if path.is_file() else 0


def test_killed_run_resumed_gives_the_same_tables_and_leaves_no_worker(sweep, tmp_path):
    args, reference = sweep
    out = tmp_path / "run"
    command = [sys.executable, "-m", "mlr_core.evaluation.experiments", *args, "--n-jobs", "2",
               "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while journal_rows(out) < 2:  # two fits done and saved
            assert process.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no fit finished in 5 minutes"
            time.sleep(0.02)
        workers = psutil.Process(process.pid).children(recursive=True)
        process.send_signal(signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    assert workers, "the run had no worker processes to check"
    _, alive = psutil.wait_procs(workers, timeout=15)
    for worker in alive:
        worker.kill()
    assert alive == [], f"{len(alive)} worker(s) outlived the killed run"
    saved = journal_rows(out)
    assert 2 <= saved < 27 and not (out / "folds.csv").exists()
    with pytest.raises(SystemExit, match="already holds results.*--resume"):
        experiments.main([*args, "--out", str(out)])
    assert experiments.main([*args, "--out", str(out), "--resume"]) == 0
    assert journal_rows(out) == 27
    assert_same_tables(out, reference)


def test_ctrl_c_keeps_the_finished_folds_and_resume_finishes(sweep, tmp_path, monkeypatch,
                                                            capsys):
    args, reference = sweep
    out = tmp_path / "run"
    run = experiments.run_experiment

    def interrupted_after_five(*positional, **keywords):
        progress = positional[6]

        def progress_then_ctrl_c(done, total, row):
            progress(done, total, row)
            if done == 5:
                raise KeyboardInterrupt

        return run(*positional[:6], progress_then_ctrl_c, *positional[7:], **keywords)

    monkeypatch.setattr(experiments, "run_experiment", interrupted_after_five)
    assert experiments.main([*args, "--out", str(out)]) == 130
    assert "the 5 finished fits are kept" in capsys.readouterr().out
    assert journal_rows(out) == 5 and not (out / "tables.md").exists()
    monkeypatch.setattr(experiments, "run_experiment", run)
    assert experiments.main([*args, "--out", str(out), "--resume"]) == 0
    printed = capsys.readouterr().out
    assert "22 fits" in printed and "(5 done before)" in printed and journal_rows(out) == 27
    assert_same_tables(out, reference)


def test_resume_adds_to_earlier_results_and_refuses_other_settings(sweep, tmp_path):
    args, reference = sweep
    out = tmp_path / "run"
    one = [a for a in args if a != "ECC-LR"]  # BR-LR and LP-DT first, ECC-LR added later
    assert experiments.main([*one, "--out", str(out)]) == 0
    first = pd.read_csv(out / "folds.csv")
    assert set(first.learner) == {"BR-LR", "LP-DT"}
    assert experiments.main([*args, "--out", str(out), "--resume"]) == 0
    assert_same_tables(out, reference)
    merged = pd.read_csv(out / "folds.csv")  # the earlier rows kept as they were, times included
    pd.testing.assert_frame_equal(merged[merged.learner != "ECC-LR"].reset_index(drop=True),
                                  first)
    with pytest.raises(SystemExit, match=r"made with --seed 0; resume with the settings"):
        experiments.main([*args, "--out", str(out), "--resume", "--seed", "1"])
    with pytest.raises(SystemExit, match=r"made on other folds \(or rows\)"):
        experiments.main([*args[:-1], "4", "--out", str(out), "--resume"])
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "folds.csv").write_text("learner,dataset,fold\n")
    with pytest.raises(SystemExit, match="no folds.jsonl to resume from"):
        experiments.main([*args, "--out", str(tmp_path / "old"), "--resume"])


def _set_field(**values):
    def edit(row):
        row.update(values)
    return edit


@pytest.mark.parametrize(("edit", "message"), [
    (_set_field(accuracy="not a number"), r"line 2 \('BR-LR' on 'c3'\): accuracy is 'not a "
                                          r"number', not a number"),
    (_set_field(fold=10**30), r"line 2 \('BR-LR' on 'c3'\): fold is 1000000000000000000000000"),
    (_set_field(learner=None), r"line 2 .*: learner is None, not text"),
    (_set_field(fold=7), r"result of BR-LR on c3 for fold 7, but its folds are 0 to 2"),
])
def test_a_tampered_journal_is_refused_naming_the_line_and_kept(sweep, tmp_path, capsys, edit,
                                                                message):
    """A journal row the runner never writes used to end --resume in a pandas traceback ("agg
    function failed"); it is refused, naming the file and the row, and the journal is left
    exactly as it was (a skip would have rewritten it without the row)."""
    import json

    args, _ = sweep
    one = ["--datasets", args[1], "--learners", "BR-LR", "--folds", "3"]
    out = tmp_path / "run"
    assert experiments.main([*one, "--out", str(out)]) == 0
    journal = out / JOURNAL
    rows = [json.loads(line) for line in journal.read_text().splitlines()]
    edit(rows[1])
    tampered = "".join(json.dumps(row) + "\n" for row in rows)
    journal.write_text(tampered)
    with pytest.raises(SystemExit) as stop:
        experiments.main([*one, "--out", str(out), "--resume"])
    said = f"{stop.value.code} {capsys.readouterr().err}"
    assert str(journal) in said and re.search(message, said), said
    assert journal.read_text() == tampered


def test_tables_are_replaced_whole_or_not_at_all(sweep, tmp_path, monkeypatch):
    _, reference = sweep
    results = pd.read_csv(reference / "folds.csv")
    result_tables.write_results(results, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def broken(*_, **__):
        raise RuntimeError("disk full, say")

    monkeypatch.setattr(result_tables, "statistics_text", broken)
    with pytest.raises(RuntimeError):
        result_tables.write_results(results.assign(hamming_loss=0.5), tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # and no temp file
