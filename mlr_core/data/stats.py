"""Statistics of a label matrix: the dataset table of the paper and the label-code quantities of its
theory (``mlr_core.evaluation.theory``).

Definitions (paper, section "Fitness evaluation of a classifier in MLR"):

- ``card`` = mean number of relevant labels per instance, ``dens = card / m``;
- ``dl`` = number of distinct labelsets (the empty one counts when it occurs), ``pdl = dl / n``;
- ``ahd`` = average pairwise Hamming distance of the distinct labelsets L, eq. (ahd):
  ``(1 / DL**2) * sum_i sum_j hd(L_i, L_j)`` (pairs of a labelset with itself included, as printed);
- ``ahw`` = average Hamming weight of the distinct labelsets, eq. (ahw).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from mlr_core.errors import InputError, MLRError


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


def dataset_stats(Y) -> dict:
    """Statistics of a label matrix, as in the paper's dataset table and its fitness bounds.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        0/1 label indicator matrix.

    Returns
    -------
    dict
        ``n`` and ``m`` (int), ``card``, ``dens`` (float), ``dl`` (int), ``pdl``, ``ahd`` and
        ``ahw`` (float); see the module docstring for the definitions.

    Raises
    ------
    InputError
        If ``Y`` is not a non-empty 2-D matrix of 0/1.

    Examples
    --------
    >>> dataset_stats([[1, 0], [1, 0], [0, 1]])["dl"]
    2
    """
    Y = check_label_matrix(Y)
    n, m = Y.shape
    card = float(Y.sum(axis=1, dtype=np.int64).mean())
    distinct = np.unique(Y, axis=0)
    dl = distinct.shape[0]
    # The sum of hd over all ordered pairs, bit by bit: a bit set in c of the DL labelsets differs
    # in 2 * c * (DL - c) ordered pairs; O(DL * m) instead of O(DL**2 * m).
    ones = distinct.sum(axis=0, dtype=np.float64)
    ahd = float(np.sum(2.0 * ones * (dl - ones)) / dl**2)
    ahw = float(ones.sum() / dl)
    return {
        "n": int(n),
        "m": int(m),
        "card": card,
        "dens": card / m,
        "dl": int(dl),
        "pdl": dl / n,
        "ahd": ahd,
        "ahw": ahw,
    }
