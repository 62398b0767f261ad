"""scipy sparse rows (what ``CountVectorizer``, ``TfidfVectorizer`` and a sparse ARFF give)
read without ever densifying them: memory grows with the stored values, not rows x features.

`checked_csr` makes any scipy sparse matrix or array the one form read further (CSR, float64,
int64 indices, sorted, duplicates summed); `column_stats` gives what `Scaling.of` reads from its
columns, the values not stored counting as 0s; `SparseRows` holds them on the rules' axes, the
form the kernels read one row at a time (``_engine/rows.py``). 60,000 documents x 20,000 words
at 0.2% density: 9.6 GB dense, 29 MB here (``docs/sparse_input.md``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp


def checked_csr(X) -> sp.csr_matrix:
    """``X`` (any scipy sparse format, matrix or array) as a canonical float64 CSR matrix with
    int64 indices: duplicates summed (as ``toarray`` would), indices sorted. Explicit zeros are
    kept: they read as the 0 they are."""
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)  # summed and sorted below: not theirs
    X.sum_duplicates()  # also sorts the indices
    X.indices = X.indices.astype(np.int64, copy=False)
    X.indptr = X.indptr.astype(np.int64, copy=False)
    return X


def column_stats(X: sp.csr_matrix, with_counts: bool):
    """Per column of sparse ``X``, from its known values, each value not stored counting as a
    0 and a stored NaN as missing (``mlr_core/missing.py``), as `Scaling.of` reads a dense
    column: (min, max, 0 to 0 where no value is known; whether it takes no value but 0 and 1,
    False where none is known; and with ``with_counts`` its distinct values with their counts,
    as ``np.unique`` would give the known ones, else None)."""
    n, d = X.shape
    columns = X.tocsc()
    columns.sort_indices()
    stored = np.diff(columns.indptr)
    owner = np.repeat(np.arange(d), stored)
    missing = np.isnan(columns.data)
    known = n - np.bincount(owner[missing], minlength=d)
    absent = stored < n  # the column has a 0 that is not stored
    low = np.where(absent, 0.0, np.inf)
    high = np.where(absent, 0.0, -np.inf)
    has = stored > 0
    if columns.nnz:  # a missing value as +-inf, which every known one passes (as Scaling.of)
        starts = columns.indptr[:-1][has]
        data = columns.data
        low[has] = np.minimum(low[has],
                              np.minimum.reduceat(np.where(missing, np.inf, data), starts))
        high[has] = np.maximum(high[has],
                               np.maximum.reduceat(np.where(missing, -np.inf, data), starts))
    low[known == 0] = high[known == 0] = 0.0
    not_binary = (columns.data != 0.0) & (columns.data != 1.0) & ~missing
    binary = (np.bincount(owner, weights=not_binary, minlength=d) == 0) & (known > 0)
    counted = None
    if with_counts:
        counted = tuple(_counted(columns.data[columns.indptr[j]:columns.indptr[j + 1]],
                                 n - int(stored[j])) for j in range(d))
    return low, high, binary, counted


def _counted(stored: np.ndarray, zeros: int, zero: float = 0.0):
    """A column's distinct known values and their counts, from its stored values (NaN:
    missing, left out) and the number of 0s not stored, which read as ``zero``."""
    values, counts = np.unique(stored[~np.isnan(stored)], return_counts=True)
    if zeros:
        at = int(np.searchsorted(values, zero))
        if at < len(values) and values[at] == zero:  # explicit zeros stored too
            counts[at] += zeros
        else:
            values, counts = np.insert(values, at, zero), np.insert(counts, at, zeros)
    return values, counts


class SparseRows(NamedTuple):
    """Rows on the rules' [0, 1] axes, held sparse: row ``r``'s stored values are
    ``data[indptr[r]:indptr[r + 1]]`` on features ``indices[...]``, every other feature ``j``
    at ``zero[j]``, where its 0 lies on its axis. A named tuple so the kernels take it as they
    take a dense matrix (``_engine/rows.py``); for Python code it reads like one where the
    engine's callers read rows: ``len``, ``shape``, ``rows[r]`` (one dense row) and
    ``rows[selection]`` (a slice or an index array: rows again). ``shape`` is an int64 array
    (rows, features): a tuple within the tuple would stop numba's parallel loops taking it."""

    shape: np.ndarray
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    zero: np.ndarray

    @classmethod
    def scaled(cls, X: sp.csr_matrix, positions) -> SparseRows:
        """Canonical CSR rows (`checked_csr`) on the axes of ``positions`` (`Scaling.positions`:
        the same arithmetic as a dense matrix's transform, value by value)."""
        d = X.shape[1]
        return cls(np.array(X.shape, dtype=np.int64), positions(X.data, X.indices), X.indices,
                   X.indptr, positions(np.zeros(d), np.arange(d)))

    def __len__(self) -> int:  # the rows, as for a matrix (numba reads the five fields)
        return int(self.shape[0])

    def __getitem__(self, rows):
        at = np.arange(self.shape[0])[rows]  # as a matrix's rows: negative, slices, arrays
        return self.dense(at[None])[0] if at.ndim == 0 else self._take(at)

    def _take(self, rows: np.ndarray) -> SparseRows:
        start, stop = self.indptr[rows], self.indptr[rows + 1]
        lengths = stop - start
        at = np.repeat(start - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return SparseRows(np.array([len(rows), self.shape[1]]), self.data[at], self.indices[at],
                          indptr, self.zero)

    def dense(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The rows ``rows`` (all by default) as a dense matrix: for a few rows only."""
        part = self if rows is None else self._take(np.asarray(rows))
        out = np.tile(part.zero, (part.shape[0], 1))
        owner = np.repeat(np.arange(part.shape[0]), np.diff(part.indptr))
        out[owner, part.indices] = part.data
        return out

    def count_at_least(self, lower: np.ndarray) -> np.ndarray:
        """Per feature, how many rows hold a value of at least ``lower`` (per feature)."""
        lower = np.broadcast_to(lower, self.shape[1])
        stored = np.bincount(self.indices, weights=self.data >= lower[self.indices],
                             minlength=self.shape[1])
        absent = self.shape[0] - np.bincount(self.indices, minlength=self.shape[1])
        return (stored + absent * (self.zero >= lower)).astype(np.int64)

    def columns(self) -> sp.csc_matrix:
        """The stored values by feature (CSC, indices sorted), for tests on a few features."""
        return sp.csr_matrix((self.data, self.indices, self.indptr),
                             shape=tuple(self.shape)).tocsc()

    def distinct(self, columns: sp.csc_matrix, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Feature ``j``'s distinct known values, ascending, and their counts, the values not
        stored counting at ``zero[j]``; ``columns``: `columns` (made once for many features)."""
        stored = columns.data[columns.indptr[j]:columns.indptr[j + 1]]
        return _counted(stored, int(self.shape[0]) - len(stored), self.zero[j])

    def within(self, feat: np.ndarray, center: np.ndarray, spread: np.ndarray) -> sp.csr_matrix:
        """Rows x tests 0/1 (float) sparse matrix: 1 where the row's value of feature
        ``feat[t]`` passes ``|x - center[t]| <= spread[t]`` (the kernels' test; NaN fails). A
        test its feature's 0 passes would fill its column: refused, the one-condition rules it
        serves are built so that it fails (``rule_weights.feature_rules``)."""
        if (np.abs(self.zero[feat] - center) <= spread).any():
            raise ValueError("within() reads tests that a feature's 0 fails only.")
        columns = self.columns()
        rows, tests = [], []
        for t, j in enumerate(feat):
            start, stop = columns.indptr[j], columns.indptr[j + 1]
            hit = np.abs(columns.data[start:stop] - center[t]) <= spread[t]
            rows.append(columns.indices[start:stop][hit])
            tests.append(np.full(len(rows[-1]), t))
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        tests = np.concatenate(tests) if tests else np.zeros(0, dtype=np.int64)
        return sp.csr_matrix((np.ones(len(rows)), (rows, tests)),
                             shape=(int(self.shape[0]), len(feat)))


def count_at_least(Xs, lower) -> np.ndarray:
    """Per feature, how many scaled rows (a matrix or `SparseRows`) hold at least ``lower``."""
    if isinstance(Xs, SparseRows):
        return Xs.count_at_least(lower)
    return np.count_nonzero(Xs >= lower, axis=0)
