"""Checks on what is given to MLR Studio (arrays, names, counts), with messages a user can act on.

`check_label_matrix` is the one check of a 0/1 label matrix, shared by the estimator, the
loaders, the statistics and the measures, so that every layer refuses the same inputs with the
same words. For X, scikit-learn's ``validate_data`` does the work (shapes, dtypes, inf, feature
names and counts; NaN, a missing value, passes); its ValueErrors are re-raised as
:class:`InputError` so callers catch one family. `check_unique_names` is the one check that
names are unique, wherever names enter (the estimator, the loaders, a model file);
`check_count` the one check of a count a caller gives (``learn``'s iterations, ``compact``'s
rule budget).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from numbers import Integral
from types import SimpleNamespace

import numpy as np

from mlr_core.errors import InputError, MLRError

MEMORY_BUDGET = 256_000_000
"""Bytes that one object read from a user's file (a dataset's arrays) may take: a file of under
1 MB can declare gigabytes (a sparse ARFF of 10,000 attributes x 8,000 rows is 0.34 MB and 640 MB
dense), so sizes are checked against this before anything is allocated. 256 MiB holds the
largest MULAN benchmarks (bibtex, 7,395 x 1,836: 109 MB) and, with the copies training makes,
keeps a process under 1 GB."""


def memory_size(n_bytes: float) -> str:
    """``n_bytes`` in the unit a person reads best (kB, MB or GB, powers of 1000)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:,.1f} {unit}"
    return f"{int(n_bytes)} bytes"


def check_memory(n_bytes: float, what: str, error: type[MLRError], budget: float,
                 hint: str = "") -> None:
    """Raise ``error`` naming the size and the budget when ``what`` would take more than
    ``budget`` bytes (``hint`` says how to raise it): called before the allocation, not after."""
    if n_bytes > budget:
        raise error(f"{what} would take {memory_size(n_bytes)} of memory, more than the budget of "
                    f"{memory_size(budget)}{hint}")


def check_unique_names(names: Iterable[str], what: str, error: type[MLRError] = InputError,
                       source: str = "", hint: str = "") -> None:
    """Raise ``error`` naming every name in ``names`` that occurs more than once. Names are
    how the exports (Python, SQL), the rule texts and the DataFrames address a feature or a
    label: with two of one name, an exported row cannot say which is which, so it could not
    reproduce ``predict``. ``what`` names their kind (feature, label, column, ...); ``source``
    prefixes the message (a file name), ``hint`` ends it (how such names came about)."""
    counts = Counter(names)
    twice = [repr(name) for name, count in counts.items() if count > 1]
    if not twice:
        return
    prefix = f"{source}: " if source else ""
    if len(twice) == 1:
        times = max(counts.values())
        said = f"{what} name {twice[0]} appears {'twice' if times == 2 else f'{times} times'}"
    else:
        shown = ", ".join(twice[:10]) + (f" and {len(twice) - 10} more" if len(twice) > 10 else "")
        said = f"{what} names {shown} appear more than once"
    raise error(f"{prefix}{said}; each {what} needs a name of its own{hint}")


