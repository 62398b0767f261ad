"""A validated multi-label dataset (`Dataset`) and the checks every reader shares: the arrays
checked, the label columns picked, a column read as numbers, and a table made a dataset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy.sparse import issparse

from mlr_core.errors import DatasetError, InputError
from mlr_core.sparse_rows import checked_csr
from mlr_core.validation import check_label_matrix, check_unique_names

LABEL_PREFIX = "label:"
"""CSV and DataFrame columns whose name starts with this prefix are labels when ``labels=None``."""

FEATURE_TYPES = ("numeric", "binary", "nominal", "category")
"""Kinds of feature column: a number, a yes/no attribute decoded to 1/0, a one-hot column, a
nominal feature held as its category codes (`Dataset.categories`)."""

_MAX_SHOWN = 120  # characters of a file's content quoted in an error message
RAISE_BUDGET = " (max_bytes= of load_dataset or load_dataset_bytes allows more)"

RowLabel = Callable[[int], str]


@dataclass(eq=False)
class Dataset:
    """A multi-label dataset ready for the engine: numeric, finite, 0/1 labels, nothing to parse.

    Construction validates the arrays (shapes, finiteness, 0/1 labels, names), so any ``Dataset``
    can be handed to the engine as it is.

    Attributes
    ----------
    X : ndarray of shape (n, d), float64, or scipy CSR matrix
        Features, NaN where missing (a sparse row stores it; a cell it does not store is a
        0), never inf; sparse for a sparse ARFF loaded with ``sparse=True``. A nominal
        feature's column (``categories[j]`` not None) holds its category codes: ``k`` for
        ``categories[j][k]``, NaN where missing.
    Y : ndarray of shape (n, m), uint8
        Labels, 0/1.
    feature_names, label_names : list of str
        Column names of ``X`` and ``Y``.
    name : str
        Short name (the file's stem for loaded files).
    feature_types : list of str
        Per column of ``X``: ``"numeric"``, ``"binary"`` (a yes/no attribute decoded to 1/0) or
        ``"nominal"`` (a one-hot column ``attribute=value``) or ``"category"`` (a nominal feature
        as its codes, exactly where ``categories`` gives a list); when not given, ``"category"``
        there and ``"numeric"`` elsewhere.
    notes : list of str
        What the loader decided for the user: dropped string attributes, ignored ``-C``, encoding.
    source_attributes : list of (str, str)
        The input attributes as the file declared them, before one-hot encoding, with their kind
        (``"numeric"``, ``"binary"``, ``"nominal"``); its length is the ``d`` of dataset tables.
        Defaults to one numeric attribute per column of ``X``.
    meta : dict
        Anything else worth keeping: the ARFF relation, the generator's parameters and hypercubes.
    categories : tuple or None
        Per column of ``X``, None (a number) or the categories of a nominal feature (a text
        column of a CSV or DataFrame), as ``Scaling.categories`` holds them
        (``mlr_core/nominal.py``); None when no feature is nominal. `features` gives them to
        the estimator as pandas categories, which it learns as nominal features.
    """

    X: np.ndarray
    Y: np.ndarray
    feature_names: list[str]
    label_names: list[str]
    name: str = "dataset"
    feature_types: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    source_attributes: list[tuple[str, str]] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    categories: tuple | None = None

    def __post_init__(self):
        self.feature_names = [str(f) for f in self.feature_names]
        self.label_names = [str(lab) for lab in self.label_names]
        self.X, self.Y = checked_arrays(
            self.X,
            self.Y,
            self.feature_names,
            self.label_names,
            f"dataset {self.name!r}",
            lambda i: f"row {i}",
        )
        self.categories = checked_categories(self.categories, self.X, self.feature_names,
                                             f"dataset {self.name!r}")
        coded = [c is not None for c in self.categories or [None] * self.X.shape[1]]
        if self.feature_types is None:
            self.feature_types = ["category" if c else "numeric" for c in coded]
        self.feature_types = list(self.feature_types)
        known = set(self.feature_types) <= set(FEATURE_TYPES)
        if len(self.feature_types) != self.X.shape[1] or not known or coded != [
                kind == "category" for kind in self.feature_types]:
            raise DatasetError(
                f"dataset {self.name!r}: feature_types must give one of {FEATURE_TYPES} for each "
                f"of the {self.X.shape[1]} feature columns, \"category\" exactly where "
                "categories gives a list"
            )
        if self.source_attributes is None:
            self.source_attributes = list(zip(self.feature_names, self.feature_types, strict=True))

    @property
    def n_samples(self) -> int:
        """Number of instances (rows)."""
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        """Number of feature columns of ``X`` (after one-hot encoding)."""
        return self.X.shape[1]

    @property
    def n_labels(self) -> int:
        """Number of labels (columns of ``Y``)."""
        return self.Y.shape[1]

    def features(self, rows=None):
        """The features of all rows, or of ``rows`` (indices), as the estimator learns them:
        ``X`` (its rows) when no feature is nominal, so numbers reach the engine as they always
        have; else a DataFrame whose nominal columns hold pandas categories in `categories`
        order, learned as nominal features. Its columns are numbered as ``X``'s, the names
        going as ``feature_names=`` as with an array: a model fitted on it and one loaded from
        its JSON (which keeps no column names) then read the same tables."""
        X = self.X if rows is None else self.X[rows]
        if self.categories is None:
            return X
        return pd.DataFrame({j: self._column(X[:, j], j) for j in range(self.n_features)})

    def _column(self, values: np.ndarray, j: int):
        """Values of column ``j`` as the estimator reads them: numbers, or for a nominal
        feature pandas categories (a missing value: none of them)."""
        categories = None if self.categories is None else self.categories[j]
        if categories is None:
            return values
        codes = np.where(np.isnan(values), -1, values).astype(np.int64)
        return pd.Categorical.from_codes(codes, pd.Index(categories, dtype=object))

    def to_frame(self) -> pd.DataFrame:
        """Features then labels as one DataFrame, label columns prefixed ``label:``; a nominal
        feature's column holds its categories.

        Written with ``to_csv(index=False)`` it is a CSV that ``load_dataset`` reads back with no
        ``labels=`` argument.
        """
        if issparse(self.X):
            features = pd.DataFrame.sparse.from_spmatrix(self.X, columns=self.feature_names)
        elif self.categories is None:
            features = pd.DataFrame(self.X, columns=self.feature_names)
        else:
            features = self.features().set_axis(self.feature_names, axis=1)
        labels = pd.DataFrame(self.Y, columns=[LABEL_PREFIX + lab for lab in self.label_names])
        return pd.concat([features, labels], axis=1)

    def nominal_frame(self) -> pd.DataFrame:
        """The features as a DataFrame with each one-hot encoded nominal attribute (its columns
        ``attribute=value``) back in one column of pandas categories, its declared values in
        order: a model fitted on it learns the attribute as a nominal feature, whose rules
        read ``religion ∈ {1, 5}`` (``mlr_core/nominal.py``). A row whose columns of the
        attribute are not one 1 among 0s (a missing value, ``?``: NaN in each; or all 0) is
        missing there (NaN, code -1), not the first value. Numeric and yes/no (``binary``)
        columns stay as they are, and nominal features held as codes read as in `features`;
        those of a sparse ``X`` stay sparse (pandas sparse columns, 0 where nothing is
        stored)."""
        X = self.X.tocsc() if issparse(self.X) else self.X  # column slices of CSR are slow
        columns, k = {}, 0
        for attr, kind in self.source_attributes:
            if kind != "nominal":
                columns[attr] = (pd.arrays.SparseArray.from_spmatrix(X[:, [k]]) if issparse(X)
                                 else self._column(X[:, k], k))
                k += 1
                continue
            width = 0
            while (k + width < self.n_features and self.feature_types[k + width] == "nominal"
                   and self.feature_names[k + width].startswith(f"{attr}=")):
                width += 1
            values = [name[len(attr) + 1:] for name in self.feature_names[k:k + width]]
            block = X[:, k:k + width]
            block = block.toarray() if issparse(block) else block
            one_hot = ((block == 1).sum(axis=1) == 1) & ((block == 0).sum(axis=1) == width - 1)
            codes = np.where(one_hot, block.argmax(axis=1), -1)
            columns[attr] = pd.Categorical.from_codes(codes, values)
            k += width
        return pd.DataFrame(columns)


def excerpt(text: str) -> str:
    """Quote at most `_MAX_SHOWN` characters of a file's content in a message."""
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "..."


def checked_categories(categories, X, feature_names, source: str) -> tuple | None:
    """A dataset's category lists: None, or per column of a dense ``X`` None (numbers) or 1 to
    `MAX_CATEGORIES` distinct strings, numbers or booleans, the column holding their codes
    (whole numbers below the list's length) or NaN; None when no column is nominal."""
    if categories is None:
        return None
    from mlr_core._engine.population import MAX_CATEGORIES  # imports numba: not before needed

    if issparse(X) or len(categories) != X.shape[1]:
        raise DatasetError(f"{source}: categories must give, for each of the {X.shape[1]} "
                           "columns of a dense X, None or its category list")
    out = []
    for j, values in enumerate(categories):
        if values is not None:
            values, where = tuple(values), f"{source}: feature {feature_names[j]!r}"
            if not (1 <= len(values) <= MAX_CATEGORIES
                    and all(isinstance(v, (str, int, float, bool)) and v == v for v in values)
                    and len({(type(v), v) for v in values}) == len(values)):
                raise DatasetError(f"{where}'s categories must be 1 to {MAX_CATEGORIES} distinct "
                                   "strings, numbers or booleans")
            known = X[~np.isnan(X[:, j]), j]
            if ((known != np.floor(known)) | (known < 0) | (known >= len(values))).any():
                raise DatasetError(f"{where} holds a value that is no code of its "
                                   f"{len(values)} categories")
        out.append(values)
    return tuple(out) if any(c is not None for c in out) else None


def as_categories(cells: pd.Series, name: str, source: str) -> tuple[np.ndarray, tuple]:
    """A feature column of text (cells not all numbers) or of pandas categories as a nominal
    feature: (its codes, NaN where missing; its categories), as the estimator would make them
    (``mlr_core/nominal.py``: a category column's in their order, else its distinct values
    sorted; more than `MAX_CATEGORIES` refused before any code is allocated)."""
    from mlr_core import nominal  # imports numba: not before a text column needs it

    if not isinstance(cells.dtype, pd.CategoricalDtype):
        cells = cells.astype(object)
    frame = pd.DataFrame({name: cells})
    try:
        categories = nominal.categories_of(frame)
        codes = nominal.encoded(frame, categories)[name].to_numpy(dtype=np.float64)
    except InputError as err:
        raise DatasetError(f"{source}: {err}") from None
    except TypeError as err:  # cells that are lists, dicts, ...
        raise DatasetError(f"{source}: column {name!r} holds cells that are neither numbers "
                           f"nor text ({err})") from None
    return codes, categories[0]


def checked_arrays(X, Y, feature_names, label_names, source: str, row_label: RowLabel):
    """Validate and convert ``X`` (float64, finite; scipy sparse rows stay sparse, as
    ``sparse_rows.checked_csr`` makes them) and ``Y`` (uint8 0/1); raise `DatasetError`."""
    sparse = issparse(X)
    try:
        X = checked_csr(X) if sparse else np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise DatasetError(f"{source}: features are not numeric ({err})") from err
    if X.ndim != 2:
        raise DatasetError(f"{source}: X must be 2-D (n_samples, n_features), got shape {X.shape}")
    Y = check_label_matrix(
        Y, source, error=DatasetError, row_label=row_label, label_names=label_names
    )
    if X.shape[0] != Y.shape[0]:
        raise DatasetError(f"{source}: X has {X.shape[0]} rows but Y has {Y.shape[0]}")
    if X.shape[1] == 0:
        raise DatasetError(f"{source}: no feature columns, only labels")
    for what, names, width in (
        ("feature", feature_names, X.shape[1]),
        ("label", label_names, Y.shape[1]),
    ):
        if len(names) != width:
            raise DatasetError(f"{source}: {len(names)} {what} names for {width} {what} columns")
        check_unique_names(names, what, DatasetError, source)
    # NaN is a missing value (mlr_core/missing.py), stored in a sparse row; inf is no measurement
    bad = np.isinf(X.data) if sparse else np.isinf(X)
    if bad.any():
        if sparse:
            k = int(np.argmax(bad))
            i, j = int(np.searchsorted(X.indptr, k, side="right")) - 1, int(X.indices[k])
        else:
            i, j = (int(k) for k in np.argwhere(bad)[0])
        raise DatasetError(
            f"{source}, {row_label(i)}: feature {feature_names[j]!r} is {X[i, j]} "
            "(inf is not allowed; leave a missing cell empty, ? in ARFF)"
        )
    return (X if sparse else np.ascontiguousarray(X)), Y


def pick_columns(names: Sequence[str], labels, source: str) -> list[int]:
    """Indices of the label columns that the caller's ``labels`` argument selects."""
    if isinstance(labels, (int, np.integer)) and not isinstance(labels, bool):
        k, width = int(labels), len(names)
        if k == 0:
            raise DatasetError(
                f"{source}: labels=0 selects zero labels; a dataset needs at least one"
            )
        if abs(k) >= width:
            raise DatasetError(
                f"{source}: labels={k} but there are only {width} columns; at least one must be "
                "left as a feature"
            )
        return list(range(width - k, width)) if k > 0 else list(range(-k))
    if isinstance(labels, str):
        labels = [labels]
    try:
        wanted = [str(lab) for lab in labels]
    except TypeError as err:
        raise DatasetError(
            f"{source}: labels must be None, an int or a list of column names, got {labels!r}"
        ) from err
    if not wanted:
        raise DatasetError(f"{source}: labels=[] selects zero labels; a dataset needs at least one")
    position = {item: i for i, item in enumerate(names)}
    for lab in wanted:
        if lab not in position:
            shown = ", ".join(repr(n) for n in names[:10]) + (", ..." if len(names) > 10 else "")
            raise DatasetError(f"{source}: no column named {lab!r} (columns: {shown})")
    if len(set(wanted)) != len(wanted):
        raise DatasetError(f"{source}: a label is named twice in labels={wanted!r}")
    return [position[lab] for lab in wanted]


def numbers(values) -> tuple[np.ndarray, int | None]:
    """A column as float64 (missing -> NaN), and the position of its first cell that is not a
    number (None when all are)."""
    if isinstance(values, np.ndarray):  # ARFF cells: already floats, unless liac-arff gave up
        try:
            return values.astype(np.float64), None
        except (TypeError, ValueError):
            values = pd.Series(values, dtype=object)  # find the cell at fault below
    try:
        numeric = pd.to_numeric(values, errors="coerce")
    except TypeError:  # cells that are lists, dicts, ...
        numeric = pd.Series(np.nan, index=values.index)
    bad = (numeric.isna() & values.notna()).to_numpy()
    first = int(np.argmax(bad)) if bad.any() else None
    return numeric.to_numpy(dtype=np.float64, na_value=np.nan), first


def as_numbers(values, what: str, source: str, row_label: RowLabel) -> np.ndarray:
    """A column as float64; a cell that is not a number raises with its line (missing ->
    NaN)."""
    numeric, bad = numbers(values)
    if bad is not None:
        cell = values[bad] if isinstance(values, np.ndarray) else values.iloc[bad]
        raise DatasetError(
            f"{source}, {row_label(bad)}: {what} is {excerpt(repr(cell))}, not a number")
    return numeric


def label_columns(columns: list[str], labels, source: str) -> list[int]:
    """The label columns of a table: those ``labels`` selects, or those named ``label:<name>``.
    Columns are picked by name, so two of one name are refused first."""
    check_unique_names(columns, "column", DatasetError, source)
    if labels is not None:
        return pick_columns(columns, labels, source)
    label_idx = [j for j, c in enumerate(columns) if c.startswith(LABEL_PREFIX)]
    if not label_idx:
        raise DatasetError(
            f"{source}: cannot tell which columns are labels: name them "
            f"'{LABEL_PREFIX}<name>' or pass labels= (column names, or a count of last columns)"
        )
    return label_idx


def table_to_dataset(columns, values, label_idx, source, name, row_label: RowLabel,
                      notes, categories=None) -> Dataset:
    """A table of numbers (CSV or DataFrame) split into features and labels, then checked;
    ``categories``: {column: its categories} for the text columns, whose values are codes."""
    categories = categories or {}
    is_label = set(label_idx)
    feature_idx = [j for j in range(len(columns)) if j not in is_label]
    X, Y = values[:, feature_idx], values[:, label_idx]
    feature_names = [columns[j] for j in feature_idx]
    label_names = [columns[j].removeprefix(LABEL_PREFIX) for j in label_idx]
    X, Y = checked_arrays(X, Y, feature_names, label_names, source, row_label)
    if categories:
        named = [f"{columns[j]!r} ({len(c)})" for j, c in sorted(categories.items())]
        more = f" and {len(named) - 10:,} more" if len(named) > 10 else ""
        notes = [*notes, f"{len(named):,} column(s) of text read as nominal features, their "
                 f"distinct values the categories: {', '.join(named[:10])}{more}"]
    return Dataset(X, Y, feature_names, label_names, name=name, notes=notes, meta={"format": "CSV"},
                   categories=tuple(categories.get(j) for j in feature_idx) if categories else None)
