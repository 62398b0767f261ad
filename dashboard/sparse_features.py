"""Sparse features in the dashboard: when a sparse ARFF stays sparse, and the small dense pieces
the pages take from a scipy CSR ``Dataset.X`` (a few columns to draw, one row to list), never
the whole matrix (issue 32: memory grows with the stored values, not rows x features).

Rows are read as they are everywhere else (``X[rows]`` is CSR again, and the engine reads it:
``docs/sparse_input.md``); only what a page draws or lists is made dense here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.sparse import issparse

from mlr_core.validation import MEMORY_BUDGET

#: Bytes a stored value takes in the CSR form the engine reads (``sparse_rows.checked_csr``):
#: a float64 value and an int64 column index; a dense cell takes 8.
STORED_VALUE_BYTES = 16


def stays_sparse(X, budget: float = MEMORY_BUDGET) -> bool:
    """Whether a dataset's sparse features are worth keeping sparse: when their CSR form takes at
    most half the dense float64 matrix (at most a quarter of the cells stored: text, where a
    row holds a few of the words), or when the dense matrix would take more than ``budget``
    bytes (what a file's arrays may take, ``mlr_core.validation.MEMORY_BUDGET``). Dense
    features stay dense."""
    if not issparse(X):
        return False
    dense_bytes = 8 * X.shape[0] * X.shape[1]
    return STORED_VALUE_BYTES * X.nnz <= dense_bytes / 2 or dense_bytes > budget


def as_loaded(dataset):
    """``dataset`` as the dashboard keeps it: a sparse ARFF read sparse (``load_dataset(...,
    sparse=True)``) stays so when `stays_sparse`, else its features are made dense, as every
    other file's are."""
    if not issparse(dataset.X) or stays_sparse(dataset.X):
        return dataset
    return replace(dataset, X=dataset.X.toarray())


def stored_text(X) -> str:
    """What the Data page says of sparse features: how many values they store."""
    cells = X.shape[0] * X.shape[1]
    return (f"Kept sparse: {X.nnz:,} values stored, {X.nnz / cells:.2%} of the {cells:,} cells "
            f"(every other is 0), {STORED_VALUE_BYTES * X.nnz / 1e6:,.1f} MB against "
            f"{8 * cells / 1e6:,.1f} MB dense.")


def column(X, feature: int) -> np.ndarray:
    """One feature's values over every row, dense (n floats; the absent values of a sparse
    column are its 0s)."""
    values = X[:, feature]
    return values.toarray().ravel() if issparse(values) else values


def leading_columns(X, k: int) -> np.ndarray:
    """The first ``k`` features over every row, dense (n x k)."""
    values = X[:, :k]
    return values.toarray() if issparse(values) else values


def row_values(X, index: int) -> tuple[np.ndarray, np.ndarray]:
    """(features, values) of one row as a page lists them: every feature of a dense row; of a
    sparse row only those it stores (a word row of 20,000 features holds a few dozen, and
    every other is 0)."""
    if not issparse(X):
        return np.arange(X.shape[1]), X[index]
    row = X[index]
    return row.indices, row.data
