"""Cross-validate any learners on any multi-label datasets, in parallel, and write the results
laid out like the paper's tables.

One task is one (learner, dataset, fold): the numeric feature columns are min-max scaled on the
training fold (test values may leave [0, 1]; binary and one-hot columns are left alone, as
``../shared/field/README.md`` prescribes), a clone of the learner is fit on the training rows
only, and the test rows are predicted; the task reports every measure of
:func:`mlr_core.evaluation.measures.evaluate` (the nine of the paper plus subset accuracy, coverage
and average precision) and its fit and predict seconds. Tasks run through joblib, so the same
call runs on one core, on every core (``n_jobs``) or on a Dask cluster (``backend="dask"``);
every learner carries its own ``random_state`` and every task is self-contained, so the numbers do
not depend on the backend, the number of workers or the order tasks finish in.

Folds are either made here by iterative stratification (Sechidis et al. 2011, the
``iterative-stratification`` package) or read from fold files like
``../shared/field/folds/*.json``, whose ``label_sha256`` is checked against the loaded labels.

Command line
------------
::

    python -m mlr_core.evaluation.experiments --datasets yeast emotions --learners BR-LR MLR_agg
    python -m mlr_core.evaluation.experiments --data-dir ../shared/datasets \\
        --folds-dir ../shared/field/folds --n-jobs 2 --out results/field
    # past one machine: start a scheduler and workers (dask-scheduler / dask-worker, both in
    # the 'distributed' package), then send the same sweep to it
    python -m mlr_core.evaluation.experiments --backend dask --scheduler tcp://host:8786 ...

``--out`` receives ``folds.csv`` (one row per task), ``means.csv`` and ``tables.md`` (one table
per measure: learners in rows, datasets in columns, each value's rank in parentheses, the average
rank last, then the Friedman / Iman-Davenport tests and the Nemenyi and Bonferroni-Dunn critical
differences), and, with ``--diagrams``, one critical-difference diagram per measure (HTML).

No finished work is lost: each task's rows are appended to ``--out``/``folds.jsonl`` (the run's
journal, flushed line by line) as the task finishes, so Ctrl-C or a kill keeps every finished
fit; the same command with ``--resume`` runs only the tasks not in the journal, then writes the
tables from all of it. The tables are written only when every task is done, each to a temporary
file renamed over the old one, after all of them were computed. A folder that already holds
results is refused unless ``--resume`` says to add to them (the journal's seed and folds must
then be this run's). Worker processes (loky) exit when the command dies, however it dies.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed, parallel_config
from sklearn.base import clone
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler
from threadpoolctl import threadpool_limits

from mlr_core.data.loaders import Dataset, load_dataset
from mlr_core.errors import InputError, MLRError
from mlr_core.evaluation.folds import Fold, folds_sha256, read_fold_file, stratified_folds
from mlr_core.evaluation.journal import (
    JOURNAL,
    KEY,
    check_same_settings,
    earlier_rows,
    read_journal,
)
from mlr_core.evaluation.learners import label_scores, make_learner
from mlr_core.evaluation.measures import evaluate
from mlr_core.evaluation.tables import replace_file, write_results

Progress = Callable[[int, int, dict], None]


# ------------------------------------------------------------------------------------ tasks

def _scaled(X, numeric, train, test):
    """Training and test rows, numeric columns min-max scaled by the training rows alone. Sparse
    rows stay sparse: their numeric columns are divided by their largest absolute value on the
    training rows, the same scaling on a column of values at least 0 that holds a 0 (counts,
    tf-idf); min-max would move every 0 that is not stored."""
    X_train, X_test = X[train].astype(np.float64), X[test].astype(np.float64)
    if numeric.any() and sp.issparse(X):
        factor = sp.diags(np.where(numeric, 1.0 / MaxAbsScaler().fit(X_train).scale_, 1.0))
        return (X_train @ factor).tocsr(), (X_test @ factor).tocsr()
    if numeric.any():
        scaler = MinMaxScaler().fit(X_train[:, numeric])
        X_train[:, numeric] = scaler.transform(X_train[:, numeric])
        X_test[:, numeric] = scaler.transform(X_test[:, numeric])
    return X_train, X_test


@dataclass(frozen=True)
class SharedFit:
    """Several learners from one fit: each name predicts with its own keyword arguments to
    ``predict``. MLR_max and MLR_agg are one MLRClassifier asked for two kinds of prediction, so
    they cost one fit per fold, and differ only in what they predict (as in the paper)."""

    estimator: object
    predictions: Mapping[str, Mapping]


def run_fold(estimator, X, Y, train, test, numeric=None, predictions=None,
             paper_compatible=False, extra=None) -> dict:
    """Fit a clone of ``estimator`` on the training rows, predict the test rows, and return every
    measure with ``fit_seconds`` and ``predict_seconds``: the one fold of every cross-validation
    here (`run_experiment`'s tasks, `mlr_core.evaluation.paper.cross_validate`). ``numeric``
    marks the columns to scale (all when None). With ``predictions`` ({name: predict keyword
    arguments}), return {name: measures} from the one fit instead; the scores
    (``predict_proba``) are shared. ``paper_compatible`` goes to `evaluate`; ``extra(model,
    X_test)`` gives further columns (a dict) of every result.

    The fold runs with one BLAS and one OpenMP thread, as joblib runs each worker on a machine
    its workers fill, so that a learner's numbers do not depend on the number of workers or the
    machine's cores: scikit-learn's neighbour search splits its work between OpenMP threads,
    and which of two tied neighbours it keeps depends on the split. ML-kNN on 0/1 features
    (many tied distances) predicted differently in-process on two cores than in a worker
    (``benchmarks/other_domains.py``'s text-like data, a fold: accuracy 0.430 against 0.439)."""
    with threadpool_limits(limits=1):
        numeric = np.ones(X.shape[1], bool) if numeric is None else np.asarray(numeric, bool)
        X_train, X_test = _scaled(X, numeric, train, test)
        model = clone(estimator)
        start = time.perf_counter()
        model.fit(X_train, Y[train])  # MLR's fit tunes its threshold too: part of training
        fit_seconds = time.perf_counter() - start
        start = time.perf_counter()
        scores = label_scores(model, X_test)
        score_seconds = time.perf_counter() - start
        more = extra(model, X_test) if extra else {}
        results = {}
        for name, kwargs in (predictions or {None: {}}).items():
            start = time.perf_counter()
            predicted = model.predict(X_test, **kwargs)
            predicted = (predicted.toarray() if hasattr(predicted, "toarray")
                         else np.asarray(predicted))
            predict_seconds = score_seconds + time.perf_counter() - start
            measures = evaluate(Y[test], predicted.astype(np.uint8), scores,
                                paper_compatible=paper_compatible)
            results[name] = {**measures, **more, "fit_seconds": fit_seconds,
                             "predict_seconds": predict_seconds}
        return results if predictions else results[None]


def _task(predictions, dataset, fold, estimator, X, Y, train, test, numeric):
    by_name = run_fold(estimator, X, Y, train, test, numeric, predictions)
    return [{"learner": name, "dataset": dataset, "fold": fold, **row}
            for name, row in by_name.items()]


def _fits(learners, random_state) -> list[tuple[object, dict]]:
    """(estimator, {learner name: predict keyword arguments}) per fit to make: names of
    ``learners.LEARNERS`` that share one (``learners.SHARED``) are grouped."""
    from mlr_core.evaluation.learners import SHARED

    if isinstance(learners, Mapping):
        return [(spec.estimator, dict(spec.predictions)) if isinstance(spec, SharedFit)
                else (spec, {name: {}}) for name, spec in learners.items()]
    fits, by_base = [], {}
    for name in learners:
        if name in SHARED:
            base, kwargs = SHARED[name]
            if base not in by_base:
                by_base[base] = (make_learner(name, random_state), {})
                fits.append(by_base[base])
            by_base[base][1][name] = kwargs
        else:
            fits.append((make_learner(name, random_state), {name: {}}))
    return fits


def _numeric_mask(data: Dataset) -> np.ndarray:
    return np.array([kind == "numeric" for kind in data.feature_types])


def _exit_with_parent() -> None:
    """Run in each loky worker as it starts: exit when the process that started it dies.

    loky makes no such promise on POSIX (issue 16: two workers stayed alive after ``kill -9``
    of the runner), but it runs an ``initializer`` in every worker it starts: this one watches,
    from a daemon thread, for the worker to be re-parented.
    """
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _backend_config(backend: str | None):
    """joblib's configuration for ``backend``: loky (the default) with workers that exit with
    this process; any other backend as it is."""
    if backend in (None, "loky"):
        return parallel_config(backend="loky", initializer=_exit_with_parent)
    return parallel_config(backend=backend)


def ordered(results: pd.DataFrame, learners: Sequence[str] = (),
            datasets: Sequence[str] = ()) -> pd.DataFrame:
    """Rows sorted by learner, dataset, fold: ``learners`` and ``datasets`` first in the order
    given, then any others in the order they first appear."""
    frame = results.reset_index(drop=True)
    for column, first in (("learner", learners), ("dataset", datasets)):
        categories = list(dict.fromkeys([*first, *frame[column]]))
        frame[column] = pd.Categorical(frame[column], categories=categories, ordered=True)
    frame = frame.sort_values(KEY, kind="stable").reset_index(drop=True)
    return frame.astype({"learner": str, "dataset": str})


def run_experiment(
    learners: Mapping[str, object] | Sequence[str],
    datasets: Mapping[str, Dataset],
    folds: int | Mapping[str, Sequence[Fold]] = 5,
    random_state: int = 0,
    n_jobs: int = 1,
    backend: str | None = None,
    progress: Progress | None = None,
    done: Collection[tuple[str, str, int]] = (),
) -> pd.DataFrame:
    """Cross-validate every learner on every dataset.

    Parameters
    ----------
    learners : mapping of name to estimator or `SharedFit`, or names of ``learners.LEARNERS``
        Names are built with ``make_learner(name, random_state)``; MLR_max and MLR_agg share
        one fit per fold. A `SharedFit`'s own names label its rows (its key is not used).
    datasets : mapping of name to `Dataset`
    folds : int or mapping of dataset name to [(train, test), ...]
        A number of folds to make by iterative stratification (seeded by ``random_state``), or
        the folds themselves (e.g. from `read_fold_file`).
    n_jobs : int
        joblib workers (-1: every core).
    backend : str, optional
        joblib backend ("loky", "threading", "dask", ...); "dask" needs a
        ``dask.distributed.Client`` to exist (the command line makes one from ``--scheduler``).
    progress : callable(done, total, row), optional
        Called with each row as its task finishes, e.g. to move a progress bar or to save it.
    done : collection of (learner, dataset, fold)
        Rows already had (from an interrupted run): a task whose every row is here is skipped.

    Returns
    -------
    DataFrame
        One row per (learner, dataset, fold) run, in that order: the measures, ``fit_seconds``
        and ``predict_seconds``.
    """
    fits = _fits(learners, random_state)
    names = [name for _, predictions in fits for name in predictions]
    if not names or not datasets:
        raise InputError("give at least one learner and one dataset")
    if isinstance(folds, int):
        folds = {name: stratified_folds(data.Y, folds, random_state)
                 for name, data in datasets.items()}
    missing = [name for name in datasets if name not in folds]
    if missing:
        raise InputError(f"no folds given for dataset(s) {', '.join(missing)}")
    done = set(done)
    jobs = [
        (len(predictions), delayed(_task)(predictions, name, k, estimator, data.X, data.Y, train,
                                          test, _numeric_mask(data)))
        for estimator, predictions in fits
        for name, data in datasets.items()
        for k, (train, test) in enumerate(folds[name])
        if not all((learner, name, k) in done for learner in predictions)
    ]
    total = sum(n_rows for n_rows, _ in jobs)
    rows = []
    if jobs:
        # one thread here too: threads of this process (the threading backend) share its BLAS
        # setting, and the folds' own (`run_fold`) would otherwise restore each other's
        with _backend_config(backend), threadpool_limits(limits=1):
            tasks = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                job for _, job in jobs)
            for task_rows in tasks:
                for row in task_rows:
                    rows.append(row)
                    if progress is not None:
                        progress(len(rows), total, row)
    if not rows:
        return pd.DataFrame(columns=KEY)
    return ordered(pd.DataFrame(rows), names, list(datasets))


# ---------------------------------------------------------------------------------- command

def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _workers(text: str) -> int:
    """``--n-jobs``: joblib's count of workers, where 0 means nothing."""
    n = _whole(text)
    if n == 0:
        raise argparse.ArgumentTypeError("0 workers: give a number of workers, or -1 for every "
                                         "core")
    return n


def _fold_count(text: str) -> int:
    n = _whole(text)
    if n < 2:
        raise argparse.ArgumentTypeError(f"{n} folds: cross-validation needs at least 2")
    return n


def _folder(must_exist: bool):
    """An argparse type: a path that is a folder (``must_exist``) or may become one."""
    def folder(text: str) -> Path:
        path = Path(text)
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
        if must_exist and not path.is_dir():
            raise argparse.ArgumentTypeError(f"no folder {text}")
        return path

    return folder


def _parser() -> argparse.ArgumentParser:
    from mlr_core.evaluation.learners import LEARNERS

    repo = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(
        prog="python -m mlr_core.evaluation.experiments",
        description="Cross-validate multi-label learners on datasets; CSV and Markdown results.")
    parser.add_argument("--datasets", nargs="+", default=["yeast", "emotions", "flags", "cal500",
                                                          "genbase"],
                        help="names of .arff files in --data-dir, or paths to dataset files")
    parser.add_argument("--data-dir", type=Path, default=repo.parent / "shared" / "datasets")
    parser.add_argument("--learners", nargs="+", default=None, choices=list(LEARNERS),
                        metavar="NAME", help=f"any of {', '.join(LEARNERS)} (default: every "
                        "learner whose package is installed)")
    parser.add_argument("--folds", type=_fold_count, default=5, help="folds made by iterative "
                        "stratification (ignored for datasets with a file in --folds-dir)")
    parser.add_argument("--folds-dir", type=_folder(must_exist=True), default=None,
                        help="folder of NAME.json fold files (../shared/field/folds)")
    parser.add_argument("--seed", type=int, default=0, help="random_state of folds and learners")
    parser.add_argument("--n-jobs", type=_workers, default=1, help="joblib workers (-1: all cores)")
    parser.add_argument("--backend", default=None, help="joblib backend: loky (default), "
                        "threading, dask (with --scheduler)")
    parser.add_argument("--scheduler", default=None,
                        help="address of a Dask scheduler, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--out", type=_folder(must_exist=False),
                        default=Path("results") / "experiment")
    parser.add_argument("--diagrams", action="store_true",
                        help="also write a critical-difference diagram per measure (HTML)")
    parser.add_argument("--resume", action="store_true",
                        help=f"add to the results in --out: tasks already in its {JOURNAL} are "
                        "skipped (after Ctrl-C or a kill, rerun the same command with --resume)")
    return parser


def _load(name: str, data_dir: Path) -> Dataset:
    path = Path(name)
    if not path.suffix:
        path = data_dir / f"{name}.arff"
    return load_dataset(path)


def _inputs(args) -> tuple[dict[str, Dataset], dict[str, list[Fold]]]:
    """The datasets the command line names, and the folds of each."""
    datasets = {}
    for name in args.datasets:
        data = _load(name, args.data_dir)
        datasets[data.name] = data
    folds = {}
    for name, data in datasets.items():
        fold_file = args.folds_dir / f"{name}.json" if args.folds_dir else None
        folds[name] = (read_fold_file(fold_file, data.Y) if fold_file and fold_file.is_file()
                       else stratified_folds(data.Y, args.folds, args.seed))
    return datasets, folds


def main(argv=None) -> int:
    from tqdm import tqdm

    from mlr_core.evaluation.learners import available_learners

    parser = _parser()
    args = parser.parse_args(argv)
    try:  # a journal, dataset or fold file that cannot be used, more folds than rows
        earlier = earlier_rows(args.out, args.resume)
        datasets, folds = _inputs(args)
    except MLRError as err:
        parser.error(str(err))
    fingerprints = {name: folds_sha256(folds[name], data.Y) for name, data in datasets.items()}
    journal = args.out / JOURNAL
    check_same_settings(earlier, args.seed, folds, fingerprints, journal)
    learners = args.learners or available_learners()
    client = None
    if args.backend == "dask":
        from dask.distributed import Client

        client = Client(args.scheduler) if args.scheduler else Client(processes=False)
    elif args.scheduler:
        raise SystemExit("--scheduler needs --backend dask")
    args.out.mkdir(parents=True, exist_ok=True)
    # the journal as read (without a line a kill cut short), then this run's rows as they come
    replace_file(journal, "".join(json.dumps(row) + "\n" for row in earlier))
    done = {tuple(row[k] for k in KEY) for row in earlier}
    start = time.perf_counter()
    with open(journal, "a") as log, tqdm(total=sum(len(f) for f in folds.values())
                                         * len(learners), initial=len(done), unit="fit") as bar:
        def save(_, total, row):
            extra = {"seed": args.seed, "folds_sha256": fingerprints[row["dataset"]]}
            log.write(json.dumps({**row, **extra}, default=lambda v: v.item()) + "\n")
            log.flush()
            bar.set_postfix_str(f"{row['learner']} on {row['dataset']}")
            bar.update(1)

        try:
            results = run_experiment(learners, datasets, folds, args.seed, args.n_jobs,
                                     args.backend, save, done)
        except KeyboardInterrupt:
            bar.close()
            print(f"Interrupted: the {bar.n} finished fits are kept in {journal}; run the same "
                  "command with --resume to finish.")
            return 130
        finally:
            if client is not None:
                client.close()
    merged = pd.DataFrame(read_journal(journal)).drop(columns=["seed", "folds_sha256"])
    merged = ordered(merged.drop_duplicates(KEY, keep="last"), learners, list(datasets))
    written = write_results(merged, args.out, diagrams=args.diagrams)
    print(f"{len(results)} fits in {time.perf_counter() - start:.1f} s"
          + (f" ({len(done)} done before)" if done else "") + "; wrote "
          + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
