"""The cross-validation folds of an experiment: made by iterative stratification, or read from a
fold file (the shared folds the measured peers used), and fingerprinted with the labels."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mlr_core.errors import DatasetError, InputError

Fold = tuple[np.ndarray, np.ndarray]


def label_sha256(Y) -> str:
    """sha256 of the label matrix as uint8, row-major: what a fold file's ``label_sha256`` holds,
    so that a fold file can prove it indexes the same rows as our loader's ``Y``."""
    return hashlib.sha256(np.ascontiguousarray(Y, dtype=np.uint8).tobytes()).hexdigest()


def stratified_folds(Y, n_splits: int = 5, random_state: int = 0) -> list[Fold]:
    """``n_splits`` folds by iterative stratification (order 1, shuffled), each a (train, test)
    pair of row indices; every row is tested exactly once."""
    from iterstrat.ml_stratifiers import MultilabelStratifiedKFold

    Y = np.asarray(Y)
    if not 2 <= n_splits <= len(Y):
        raise InputError(f"n_splits must lie in [2, {len(Y)}] (the number of rows), "
                         f"got {n_splits}")
    splitter = MultilabelStratifiedKFold(n_splits=n_splits, shuffle=True,
                                         random_state=random_state)
    return [(np.sort(train), np.sort(test))
            for train, test in splitter.split(np.zeros((len(Y), 1)), Y)]


FOLD_FILE_LAYOUT = '{"label_sha256": "...", "folds": [{"train": [0, 3, ...], "test": [...]}, ...]}'


def read_fold_file(path, Y) -> list[Fold]:
    """The folds of a fold file (`FOLD_FILE_LAYOUT`), after checking that they were made for
    exactly this label matrix and are cross-validation folds of it: in each fold, train and test
    are lists of distinct row numbers in range, sharing none; the test parts together hold every
    row exactly once. Anything else is a `DatasetError` naming the file and the fold."""
    path = Path(path)
    try:
        spec = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as err:
        raise DatasetError(f"{path}: not a fold file ({err})") from err
    if not (isinstance(spec, dict) and isinstance(spec.get("label_sha256"), str)
            and isinstance(spec.get("folds"), list) and spec["folds"]):
        raise DatasetError(f"{path}: not a fold file: expected {FOLD_FILE_LAYOUT}")
    Y = np.asarray(Y)
    if label_sha256(Y) != spec["label_sha256"]:
        raise DatasetError(
            f"{path}: its label_sha256 does not match this dataset's labels ({Y.shape[0]} rows, "
            f"{Y.shape[1]} labels): the rows or label columns are in another order, or it is "
            "another dataset"
        )
    n = len(Y)
    folds = [(_fold_part(path, k, fold, "train", n), _fold_part(path, k, fold, "test", n))
             for k, fold in enumerate(spec["folds"])]
    for k, (train, test) in enumerate(folds):
        both = np.intersect1d(train, test)
        if both.size:
            raise DatasetError(f"{path}: fold {k} has row {both[0]} in both its train and test "
                               "parts")
    tested = np.bincount(np.concatenate([test for _, test in folds]), minlength=n)
    if (tested != 1).any():
        row = int(np.flatnonzero(tested != 1)[0])
        raise DatasetError(f"{path}: row {row} is tested {tested[row]} times; the test parts of "
                           f"cross-validation folds hold each of the {n} rows exactly once")
    return folds


def _fold_part(path: Path, k: int, fold, part: str, n_rows: int) -> np.ndarray:
    """One fold's train or test rows as an index array (in the file's order), or a
    `DatasetError` naming them."""
    where = f"{path}: fold {k}"
    if not isinstance(fold, dict) or part not in fold:
        raise DatasetError(f"{where} has no {part!r} list (expected {FOLD_FILE_LAYOUT})")
    rows = fold[part]
    if not isinstance(rows, list) or not rows:
        raise DatasetError(f"{where}: {part!r} must be a non-empty list of row numbers")
    for row in rows:  # checked in Python: 10**30 or 2.0 must not reach numpy's conversion
        if type(row) is not int:
            raise DatasetError(f"{where}: {part!r} holds {row!r}, not an integer row number")
        if not 0 <= row < n_rows:
            raise DatasetError(f"{where}: {part!r} holds row {row}, outside 0..{n_rows - 1}")
    rows = np.asarray(rows, dtype=np.intp)
    seen = np.sort(rows)
    twice = seen[1:][seen[1:] == seen[:-1]]
    if twice.size:
        raise DatasetError(f"{where}: {part!r} lists row {twice[0]} twice")
    return rows


def folds_sha256(folds: Sequence[Fold], Y) -> str:
    """A fingerprint of one dataset's labels and folds: an earlier run's rows are reused only for
    the same rows in the same folds."""
    digest = hashlib.sha256(label_sha256(Y).encode())
    for train, test in folds:
        for part in (train, test):
            digest.update(np.asarray(part, dtype=np.int64).tobytes() + b"|")
    return digest.hexdigest()
