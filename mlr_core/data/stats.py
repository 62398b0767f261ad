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

import numpy as np

from mlr_core.validation import check_label_matrix


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
