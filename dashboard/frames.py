"""Pure numpy/pandas helpers that shape engine output for the figures and tables.

Kept apart from Streamlit so that filtering, projection and labelset naming are unit-testable and
shared by every page instead of being re-derived in each view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlr_core.rules import labelset_text

#: Instances drawn on the projection at most (SVG markers get slow beyond a few thousand).
MAX_POINTS = 5000


@dataclass(frozen=True)
class Labelsets:
    """The distinct labelsets of a dataset, numbered: instances and rules refer to them by id.

    Ids are what pages join, filter and colour by; ``names`` (the engine's ``{a, c}``
    spelling) are only for display.
    """

    bits: np.ndarray
    names: tuple[str, ...]
    of_instance: np.ndarray

    @classmethod
    def of(cls, Y: np.ndarray, label_names: Sequence[str]) -> Labelsets:
        Y = np.asarray(Y, dtype=np.uint8)
        distinct, inverse = np.unique(Y, axis=0, return_inverse=True)
        names = tuple(labelset_text(row, label_names) for row in distinct)
        return cls(distinct, names, inverse.ravel().astype(np.int64))

    def ids_of(self, bits: np.ndarray) -> np.ndarray:
        """The id of each row of ``bits`` (k x m), -1 for a labelset the data never has."""
        bits = np.asarray(bits, dtype=np.uint8).reshape(-1, self.bits.shape[1])
        index = {row.tobytes(): i for i, row in enumerate(self.bits)}
        return np.array([index.get(row.tobytes(), -1) for row in bits], dtype=np.int64)

    def name(self, labelset_id: int) -> str:
        return self.names[labelset_id] if labelset_id >= 0 else "(not in the data)"

    def frequent(self, top: int) -> list[int]:
        """The ids of the ``top`` most frequent labelsets (ties by name): they get colours."""
        counts = np.bincount(self.of_instance, minlength=len(self.names))
        order = sorted(range(len(self.names)), key=lambda i: (-counts[i], self.names[i]))
        return order[:top]


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
    labelset_ids: Sequence[int] | None = None,
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
    if labelset_ids:
        keep &= rules["labelset_id"].isin(list(labelset_ids))
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
    *,
    only_specified: bool = False,
    **filters,
) -> tuple[pd.DataFrame, int, tuple[tuple[float, float], tuple[float, float]]]:
    """The Population page's rules: filtered and capped (``select_rules``) with their rectangles.

    ``only_specified`` keeps the rules that specify both features (a rule with a wildcard on one
    of them is a band across the whole plot, and on real data most rules are). Returns the chosen
    rules joined with x0/x1/y0/y1, how many passed the filters, and the fixed axis ranges (the
    data's, so live redraws do not jump).
    """
    ranges = (axis_range(X[:, features[0]]), axis_range(X[:, features[1]]))
    rects = project_rules(lower, upper, features, ranges).set_index(rules.index)
    joined = rules.join(rects)
    if only_specified:
        joined = joined[specified_matrix(lower)[:, list(features)].all(axis=1)]
    chosen, n_passed = select_rules(joined, **filters)
    return chosen, n_passed, ranges


def instance_points(
    X: np.ndarray, labelset_ids: np.ndarray, features: tuple[int, int], limit: int = MAX_POINTS
) -> pd.DataFrame:
    """The instances on a feature pair (a fixed random sample when there are very many)."""
    index = np.arange(len(X))
    if len(X) > limit:
        index = np.sort(np.random.default_rng(0).choice(len(X), limit, replace=False))
    return pd.DataFrame({"x": X[index, features[0]], "y": X[index, features[1]],
                         "labelset_id": labelset_ids[index], "index": index})


def feature_usage(lower: np.ndarray, numerosity: np.ndarray) -> np.ndarray:
    """How many rules (numerosity-weighted: micro rules) specify each feature."""
    return (specified_matrix(lower).T.astype(np.int64)
            @ np.asarray(numerosity, dtype=np.int64).reshape(-1))


def features_by_usage(lower: np.ndarray, numerosity: np.ndarray) -> list[int]:
    """Every feature, the ones the rules specify most first (ties: data order)."""
    return [int(j) for j in np.argsort(-feature_usage(lower, numerosity), kind="stable")]


def most_specified(lower: np.ndarray, numerosity: np.ndarray, k: int = 2) -> list[int]:
    """The ``k`` features the population specifies most (numerosity-weighted), else the first.

    In high dimension most rules leave most features as wildcards; projecting on the features
    they do specify is what shows their shape.
    """
    return features_by_usage(lower, numerosity)[:k]


def specified_matrix(lower: np.ndarray) -> np.ndarray:
    """Which features each rule specifies (True) rather than leaves as a wildcard (False)."""
    return ~np.isnan(np.asarray(lower, dtype=float))
