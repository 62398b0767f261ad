"""The experiment runner: no test row reaches fit, scaling uses the training fold only, fold files
are checked, results do not depend on the backend, and the writers lay tables out like the
paper's (see ``mlr_core/evaluation/experiments.py``)."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin

from mlr_core import make_hypercube_dataset
from mlr_core.data.loaders import Dataset
from mlr_core.errors import DatasetError, InputError
from mlr_core.evaluation import experiments
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.folds import label_sha256, read_fold_file, stratified_folds
from mlr_core.evaluation.learners import LabelPowerset
from mlr_core.evaluation.tables import REPORTED, mean_table, paper_layout, write_results

N_BITS = 9  # row ids up to 511 written as binary features
LOG = []  # (call, row ids, numeric features) of every Spy call: module-level, as clone() copies


class Spy(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Predicts all-zero labels and records in `LOG` the rows each call sees. Rows are identified
    by their features: ``id_data`` writes each row's number in binary columns, which the runner
    leaves unscaled (they are not numeric)."""

    def _ids(self, X):
        return frozenset(int(v) for v in np.asarray(X)[:, :N_BITS] @ (2 ** np.arange(N_BITS)))

    def fit(self, X, Y):
        LOG.append(("fit", self._ids(X), np.asarray(X)[:, N_BITS:].copy()))
        self.m_ = Y.shape[1]
        return self

    def predict(self, X):
        LOG.append(("predict", self._ids(X), None))
        return np.zeros((len(X), self.m_), dtype=np.uint8)

    def predict_proba(self, X):
        LOG.append(("predict_proba", self._ids(X), None))
        return np.zeros((len(X), self.m_))


def id_data(n=120, seed=0) -> Dataset:
    """Row i's id in N_BITS binary columns, then two numeric columns, three labels."""
    rng = np.random.default_rng(seed)
    bits = (np.arange(n)[:, None] >> np.arange(N_BITS)) & 1
    X = np.column_stack([bits, rng.normal(5, 3, (n, 2))])
    Y = (rng.random((n, 3)) < [0.5, 0.3, 0.2]).astype(np.uint8)
    Y[0] = 1  # no empty label column anywhere
    types = ["binary"] * N_BITS + ["numeric"] * 2
    return Dataset(X, Y, [f"f{j}" for j in range(X.shape[1])], ["a", "b", "c"], name="ids",
                   feature_types=types)


@pytest.fixture(scope="module")
def spy_log():
    LOG.clear()
    data = id_data()
    results = run_experiment({"spy": Spy()}, {"ids": data}, folds=4, n_jobs=1)
    return data, results, list(LOG)


def test_no_test_row_reaches_fit(spy_log):
    data, results, log = spy_log
    assert len(results) == 4
    fits = [i for i, (call, _, _) in enumerate(log) if call == "fit"]
    assert len(fits) == 4
    tested = []
    for start, end in zip(fits, [*fits[1:], len(log)], strict=True):
        train = log[start][1]
        test = frozenset().union(*(ids for _, ids, _ in log[start + 1:end]))
        assert test and not train & test
        assert train | test == set(range(data.n_samples))
        tested.append(test)
    assert sorted(i for t in tested for i in t) == list(range(data.n_samples))


def test_numeric_columns_are_scaled_on_the_training_fold_alone(spy_log):
    _, _, log = spy_log
    for call, _, numeric in log:
        if call == "fit":  # min 0 and max 1 exactly: the scaler saw these rows and no others
            assert numeric.min(axis=0) == pytest.approx([0, 0])
            assert numeric.max(axis=0) == pytest.approx([1, 1])


def test_stratified_folds_partition_rows_and_spread_each_label_evenly():
    Y = make_hypercube_dataset(n_samples=400, n_labels=4, random_state=1).Y
    folds = stratified_folds(Y, n_splits=5, random_state=0)
    tests = np.concatenate([test for _, test in folds])
    assert sorted(tests) == list(range(len(Y)))
    for train, test in folds:
        assert not np.intersect1d(train, test).size
    positives = np.array([Y[test].sum(axis=0) for _, test in folds])  # folds x labels
    assert (positives.max(axis=0) - positives.min(axis=0)).max() <= 1  # plain KFold: up to 13
    again = stratified_folds(Y, n_splits=5, random_state=0)
    assert all((a[1] == b[1]).all() for a, b in zip(folds, again, strict=True))
    with pytest.raises(InputError, match="n_splits"):
        stratified_folds(Y, n_splits=1)


