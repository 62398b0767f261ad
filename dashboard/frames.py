"""Pure numpy/pandas helpers that shape engine output for the figures and tables.

Kept apart from Streamlit so that filtering, projection and labelset naming are unit-testable and
shared by every page instead of being re-derived in each view.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mlr_core.rules import labelset_text

#: Instances drawn on the projection at most (SVG markers get slow beyond a few thousand).
MAX_POINTS = 5000


def labelset_texts(Y: np.ndarray, label_names: Sequence[str]) -> np.ndarray:
    """The engine's ``{a, c}`` spelling for every row of Y, so instances match ``rules_frame``."""
    Y = np.asarray(Y, dtype=np.uint8)
    if Y.shape[0] == 0:
        return np.empty(0, dtype=object)
    distinct, inverse = np.unique(Y, axis=0, return_inverse=True)
    names = np.array([labelset_text(row, label_names) for row in distinct], dtype=object)
    return names[inverse.ravel()]


def frequent_labelsets(labelsets: Sequence[str], top: int) -> list[str]:
    """The ``top`` most frequent labelsets (ties by name), the ones that get their own colour."""
    counts = pd.Series(labelsets, dtype=object).value_counts()
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in ordered[:top]]


def axis_range(values: np.ndarray, pad: float = 0.03) -> tuple[float, float]:
    """Min/max of a feature with a small margin; fixed ranges keep live redraws from jumping."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return (0.0, 1.0)
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else max(abs(high), 1.0)
    return (low - pad * span, high + pad * span)


def project_rules(
    lower: np.ndarray,
    upper: np.ndarray,
    features: tuple[int, int],
    ranges: tuple[tuple[float, float], tuple[float, float]],
) -> pd.DataFrame:
    """Each rule's rectangle on two features; a wildcard (NaN) spans the whole axis range."""
    out = {}
    for axis, feature, (low, high) in zip("xy", features, ranges, strict=True):
        lo = np.asarray(lower, dtype=float)[:, feature]
        hi = np.asarray(upper, dtype=float)[:, feature]
        out[f"{axis}0"] = np.clip(np.where(np.isnan(lo), low, lo), low, high)
        out[f"{axis}1"] = np.clip(np.where(np.isnan(hi), high, hi), low, high)
    return pd.DataFrame(out)


def select_rules(
    rules: pd.DataFrame,
    *,
    labelsets: Sequence[str] | None = None,
    min_fitness: float = 0.0,
    min_numerosity: int = 1,
    min_experience: int = 0,
    cap: int | None = None,
) -> tuple[pd.DataFrame, int]:
    """Filter rules, fittest first, at most ``cap`` of them; also say how many passed the filters.

    The count lets a page say "showing 300 of 812" when the cap cut the drawing short.
    """
    keep = (
        (rules["fitness"] >= min_fitness)
        & (rules["numerosity"] >= min_numerosity)
        & (rules["experience"] >= min_experience)
    )
    if labelsets:
        keep &= rules["labelset"].isin(list(labelsets))
    chosen = rules[keep].sort_values(
        ["fitness", "numerosity"], ascending=False, kind="stable"
    )
    n_passed = len(chosen)
    if cap is not None:
        chosen = chosen.head(cap)
    return chosen, n_passed


def projection(
    rules: pd.DataFrame,
    lower: np.ndarray,
    upper: np.ndarray,
    X: np.ndarray,
    features: tuple[int, int],
    **filters,
) -> tuple[pd.DataFrame, int, tuple[tuple[float, float], tuple[float, float]]]:
    """The Population page's rules: filtered and capped (``select_rules``) with their rectangles.

    Returns the chosen rules joined with x0/x1/y0/y1, how many passed the filters, and the fixed
    axis ranges (the data's, so live redraws do not jump).
    """
    ranges = (axis_range(X[:, features[0]]), axis_range(X[:, features[1]]))
    rects = project_rules(lower, upper, features, ranges).set_index(rules.index)
    chosen, n_passed = select_rules(rules.join(rects), **filters)
    return chosen, n_passed, ranges


def instance_points(
    X: np.ndarray, labelsets: np.ndarray, features: tuple[int, int], limit: int = MAX_POINTS
) -> pd.DataFrame:
    """The instances on a feature pair (a fixed random sample when there are very many)."""
    index = np.arange(len(X))
    if len(X) > limit:
        index = np.sort(np.random.default_rng(0).choice(len(X), limit, replace=False))
    return pd.DataFrame({"x": X[index, features[0]], "y": X[index, features[1]],
                         "labelset": labelsets[index], "index": index})


def most_specified(lower: np.ndarray, numerosity: np.ndarray, k: int = 2) -> list[int]:
    """The ``k`` features the population specifies most (numerosity-weighted), else the first.

    In high dimension most rules leave most features as wildcards; projecting on the features
    they do specify is what shows their shape.
    """
    d = np.asarray(lower).shape[1]
    weight = specified_matrix(lower).T.astype(float) @ np.asarray(numerosity, dtype=float)
    if not weight.any():
        return list(range(min(k, d)))
    return [int(j) for j in np.argsort(-weight, kind="stable")[:k]]


def specified_matrix(lower: np.ndarray) -> np.ndarray:
    """Which features each rule specifies (True) rather than leaves as a wildcard (False)."""
    return ~np.isnan(np.asarray(lower, dtype=float))
