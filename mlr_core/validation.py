"""Checks on the arrays given to the estimator, with messages a user can act on.

scikit-learn's ``validate_data`` does the work (shapes, dtypes, NaN/inf, feature names and
counts); its ValueErrors are re-raised as :class:`InputError` so callers catch one family.
"""

import numpy as np
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import validate_data

from mlr_core.errors import InputError


def check_features(estimator, X, reset: bool) -> np.ndarray:
    """X as a finite float matrix; on ``reset`` it sets ``n_features_in_`` (and
    ``feature_names_in_`` for a DataFrame), otherwise it must agree with them."""
    try:
        return validate_data(estimator, X, reset=reset, dtype=np.float64)
    except ValueError as err:
        raise InputError(f"Invalid feature matrix X: {err}") from err


def check_labels(Y, n_rows: int) -> np.ndarray:
    """Y as an ``n x m`` uint8 0/1 matrix with m >= 1 and one row per row of X."""
    if Y is None:
        raise InputError("MLRClassifier requires y to be passed, but the target y is None.")
    Y = np.asarray(getattr(Y, "values", Y))
    if Y.ndim != 2:
        raise InputError(
            f"Unknown label type: {type_of_target(Y)!r} with shape {Y.shape}. Y must be a 2-D "
            "0/1 label matrix (n_samples x n_labels); a 1-D vector is not multi-label data."
        )
    if Y.shape[0] != n_rows:
        raise InputError(f"X has {n_rows} rows but Y has {Y.shape[0]}: they must match.")
    if Y.shape[1] == 0:
        raise InputError("Y has no label columns: there is nothing to learn.")
    try:
        values = Y.astype(np.float64)
    except (TypeError, ValueError) as err:
        raise InputError(f"Y must hold only 0 and 1: {err}") from err
    bad = ~np.isin(values, (0.0, 1.0))
    if bad.any():
        row, col = np.argwhere(bad)[0]
        kind = type_of_target(values)
        prefix = f"Unknown label type: {kind!r}. " if kind.startswith("continuous") else ""
        raise InputError(
            f"{prefix}Y must hold only 0 and 1; found {Y[row, col].item()!r} at row {row}, "
            f"label column {col}."
        )
    return values.astype(np.uint8)