def test_fold_file_is_checked_against_the_labels(tmp_path):
    data = id_data()
    folds = stratified_folds(data.Y, 3)
    spec = {"label_sha256": label_sha256(data.Y),
            "folds": [{"train": tr.tolist(), "test": te.tolist()} for tr, te in folds]}
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(spec))
    read = read_fold_file(path, data.Y)
    assert all((a == b).all() for (a, _), (b, _) in zip(read, folds, strict=True))
    with pytest.raises(DatasetError, match="label_sha256 does not match"):
        read_fold_file(path, data.Y[::-1])
    spec["folds"][0]["test"].append(int(folds[0][0][0]))  # a training row also tested
    path.write_text(json.dumps(spec))
    with pytest.raises(DatasetError, match="both its train and test"):
        read_fold_file(path, data.Y)
    path.write_text("{}")
    with pytest.raises(DatasetError, match="not a fold file"):
        read_fold_file(path, data.Y)


def _fold_spec(data, n_splits=3):
    folds = stratified_folds(data.Y, n_splits)
    return {"label_sha256": label_sha256(data.Y),
            "folds": [{"train": tr.tolist(), "test": te.tolist()} for tr, te in folds]}


def _spoil(spec, how):
    """A fold file's spec spoiled one way (issue 16's sweep: each used to raise a raw KeyError or
    TypeError, or to be accepted silently)."""
    folds = spec["folds"]
    if how == "missing train":
        del folds[1]["train"]
    elif how == "dict instead of list":
        spec["folds"] = {str(k): fold for k, fold in enumerate(folds)}
    elif how == "fold is a list":
        folds[0] = [folds[0]["train"], folds[0]["test"]]
    elif how == "index 10**30":
        folds[0]["test"][0] = 10**30
    elif how == "negative index":
        folds[0]["train"][0] = -1
    elif how == "float index":
        folds[2]["test"] = [float(i) for i in folds[2]["test"]]
    elif how == "string index":
        folds[0]["train"][3] = "7"
    elif how == "bool index":
        folds[0]["train"][3] = True
    elif how == "duplicated test row":
        folds[0]["test"].append(folds[0]["test"][0])
    elif how == "row tested twice":  # in fold 1's test and moved into fold 0's test too
        row = folds[1]["test"][0]
        folds[0]["train"].remove(row)
        folds[0]["test"].append(row)
    elif how == "partial test rows":
        folds[0]["test"].pop()
    elif how == "empty test":
        folds[0]["test"] = []
    elif how == "sha missing":
        del spec["label_sha256"]
    return spec


@pytest.mark.parametrize(("how", "message"), [
    ("missing train", r"fold 1 has no 'train' list"),
    ("dict instead of list", r"not a fold file: expected"),
    ("fold is a list", r"fold 0 has no 'train' list"),
    ("index 10**30", r"fold 0: 'test' holds row 1000000000000000000000000000000, outside 0\.\.119"),
    ("negative index", r"fold 0: 'train' holds row -1, outside"),
    ("float index", r"fold 2: 'test' holds \d+\.0, not an integer row number"),
    ("string index", r"fold 0: 'train' holds '7', not an integer"),
    ("bool index", r"fold 0: 'train' holds True, not an integer"),
    ("duplicated test row", r"fold 0: 'test' lists row \d+ twice"),
    ("row tested twice", r"row \d+ is tested 2 times"),
    ("partial test rows", r"row \d+ is tested 0 times; the test parts .* exactly once"),
    ("empty test", r"fold 0: 'test' must be a non-empty list"),
    ("sha missing", r"not a fold file"),
])
def test_bad_fold_files_are_refused_naming_file_and_fold(tmp_path, how, message):
    data = id_data()
    path = tmp_path / "ids.json"
    path.write_text(json.dumps(_spoil(_fold_spec(data), how)))
    with pytest.raises(DatasetError, match=r"ids\.json: .*" + message):
        read_fold_file(path, data.Y)


def test_deeply_nested_fold_file_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DatasetError, match="deep.json: not a fold file"):
        read_fold_file(path, id_data().Y)


def test_shared_fold_files_match_our_loader(real_datasets, shared_datasets_dir):
    folder = shared_datasets_dir.parent / "field" / "folds"
    for name, data in real_datasets.items():
        folds = read_fold_file(folder / f"{name}.json", data.Y)
        assert len(folds) == 5
        assert sum(len(test) for _, test in folds) == data.n_samples


@pytest.fixture(scope="module")
def small_run():
    datasets = {f"cube{m}": make_hypercube_dataset(n_samples=150, n_labels=m, random_state=m)
                for m in (3, 4)}
    learners = ["LP-DT", "RAkELo-DT", "ECC-LR"]
    return learners, datasets, run_experiment(learners, datasets, folds=3, random_state=0)


def test_results_have_every_measure_and_time(small_run):
    learners, datasets, results = small_run
    assert len(results) == len(learners) * len(datasets) * 3
    assert list(dict.fromkeys(results.learner)) == learners
    assert set(REPORTED) | {"fit_seconds", "predict_seconds"} <= set(results.columns)
    assert results[list(REPORTED)].apply(lambda c: c.between(0, 1)).all().all()
    assert (results.fit_seconds > 0).all()


