"""Pure numpy/pandas helpers that shape engine output for the figures and tables.

Kept apart from Streamlit so that filtering, projection and labelset naming are unit-testable and
shared by every page instead of being re-derived in each view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dashboard import plot_axes
from dashboard.bounds import RuleBounds
from dashboard.plot_axes import PlotAxis
from dashboard.sparse_features import column
from mlr_core.rules import category_text, labelset_text

#: Instances drawn on the projection at most. Each SVG marker costs the browser about 0.3 ms
#: to draw, and a live page was drawn again every second or so: yeast's 2,417 points took
#: 0.6-0.9 s of a 1.0-1.3 s redraw in headless Chromium (docs/classroom.md), and a click in that
#: tab waited behind it. A fixed random sample of this many shows the same cloud.
MAX_POINTS = 1000


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


def project_rules(lower: np.ndarray, upper: np.ndarray, axes: tuple[PlotAxis, PlotAxis],
                  sets: np.ndarray | None = None) -> pd.DataFrame:
    """The rectangles of rules on two features, given their bounds (rules x 2, NaN = wildcard)
    and their sets (rules x 2, ``bounds.NO_SET`` where a rule tests none; None: no nominal
    feature): one row per rectangle, ``rule`` its rule's row. A wildcard spans the axis; a set
    on a category axis is one band per run of adjacent categories (`PlotAxis.spans`), so a
    rule may be several rectangles; on a 0/1 axis a rule covers the slot of each value it
    accepts."""
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    x, y = (pd.DataFrame(dict(zip(("rule", f"{name}0", f"{name}1"), axis.spans(
                lower[:, k], upper[:, k], None if sets is None else sets[:, k]), strict=True)))
            for k, (name, axis) in enumerate(zip("xy", axes, strict=True)))
    return x.merge(y, on="rule")  # each x stretch of a rule with each y stretch of it


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
    bounds: RuleBounds,
    X: np.ndarray,
    features: tuple[int, int],
    *,
    axes: tuple[PlotAxis, PlotAxis] | None = None,
    only_specified: bool = False,
    **filters,
) -> tuple[pd.DataFrame, int, tuple[PlotAxis, PlotAxis]]:
    """The Population page's rules: filtered and capped (``select_rules``) with their rectangles.

    ``only_specified`` keeps the rules that specify both features (a rule with a wildcard on one
    of them is a band across the whole plot, and on real data most rules are). ``axes``: how the
    two features are drawn (default: `plot_axes.axes_of` the data, no feature nominal). Returns
    the chosen rules joined with x0/x1/y0/y1, one row per rectangle (a rule's set on a category
    axis may be several: count rules by the index), how many passed the filters, and the axes
    (their ranges are the data's, so live redraws do not jump).
    """
    axes = axes or plot_axes.axes_of(X, features)
    lower, upper = bounds.columns(features)
    keep = ~np.isnan(lower).any(axis=1) if only_specified else np.ones(len(rules), dtype=bool)
    chosen, n_passed = select_rules(rules[keep].assign(_row=np.flatnonzero(keep)), **filters)
    rows = chosen.pop("_row").to_numpy()
    sets = bounds.sets(features)
    rects = project_rules(lower[rows], upper[rows], axes, None if sets is None else sets[rows])
    drawn = chosen.iloc[rects.pop("rule").to_numpy()]
    return drawn.assign(**{c: rects[c].to_numpy() for c in rects}), n_passed, axes


def instance_points(
    X: np.ndarray, labelset_ids: np.ndarray, features: tuple[int, int], limit: int = MAX_POINTS,
    axes: tuple[PlotAxis, PlotAxis] | None = None,
) -> pd.DataFrame:
    """The instances on a feature pair (a fixed random sample when there are very many), placed
    on ``axes`` (default: `plot_axes.axes_of` the data); on a slot axis (0/1, categories) the
    points are jittered within their slot, or they would all sit on a few spots; a missing value
    is drawn as the model reads it (`PlotAxis.read`). ``x_text`` and ``y_text`` are their values
    as the hover reads them (in the data's units)."""
    axes = axes or plot_axes.axes_of(X, features)
    n = X.shape[0]
    index = np.arange(n)
    if n > limit:
        index = np.sort(np.random.default_rng(0).choice(n, limit, replace=False))
    rng = np.random.default_rng(1)
    xy = {}
    for name, feature, axis in zip("xy", features, axes, strict=True):
        coded = axis.coded(column(X, feature)[index])
        xy[name] = axis.jittered(axis.positions(axis.read(coded)), rng)
        xy[f"{name}_text"] = axis.texts(coded)
    return pd.DataFrame({**xy, "labelset_id": labelset_ids[index], "index": index})


def sample_words(n_drawn: int, n: int) -> str:
    """What a chart's caption says of its points when they are a sample of the ``n`` instances
    (`instance_points`), nothing when all are drawn."""
    return (f"Points: a fixed random sample of {n_drawn:,} of the {n:,} instances."
            if n_drawn < n else "")


def point_of(points: pd.DataFrame, X: np.ndarray, labelset_ids: np.ndarray,
             features: tuple[int, int], index: int,
             axes: tuple[PlotAxis, PlotAxis] | None = None) -> pd.DataFrame:
    """The row of ``points`` of instance ``index`` (where its jittered point is drawn); the
    instance itself, placed on ``axes``, when the drawing's sample left it out."""
    row = points[points["index"] == index]
    if len(row):
        return row
    axes = axes or plot_axes.axes_of(X, features)
    x, y = (axis.place(column(X[[index]], j))[0] for axis, j in zip(axes, features, strict=True))
    return pd.DataFrame({"x": [x], "y": [y], "labelset_id": [labelset_ids[index]],
                         "index": [index]})


def features_by_usage(usage: np.ndarray) -> list[int]:
    """Every feature, the ones the rules specify most first (ties: data order)."""
    return [int(j) for j in np.argsort(-np.asarray(usage), kind="stable")]


#: Features among which the default pair is sought (the most used ones): pairs of all the
#: features of wide data would take a d x d matrix.
PAIR_CANDIDATES = 60


def shared_pair(bounds: RuleBounds, numerosity) -> tuple[tuple[int, int], int]:
    """The two features that the most rules specify together (numerosity-weighted), in data
    order, and how many rules that is. On wide data the two features used most are rarely
    specified by the same rule; this pair shows rectangles. When no rule specifies two
    features, the two used most and 0; a single feature is paired with itself."""
    usage = bounds.usage(numerosity)
    ranked = features_by_usage(usage)[:PAIR_CANDIDATES]
    if len(ranked) == 1:
        return (ranked[0], ranked[0]), int(usage[ranked[0]])
    shared = bounds.shared_usage(ranked, numerosity)
    np.fill_diagonal(shared, -1)
    a, b = np.unravel_index(int(np.argmax(shared)), shared.shape)
    if shared[a, b] <= 0:
        a, b = 0, 1
    pair = sorted((ranked[a], ranked[b]))
    return (pair[0], pair[1]), max(int(shared[a, b]), 0)


def specified_matrix(lower: np.ndarray) -> np.ndarray:
    """Which features each rule specifies (True) rather than leaves as a wildcard (False)."""
    return ~np.isnan(np.asarray(lower, dtype=float))


def feature_values(feature_names: Sequence[str], row: np.ndarray,
                   categories: Sequence | None = None,
                   missing: Sequence[str] | None = None) -> pd.DataFrame:
    """One instance's feature values as the Explain page lists them: a missing value (NaN)
    reads ``missing[j]`` (how the model reads it, ``Scaling.fill_text``: ``missing (read as
    3.2)``) or ``missing``, a nominal feature's code its category (``categories[j]``, written as
    the rules write it), the others numbers (``g``, six significant digits)."""
    kinds = categories if categories is not None else [None] * len(row)
    missing = missing if missing is not None else ["missing"] * len(row)
    return pd.DataFrame({"feature": list(feature_names),
                         "value": [m if np.isnan(v) else format(v, "g") if c is None
                                   else category_text(c[int(v)])
                                   for v, c, m in zip(row, kinds, missing, strict=True)]})


def feature_table(X: np.ndarray, feature_names: Sequence[str],
                  categories: Sequence | None = None) -> pd.DataFrame:
    """The features ``X`` (rows of a dataset's columns, named ``feature_names``) as a table of
    numbers, a nominal feature's codes as its categories (written as the rules write them;
    empty where missing)."""
    table = pd.DataFrame(X, columns=list(feature_names))
    for j, c in enumerate(categories if categories is not None else []):
        if c is not None:
            words = np.array([category_text(v) for v in c] + [None], dtype=object)
            table.isetitem(j, words[np.where(np.isnan(X[:, j]), -1, X[:, j]).astype(np.int64)])
    return table
