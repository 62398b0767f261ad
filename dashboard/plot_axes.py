"""How one feature's values sit on an axis of the Population page: in the data's units (linear),
through a log or an order (rank) map for a heavy-tailed feature, or as one slot per category for
a nominal feature.

Every map is non-decreasing, so a rule's interval is an interval on the plot, exactly; the ticks
always name values in the data's units (numbers, or the categories themselves). A nominal axis
is drawn on numbers (slot ``k`` at ``k``, its points jittered within the slot, a rule's set as
bands over the runs of adjacent categories it allows): plotly's own category axis cannot place a
jittered point or a band's edge between two categories.

A row without a value is drawn as the fitted model reads it (``mlr_core/missing.py``): at its
feature's fill under ``missing="typical"``, else (``"fail"``, or a feature training never knew)
left out of a numeric axis and in the last slot of a category axis, *missing*. A category
training never saw is in that last slot too, which holds nothing else where the rows without a
value are drawn at the fill: it is then named *unseen*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from dashboard.figures import shorts
from dashboard.markdown_text import literal
from dashboard.sparse_features import column

if TYPE_CHECKING:
    from mlr_core.scaling import Scaling

#: What the page offers for a numeric feature's axis; "auto" picks by the column's skew.
AXIS_KINDS = ("auto", "linear", "log", "order")
#: A feature whose skewness is beyond this is heavy-tailed: most rows would crowd one end of a
#: linear axis. A long right tail gets a log axis, a long left tail an order axis.
HEAVY_SKEW = 2.0
#: Half the width of a category's (or a 0/1 value's) slot that a rule's band covers, and the
#: spread of the points' jitter inside it.
SLOT_HALF = 0.4
JITTER = 0.3
#: The shares of the rows at which an order axis puts its ticks (named by the values there).
ORDER_TICKS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)
#: Ticks closer than this share of the axis are one tick (a value many rows share).
TICK_GAP = 0.04
#: The names of a category axis's last slot (`PlotAxis.slot_name`): where it holds the rows
#: without a value, and where it holds only the categories training never saw.
MISSING = "missing"
UNSEEN = "unseen"


@dataclass(frozen=True)
class PlotAxis:
    """One feature's axis. ``kind``: "linear", "binary" (a 0/1 feature: two slots), "log",
    "order" or "category"; ``range``: the plot's range in plot coordinates; ``missing``: rows
    without a value (NaN), drawn at ``fill``, or where it is NaN left out of the plot (on a
    category axis: in a last slot, `slot_name`); ``unseen``: rows of a category training never
    saw, in that slot whatever the fill (no rule's set takes them); ``reason``: why this kind,
    for the caption."""

    kind: str
    range: tuple[float, float]
    missing: int = 0
    reason: str = ""
    categories: tuple | None = None
    #: "log": the shift (the plot shows log10(value - low + shift)); "order": (values, shares).
    low: float = 0.0
    shift: float = 1.0
    knots: tuple | None = None
    #: What the model reads a missing value of this feature as (a category axis: its code):
    #: ``Scaling.fills`` under ``missing="typical"``; NaN where it stays missing.
    fill: float = math.nan
    unseen: int = 0

    # --------------------------------------------------------------------- values

    def place(self, column) -> np.ndarray:
        """A column of the data (a category axis: its codes or its categories) on the plot, as
        the model reads it (`read`)."""
        return self.positions(self.read(self.coded(column)))

    def coded(self, column) -> np.ndarray:
        """The column as numbers: a nominal one as codes (`_codes`), the others as they are."""
        if self.kind == "category":
            return _codes(column, self.categories)
        return np.asarray(column, dtype=float)

    def read(self, values) -> np.ndarray:
        """``values`` (`coded`) as the model reads them: a missing one (NaN) as the ``fill``."""
        values = np.asarray(values, dtype=float)
        return np.where(np.isnan(values), self.fill, values)

    @property
    def slotted(self) -> int:
        """Rows in a category axis's last slot: those of an unseen category, and those without
        a value where the model reads none."""
        return self.unseen + (self.missing if math.isnan(self.fill) else 0)

    @property
    def slot_name(self) -> str:
        """What a category axis's last slot holds: *missing* values where the model reads none
        (they sit there), else only categories training never saw, *unseen*."""
        return MISSING if math.isnan(self.fill) else UNSEEN

    def positions(self, values) -> np.ndarray:
        """``values`` (data units; a category axis: codes, NaN or -1 for none) on the plot."""
        values = np.asarray(values, dtype=float)
        if self.kind == "log":
            return np.log10(np.maximum(values - self.low + self.shift, self.shift))
        if self.kind == "order":
            return np.interp(values, *self.knots, left=0.0, right=1.0)
        if self.kind == "category":
            known = (values >= 0) & (values < len(self.categories))
            return np.where(known, values, len(self.categories))  # the last slot
        return values

    def texts(self, values) -> list[str]:
        """``values`` (`coded`) as a person reads them in a hover: the number, the category (one
        training never saw: its slot's `slot_name`), or missing (with the value the model reads,
        where it reads one)."""
        values = np.asarray(values, dtype=float)
        missing = MISSING
        if not math.isnan(self.fill):
            missing += f" (read as {self._text(self.fill)})"
        return [missing if math.isnan(v) else self._text(v) for v in values]

    def _text(self, value: float) -> str:
        if self.kind == "category":
            known = 0 <= value < len(self.categories)
            return str(self.categories[int(value)]) if known else self.slot_name
        return format(value, "g")

    def jittered(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Points on a slot axis spread within their slot (they would all sit on one spot)."""
        if self.kind in ("binary", "category"):
            return positions + rng.uniform(-JITTER, JITTER, len(positions))
        return positions

    # ---------------------------------------------------------------------- rules

    def spans(self, lower, upper, sets=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stretches of the plot rules' tests on this feature cover, as (rule, start, end):
        one per rule for an interval (the whole range for a wildcard, NaN bounds), one per run
        of adjacent allowed categories for a set (``sets``: bitmasks of codes, `NO_SET` where no
        set is tested)."""
        lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
        start, end = self.range
        rules = np.arange(len(lower))
        if self.kind == "category":
            return self._bands(lower, sets)
        if self.kind == "binary":
            takes_0, takes_1 = ~(lower > 0.0), ~(upper < 1.0)  # NaN (wildcard) takes both
            lo = np.where(takes_0, -SLOT_HALF, np.where(takes_1, 1 - SLOT_HALF, np.nan))
            hi = np.where(takes_1, 1 + SLOT_HALF, np.where(takes_0, SLOT_HALF, np.nan))
        else:
            lo, hi = self.positions(lower), self.positions(upper)
        return (rules, np.clip(np.where(np.isnan(lo), start, lo), start, end),
                np.clip(np.where(np.isnan(hi), end, hi), start, end))

    def _bands(self, lower, sets) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`spans` on a category axis: a rule's set as one band per run of adjacent categories
        it allows; a wildcard (or any test, without ``sets``) spans the axis."""
        n = len(self.categories)
        tested = ~np.isnan(lower) if sets is not None else np.zeros(len(lower), dtype=bool)
        masks = np.asarray(sets if sets is not None else np.zeros(len(lower)), dtype=np.uint64)
        allowed = (masks[:, None] >> np.arange(n, dtype=np.uint64)) & np.uint64(1) == 1
        allowed &= tested[:, None]
        edge = np.zeros((len(lower), 1), dtype=bool)
        first = allowed & ~np.hstack([edge, allowed[:, :-1]])  # a run starts: none before
        last = allowed & ~np.hstack([allowed[:, 1:], edge])  # a run ends: none after
        rule, start = np.nonzero(first)  # row-major: the runs of each rule in order, and
        end = np.nonzero(last)[1]  # the i-th end closes the i-th start
        spanning = np.flatnonzero(~tested)
        order = np.argsort(np.concatenate([rule, spanning]), kind="stable")
        low, high = self.range
        return (np.concatenate([rule, spanning])[order],
                np.concatenate([start - SLOT_HALF, np.full(len(spanning), low)])[order],
                np.concatenate([end + SLOT_HALF, np.full(len(spanning), high)])[order])

    # ---------------------------------------------------------------------- ticks

    def settings(self) -> dict:
        """Plotly axis settings: ticks named in the data's units."""
        if self.kind == "linear":
            return {}
        if self.kind == "binary":
            return {"tickmode": "array", "tickvals": [0, 1], "ticktext": ["0", "1"]}
        if self.kind == "category":
            names = shorts(list(map(str, self.categories)), 18)
            slots = len(names) + (self.slotted > 0)
            return {"tickmode": "array", "tickvals": list(range(slots)),
                    "ticktext": names + ([self.slot_name] if self.slotted else []),
                    "tickangle": -30 if max(map(len, names)) > 8 else 0, "zeroline": False}
        values = self._tick_values()
        shown, where = [], []
        for value, at in zip(values, self.positions(values).tolist(), strict=True):
            if not where or at - where[-1] >= TICK_GAP * (self.range[1] - self.range[0]):
                shown.append(value)
                where.append(at)
        return {"tickmode": "array", "tickvals": where,  # no zero line: 0 is no value here
                "ticktext": [tick_text(v) for v in shown], "zeroline": False}

    def _tick_values(self) -> list[float]:
        if self.kind == "order":
            values, shares = self.knots
            return [float(values[np.searchsorted(shares, q, side="left").clip(0, len(values) - 1)])
                    for q in ORDER_TICKS]
        top = 10 ** self.range[1] + self.low - self.shift  # the greatest value shown
        # from the decade of the shift: the least value (positive data) or the first step above
        # the least (counts: 1 above 0)
        decades = range(math.floor(math.log10(self.shift)),
                        math.ceil(math.log10(max(top, self.shift))) + 1)
        steps = (1, 2, 5) if len(decades) <= 4 else (1,)
        nice = [m * 10.0**k for k in decades for m in steps]
        return [self.low, *(v for v in nice if self.low < v <= top)]

    def words(self, name: str) -> str:
        """The caption's sentence on this axis (Markdown, the names in it `literal`)."""
        name = literal(name)
        said = {"log": "a log axis (ticks in the data's units)",
                "order": "an order axis: rows spread by rank, ticks at quantiles in the data's "
                         "units",
                "category": "one slot per category; a rule's set is drawn as bands"}.get(self.kind)
        parts = [f"**{name}**: {said}{self.reason}."] if said else []
        n, one = self.missing, self.missing == 1
        if n and not math.isnan(self.fill):
            parts.append(f"{_rows(n)} without a value of **{name}** {'is' if one else 'are'} "
                         f"drawn at the value the model reads: {literal(self._text(self.fill))}.")
        elif n and self.kind != "category":
            parts.append(f"{_rows(n)} without a value of **{name}** {'is' if one else 'are'} "
                         "left out of the plot.")
        if self.slotted and self.kind == "category":
            which = ("with a category training never saw" if not math.isnan(self.fill) else
                     "without a value (or with a category training never saw)")
            one = self.slotted == 1
            parts.append(f"{_rows(self.slotted)} {which} {'sits' if one else 'sit'} in the "
                         f"slot *{self.slot_name}*: a rule's set never takes "
                         f"{'it' if one else 'them'}, a wildcard does.")
        return " ".join(parts)


def _rows(count: int) -> str:
    return f"{count:,} row{'s' if count != 1 else ''}"


def tick_text(value: float) -> str:
    """A tick's value as a person reads it: whole numbers and thousands in full (``1,000``,
    ``25,400``), the rest to three significant digits."""
    if abs(value) < 1e9 and (abs(value) >= 1000 or value == round(value)):
        return f"{value:,.0f}"
    return format(value, ".3g")


def axis_of(values, categories: tuple | None = None, kind: str = "auto", pad: float = 0.03,
            fill: float = math.nan) -> PlotAxis:
    """The axis of one feature's column: its categories' slots when it has ``categories``,
    else ``kind`` ("auto": by the skew of the known values, `HEAVY_SKEW`), a 0/1 feature's two
    slots, or linear for a column with too few distinct values to stretch. ``fill``: what the
    model reads a missing value as (`PlotAxis.fill`), within the known values' range (it is
    the training rows' typical value)."""
    if categories is not None:
        codes = _codes(values, categories)
        missing = int(np.isnan(codes).sum())
        unseen = int((~np.isnan(codes) & ~((codes >= 0) & (codes < len(categories)))).sum())
        axis = PlotAxis("category", (0.0, 0.0), missing, categories=tuple(categories),
                        fill=fill, unseen=unseen)
        slots = len(categories) + (axis.slotted > 0)
        return replace(axis, range=(-0.5, slots - 0.5))
    values = np.asarray(values, dtype=float)
    known = values[~np.isnan(values)]
    missing = len(values) - len(known)
    if binary_axis(known):
        return PlotAxis("binary", (-SLOT_HALF - pad, 1.0 + SLOT_HALF + pad), missing, fill=fill)
    distinct = np.unique(known)
    reason = ""
    if kind == "auto":
        kind, reason = _auto(known, len(distinct))
    if kind == "linear" or len(distinct) < 3:
        return PlotAxis("linear", linear_range(distinct, pad), missing, reason, fill=fill)
    if kind == "log":
        low = float(distinct[0])
        shift = low if low > 0 else float(distinct[1] - low)  # 0 sits a decade below the next
        ends = np.log10(distinct[[0, -1]] - low + shift)
        span = ends[1] - ends[0]
        return PlotAxis("log", (ends[0] - pad * span, ends[1] + pad * span), missing, reason,
                        low=low, shift=shift, fill=fill)
    from mlr_core.scaling import rank_knots  # the engine's own order axis (imports numba)

    return PlotAxis("order", (-pad, 1.0 + pad), missing, reason, knots=rank_knots(known),
                    fill=fill)


def axes_of(X, features: tuple[int, int], scaling: Scaling | None = None,
            kinds: tuple[str, str] = ("auto", "auto")) -> tuple[PlotAxis, PlotAxis]:
    """The two axes of a feature pair of ``X``; ``scaling``: the fitted model's
    (``Scaling.categories``, its category lists, and ``Scaling.fills``, what it reads a
    missing value as), None before a model is fitted; ``kinds``: the user's choice per axis
    for a numeric feature."""
    categories = fills = None
    if scaling is not None:
        categories, fills = scaling.categories, scaling.fills
    return tuple(axis_of(column(X, j), None if categories is None else categories[j], kind,
                         fill=math.nan if fills is None else float(fills[j]))
                 for j, kind in zip(features, kinds, strict=True))


def binary_axis(values: np.ndarray) -> bool:
    """Whether a feature only takes the values 0 and 1 (a word present or not)."""
    values = np.asarray(values)
    return bool(values.size) and bool(np.isin(values, (0.0, 1.0)).all())


def linear_range(values: np.ndarray, pad: float = 0.03) -> tuple[float, float]:
    """Min/max of a feature's known values with a small margin (fixed ranges keep live redraws
    from jumping); (0, 1) for none."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return (0.0, 1.0)
    low, high = float(values.min()), float(values.max())
    span = high - low if high > low else max(abs(high), 1.0)
    return (low - pad * span, high + pad * span)


def _auto(known: np.ndarray, n_distinct: int) -> tuple[str, str]:
    """The kind for a numeric column, and why, in the caption's words."""
    if n_distinct < 3:
        return "linear", ""
    from scipy.stats import skew  # slow to import: not before a first page needs it

    tail = float(skew(known))
    if tail > HEAVY_SKEW:
        return "log", f", chosen as its skew {tail:.1f} is over {HEAVY_SKEW:g}"
    if tail < -HEAVY_SKEW:
        return "order", f", chosen as its skew {tail:.1f} is under {-HEAVY_SKEW:g}"
    return "linear", ""


def _codes(values, categories) -> np.ndarray:
    """A nominal column as codes: as they are when numeric (the engine's codes), else looked up
    in ``categories`` (-1 for one it does not list, NaN for a missing value)."""
    column = pd.Series(values)
    if column.dtype.kind in "fiu":
        return column.to_numpy(float)
    codes = pd.Index(categories).get_indexer(column.astype(object)).astype(float)
    codes[column.isna().to_numpy()] = np.nan
    return codes