@pytest.mark.parametrize("setting", [{"n_jobs": 2}, {"n_jobs": 2, "backend": "threading"}])
def test_results_do_not_depend_on_workers_or_backend(small_run, setting):
    learners, datasets, serial = small_run
    parallel = run_experiment(learners, datasets, folds=3, random_state=0, **setting)
    timing = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(parallel.drop(columns=timing), serial.drop(columns=timing))


def test_dask_backend_on_an_in_process_cluster_gives_the_same_results(small_run):
    from dask.distributed import Client

    learners, datasets, serial = small_run
    done = []
    with Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None):
        distributed = run_experiment(learners, datasets, folds=3, random_state=0,
                                     backend="dask", n_jobs=-1,
                                     progress=lambda i, total, row: done.append((i, total)))
    timing = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(distributed.drop(columns=timing), serial.drop(columns=timing))
    assert done[-1] == (len(serial), len(serial)) and len(done) == len(serial)


def test_run_experiment_rejects_missing_folds_and_unknown_learners():
    data = id_data()
    with pytest.raises(InputError, match="no folds given"):
        run_experiment({"lp": LabelPowerset()}, {"ids": data}, folds={})
    with pytest.raises(InputError, match="unknown learner"):
        run_experiment(["nope"], {"ids": data})


def test_paper_layout_gives_value_rank_and_average_rank():
    table = pd.DataFrame({"d1": [0.1, 0.3, 0.2], "d2": [0.5, 0.4, 0.4]}, index=["A", "B", "C"])
    cells = paper_layout(table, lower_is_better=True,
                         beside=pd.DataFrame({"d1": [0.15]}, index=["A"]))
    assert cells.loc["A", "d1"] == "0.1000 (1) / 0.1500"
    assert cells.loc["B", "d2"] == "0.4000 (1.5)"
    assert cells["avg rank"].tolist() == ["2.00", "2.25", "1.75"]
    assert list(cells.columns) == ["d1", "d2", "avg rank"]
    higher = paper_layout(table, lower_is_better=False)
    assert higher.loc["B", "d1"] == "0.3000 (1)"


def test_write_results_writes_csvs_tables_and_diagrams(small_run, tmp_path):
    learners, datasets, results = small_run
    written = write_results(results, tmp_path, diagrams=True, measures=["hamming_loss", "f1"])
    names = {p.name for p in written}
    assert {"folds.csv", "means.csv", "tables.md", "cd_hamming_loss.html", "cd_f1.html"} == names
    folds = pd.read_csv(tmp_path / "folds.csv")
    assert len(folds) == len(results)
    means = pd.read_csv(tmp_path / "means.csv")
    hl = mean_table(results, "hamming_loss")
    assert means.set_index(["learner", "dataset"]).hamming_loss.loc[("ECC-LR", "cube4")] == \
        pytest.approx(hl.loc["ECC-LR", "cube4"])
    text = (tmp_path / "tables.md").read_text()
    assert "## hamming_loss (lower is better)" in text and "## f1 (higher is better)" in text
    assert f"| learner | {' | '.join(datasets)} | avg rank |" in text
    assert "Iman-Davenport F_F" in text and "Nemenyi" in text
    html = (tmp_path / "cd_f1.html").read_text()
    assert "LP-DT" in html and "ECC-LR" in html