def check_count(value, what: str, unit: str, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int in ``low..high`` (no upper bound when ``high`` is None), else an
    InputError saying that ``what`` takes a whole number of ``unit``: a count a caller gives
    (iterations, a rule budget). Only whole numbers pass: ``2.5``, ``True``, ``"10"`` and NaN
    are refused, never rounded or parsed."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < low \
            or (high is not None and value > high):
        span = f"in {low:,}..{high:,}" if high is not None else f"of at least {low:,}"
        raise InputError(f"{what} takes a whole number of {unit} {span}, got {value!r}.")
    return int(value)


def check_label_matrix(
    Y,
    what: str = "Y",
    *,
    error: type[MLRError] = InputError,
    row_label: Callable[[int], str] | None = None,
    label_names: Sequence[str] | None = None,
) -> np.ndarray:
    """Return ``Y`` as a C-contiguous uint8 0/1 matrix, or raise ``error`` naming the bad cell.

    One check shared by the statistics, the measures and the loaders, so that every layer rejects
    the same inputs with the same words; the loaders pass their own ``error`` class and a
    ``row_label`` that turns a row index into a file line.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Label indicator matrix; bool, integer or float values 0 and 1 are accepted.
    what : str
        How to name ``Y`` in messages (an argument name or a file name).
    error : MLRError subclass
        The exception to raise.
    row_label, label_names : optional
        Turn a row index and a column index into words for the message.
    """
    try:
        arr = np.asarray(Y)
    except (TypeError, ValueError) as err:
        raise error(f"{what} is not a matrix: {err}") from err
    if arr.ndim != 2:
        raise error(
            f"{what} must be a 2-D (n_samples, n_labels) 0/1 matrix, got {arr.ndim}-D with shape "
            f"{arr.shape}; for a single label use .reshape(-1, 1)"
        )
    n, m = arr.shape
    if n == 0:
        raise error(f"{what} has no rows")
    if m == 0:
        raise error(f"{what} has no label columns (zero labels)")
    bad = (arr != 0) & (arr != 1)
    if np.any(bad):
        i, j = (int(k) for k in np.argwhere(bad)[0])
        row = row_label(i) if row_label else f"row {i}"
        label = repr(label_names[j]) if label_names is not None else f"column {j}"
        value = arr[i, j].item() if isinstance(arr[i, j], np.generic) else arr[i, j]
        raise error(f"{what}, {row}: label {label} is {value!r}; labels must be 0 or 1")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def check_features(estimator, X) -> np.ndarray:
    """X as a float matrix (NaN: a missing value, ``mlr_core/missing.py``) that agrees with
    what ``estimator`` was fitted on (its ``n_features_in_`` and ``feature_names_in_``). A
    sparse X may store NaN where the model reads a missing value as its feature's fill
    (``missing="typical"``)."""
    fills = estimator.fitted_.run.scaling.fills
    return _validated(estimator, X, False, estimator, sparse_missing=fills is not None)


def check_training_features(estimator, X) -> tuple[np.ndarray, np.ndarray | None]:
    """X checked as training data, and a DataFrame's column names or None: what scikit-learn
    records as ``n_features_in_`` and ``feature_names_in_``. It records them on a stand-in,
    not on ``estimator``, whose fitted state (``mlr_core.fitted_state``) holds them and only
    its training session writes; messages and tags are the estimator's. A sparse X may store
    NaN where the estimator reads a missing value as its feature's fill (its ``missing``
    parameter, checked before)."""
    record = SimpleNamespace(__sklearn_tags__=estimator.__sklearn_tags__)
    X = _validated(record, X, True, estimator, sparse_missing=estimator.missing == "typical")
    return X, getattr(record, "feature_names_in_", None)


def _validated(owner, X, reset: bool, estimator, sparse_missing: bool = False) -> np.ndarray:
    # scikit-learn is imported here, not at the top: the loaders and statistics use this module
    # on the dashboard's first page, before anything trains.
    from scipy.sparse import issparse
    from sklearn.utils.validation import validate_data

    from mlr_core.sparse_rows import checked_csr

    try:  # scipy sparse input stays sparse (other formats than CSR and CSC become CSR)
        X = validate_data(owner, X, reset=reset, dtype=np.float64, estimator=estimator,
                          accept_sparse=("csr", "csc"),
                          ensure_all_finite="allow-nan")  # +-inf still refused
        if issparse(X) and not sparse_missing:
            check_no_missing_stored(X.data)
    except ValueError as err:
        raise InputError(f"Invalid feature matrix X: {err}") from err
    return checked_csr(X) if issparse(X) else X


def check_no_missing_stored(values: np.ndarray) -> None:
    """Refuse NaN among a sparse matrix's stored values under ``missing="fail"``: sparse rows
    store missing values only for a model that reads them as their features' fills
    (``mlr_core/missing.py``); a sparse row's absent value is a 0, never missing."""
    if np.isnan(values).any():
        raise InputError("A sparse X cannot hold missing values (NaN) with missing='fail': "
                         "pass the rows dense, fill the missing cells, or fit with "
                         "missing='typical' (the default), which reads a missing value as its "
                         "feature's typical training value.")


def check_no_infinity(X: np.ndarray) -> None:
    """Refuse +-inf in ``X`` (a dense matrix, or a sparse one's stored values), naming its first
    place: NaN is a missing value, but an infinite one is no measurement a rule could bound
    (most often a division by zero upstream)."""
    infinite = np.isinf(X)
    if infinite.any():
        at = [int(k) for k in np.argwhere(infinite)[0]]
        where = f"row {at[0]}, column {at[1]}" if len(at) == 2 else f"stored value {at[0]}"
        raise InputError(f"X holds an infinite value ({where}): give a number, or NaN where "
                         "the value is missing.")


def check_labels(Y, n_rows: int) -> tuple[np.ndarray, np.dtype]:
    """The estimator's Y: `check_label_matrix`, one row per row of X. Returns the uint8 matrix
    and the dtype predictions come back in (the training labels': bool, integer or float)."""
    if Y is None:
        raise InputError("MLRClassifier requires y to be passed, but the target y is None.")
    if hasattr(Y, "toarray"):  # scipy sparse labels (MultiLabelBinarizer's sparse_output)
        Y = Y.toarray()
    Y = np.asarray(getattr(Y, "values", Y))
    try:
        labels = check_label_matrix(Y, "Y")
    except InputError as err:
        from sklearn.utils.multiclass import type_of_target  # see check_features

        kind = type_of_target(Y) if Y.ndim in (1, 2) and Y.size else ""
        if kind.startswith("continuous"):  # the words scikit-learn's checks expect
            raise InputError(f"Unknown label type: {kind!r}. {err}") from err
        raise
    if labels.shape[0] != n_rows:
        raise InputError(f"X has {n_rows} rows but Y has {labels.shape[0]}: they must match.")
    dtype = Y.dtype if Y.dtype.kind in "biuf" else np.dtype(np.int64)
    return labels, dtype
