"""One scaled row as the kernels read it, from a dense matrix or from sparse rows.

The kernels read one row at a time (``x[feat]`` of the rule's slots), so rows held sparse
(``mlr_core.sparse_rows.SparseRows``: CSR arrays of scaled values and each feature's scaled 0)
never become a rows x features matrix: `row_of` fills a scratch row of d floats, the features'
scaled 0 with the row's stored values over it, and the next call undoes only the values it
wrote (O(stored values), not O(d)). On a dense matrix it is ``X[row]`` itself, so dense rows
compile to exactly the code they ran before.
"""

import numpy as np
from numba import types
from numba.extending import overload


def row_scratch(X):
    """What `row_of` writes into for ``X`` (None for a dense matrix): one per thread."""


def row_of(X, row, scratch):
    """Row ``row`` of ``X`` on the rules' axes, valid until the next call with ``scratch``."""


@overload(row_scratch, inline="always")
def _row_scratch(X):
    if isinstance(X, types.Array):
        return lambda X: None

    def sparse(X):
        return X.zero.copy(), np.full(1, -1, dtype=np.int64)
    return sparse


@overload(row_of, inline="always")
def _row_of(X, row, scratch):
    if isinstance(X, types.Array):
        return lambda X, row, scratch: X[row]

    def sparse(X, row, scratch):
        values, last = scratch
        if last[0] >= 0:  # put back the features' 0 where the last row wrote
            for p in range(X.indptr[last[0]], X.indptr[last[0] + 1]):
                values[X.indices[p]] = X.zero[X.indices[p]]
        for p in range(X.indptr[row], X.indptr[row + 1]):
            values[X.indices[p]] = X.data[p]
        last[0] = row
        return values
    return sparse