def test_command_line_runs_a_sweep_from_files(tmp_path, capsys):
    for m in (3, 4):
        data = make_hypercube_dataset(n_samples=90, n_labels=m, random_state=m, name=f"c{m}")
        data.to_frame().to_csv(tmp_path / f"c{m}.csv", index=False)
    out = tmp_path / "out"
    code = experiments.main(["--datasets", str(tmp_path / "c3.csv"), str(tmp_path / "c4.csv"),
                             "--learners", "LP-DT", "BR-LR", "--folds", "3", "--n-jobs", "2",
                             "--out", str(out)])
    assert code == 0
    folds = pd.read_csv(out / "folds.csv")
    assert len(folds) == 2 * 2 * 3 and set(folds.dataset) == {"c3", "c4"}
    assert "12 fits" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--n-jobs", "0"], r"argument --n-jobs: 0 workers: give a number of workers, or -1"),
        (["--n-jobs", "two"], r"argument --n-jobs: 'two' is not a whole number"),
        (["--folds", "1"], r"argument --folds: 1 folds: cross-validation needs at least 2"),
        (["--out", "{file}"], r"argument --out: .*taken\.txt is a file, not a folder"),
        (["--folds-dir", "{file}"], r"argument --folds-dir: .*taken\.txt is a file, not a folder"),
        (["--folds-dir", "{tmp}/nowhere"], r"argument --folds-dir: no folder .*nowhere"),
        (["--folds", "500"], r"error: n_splits must lie in \[2, 90\] \(the number of rows\), "
                             r"got 500"),
        (["--datasets", "{tmp}/none.csv"], r"error: .*none\.csv: no such file"),
    ],
)
def test_command_line_mistakes_are_usage_errors_not_tracebacks(tmp_path, capsys, args, message):
    """Exit code 2 and one line of argparse's ``error:`` naming what to fix, before any file is
    written: ``--n-jobs 0`` reached joblib's ValueError and ``--out FILE`` mkdir's
    FileExistsError as tracebacks."""
    data = make_hypercube_dataset(n_samples=90, n_labels=3, random_state=0, name="c3")
    data.to_frame().to_csv(tmp_path / "c3.csv", index=False)
    (tmp_path / "taken.txt").write_text("a file")
    args = [a.format(file=tmp_path / "taken.txt", tmp=tmp_path) for a in args]
    with pytest.raises(SystemExit) as exit_:
        experiments.main(["--datasets", str(tmp_path / "c3.csv"), "--learners", "BR-LR",
                          "--folds", "2", "--out", str(tmp_path / "out"), *args])
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert re.search(message, lines[-1]) and "Traceback" not in "".join(lines)
    assert not (tmp_path / "out").exists() and (tmp_path / "taken.txt").read_text() == "a file"


def test_mlr_max_and_agg_share_one_fit_per_fold():
    from mlr_core import MLRClassifier
    from mlr_core.evaluation.experiments import SharedFit, _fits

    fits = _fits(["BR-LR", "MLR_max", "LP-DT", "MLR_agg"], random_state=0)
    assert [sorted(names) for _, names in fits] == [["BR-LR"], ["MLR_agg", "MLR_max"], ["LP-DT"]]
    assert isinstance(fits[1][0], MLRClassifier)
    data = make_hypercube_dataset(n_samples=150, n_labels=4, random_state=2)
    shared = SharedFit(MLRClassifier(n_rules=200, n_iter=2000, random_state=0),
                       {"MLR_max": {"prediction": "max"}, "MLR_agg": {"prediction": "agg"}})
    results = run_experiment({"MLR": shared}, {"cube": data}, folds=2)
    assert list(results.learner) == ["MLR_max", "MLR_max", "MLR_agg", "MLR_agg"]
    by = results.set_index(["learner", "fold"])
    for fold in (0, 1):  # one fit: same fit time and the same scores for both
        assert by.loc[("MLR_max", fold), "fit_seconds"] == by.loc[("MLR_agg", fold),
                                                                  "fit_seconds"]
        assert by.loc[("MLR_max", fold), "ranking_loss"] == by.loc[("MLR_agg", fold),
                                                                   "ranking_loss"]
    # and it is what two separate fits with the same seed give
    alone = run_experiment({"MLR_max": MLRClassifier(n_rules=200, n_iter=2000, random_state=0,
                                                     prediction="max")}, {"cube": data}, folds=2)
    shared_max = results[results.learner == "MLR_max"]
    assert alone.hamming_loss.tolist() == shared_max.hamming_loss.tolist()


def test_a_learner_whose_ties_depend_on_threads_gives_the_same_results_in_workers():
    """scikit-learn's neighbour search splits its work between OpenMP threads, and which of two
    tied neighbours it keeps depends on the split: ML-kNN on 0/1 features, whose distances tie
    often, predicted differently in-process on two threads than in a worker on one. Every fold
    runs on one thread, as in a worker."""
    from threadpoolctl import threadpool_limits

    r = np.random.default_rng(0)
    X = (r.random((900, 40)) < 0.2).astype(float)
    Y = (r.random((900, 5)) < 0.3).astype(np.uint8)
    data = {"ties": Dataset(X, Y, [f"w{j}" for j in range(40)], list("abcde"), name="ties",
                            feature_types=["binary"] * 40)}
    timing = ["fit_seconds", "predict_seconds"]
    with threadpool_limits(limits=2):  # two cores or more, whatever this machine has
        serial = run_experiment(["MLkNN"], data, folds=3, random_state=0)
    with threadpool_limits(limits=1):
        one_thread = run_experiment(["MLkNN"], data, folds=3, random_state=0)
    pd.testing.assert_frame_equal(serial.drop(columns=timing), one_thread.drop(columns=timing))
    for setting in ({"n_jobs": 2}, {"n_jobs": 3, "backend": "threading"}):
        parallel = run_experiment(["MLkNN"], data, folds=3, random_state=0, **setting)
        pd.testing.assert_frame_equal(parallel.drop(columns=timing), serial.drop(columns=timing))
