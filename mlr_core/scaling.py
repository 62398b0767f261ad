"""How a feature's values reach the rules' [0, 1] axis: by their range (min-max, the paper's)
or by their order (rank knots), and back to the data's units exactly (float bisection)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from mlr_core.errors import require
from mlr_core.model_file import booleans, floats
from mlr_core.nominal import checked_categories, levels
from mlr_core.rules import binary_features, category_text
from mlr_core.sparse_rows import SparseRows, column_stats

MAX_KNOTS = 4096
"""The most knots a feature's rank axis keeps (its quantiles beyond that many distinct values):
what bounds a model's memory and file whatever the training rows."""


@dataclass(frozen=True)
class Scaling:
    """Per feature, how values in the data's units reach the rules' [0, 1] axes: the training
    range (``data_min`` to ``data_max``), whether the training values were 0 and 1 only
    (``binary``: a word present or absent, whose conditions then read ``word = 1`` in every rule
    text), and on the rank axis the ``knots``: per feature None (two values or fewer: the range
    is the axis) or (values, positions), the distinct training values (at most `MAX_KNOTS`, the
    quantiles beyond) at their mid-rank positions in the training column, put on [0, 1].

    A value lies on its feature's axis by linear interpolation between the knots around it (two
    knots, the range's ends at 0 and 1, without ``knots``: min-max scaling, the paper's), clipped
    to [0, 1] beyond the training range. The map is non-decreasing over every float, so a
    condition on the axis accepts an interval of the data's units (`accepted`), and on the rank
    axis the engine learns from the values' order alone: a strictly increasing map of a feature
    moves its knots, not its training rows' positions.

    ``categories``: None, or per feature None (numeric) or its category list (nominal,
    ``mlr_core/nominal.py``): a nominal feature's values reach its axis as their codes,
    unchanged (its range is that of the codes; it is not ``binary`` and has no knots).

    ``shares``: None (no nominal feature), or per feature and category code the share of the
    feature's known training values that are that category (0 for a numeric feature and past
    its categories): what a nominal test allows of the training rows, as an interval on the
    rank axis covers a share of them (covering's `random_set`; the kernels read it as
    `share_table`).

    ``fills``: None (``missing="fail"``: a missing value stays NaN on its axis and fails every
    test) or per feature the value a missing one reads as (``missing="typical"``,
    `typical_values`), NaN for a feature with no known training value, whose missing values
    then stay missing (``mlr_core/missing.py``)."""

    data_min: np.ndarray
    data_max: np.ndarray
    binary: np.ndarray
    knots: tuple | None = None
    categories: tuple | None = None
    fills: np.ndarray | None = None
    shares: np.ndarray | None = None

    @classmethod
    def of(cls, X: np.ndarray, axis: str = "minmax", categories: tuple | None = None,
           missing: str = "fail") -> Scaling:
        """The scaling of training rows ``X`` (dense, or canonical CSR: `column_stats`), from
        their known values: the range, knots and, with ``missing="typical"``, the fills
        (`typical_values`); a column with none known gets the range 0 to 0. A feature
        with ``categories`` (``mlr_core/nominal.py``; dense rows only) keeps its codes."""
        scaling = cls._ranges_of(X, axis, categories)
        if missing == "fail":
            return scaling
        return replace(scaling, fills=typical_values(X, scaling))

    @classmethod
    def _ranges_of(cls, X, axis, categories) -> Scaling:
        if sp.issparse(X):
            low, high, binary, counted = column_stats(X, axis == "rank")
            knots = tuple(counted_knots(*c) for c in counted) if axis == "rank" else None
            return cls(low, high, binary, knots)
        knots = tuple(rank_knots(column) for column in X.T) if axis == "rank" else None
        binary = binary_features(X)
        if categories is not None:
            nominal = [c is not None for c in categories]
            binary &= ~np.array(nominal)
            if knots is not None:
                knots = tuple(None if n else k for n, k in zip(nominal, knots, strict=True))
        known = ~np.isnan(X)
        data_min = np.where(known, X, np.inf).min(axis=0, initial=np.inf)
        data_max = np.where(known, X, -np.inf).max(axis=0, initial=-np.inf)
        unknown = ~known.any(axis=0)
        return cls(np.where(unknown, 0.0, data_min), np.where(unknown, 0.0, data_max),
                   binary, knots, categories, shares=category_shares(X, categories))

    @cached_property
    def levels(self) -> np.ndarray:
        """Per feature its number of categories (0: numeric), empty when none is nominal."""
        return levels(self.categories, len(self.data_min))

    @property
    def share_table(self) -> np.ndarray:
        """`shares` as the kernels read it (``Config.shares``): empty when no feature is
        nominal."""
        return np.zeros((0, 0)) if self.shares is None else self.shares

    @cached_property
    def zero(self) -> np.ndarray:
        """Where each feature's value 0 lies on its axis (what sparse rows do not store)."""
        d = len(self.data_min)
        return self.positions(np.zeros(d), np.arange(d))

    @property
    def numeric(self) -> np.ndarray:
        """Per feature, whether its values are numbers in an order beyond 0 and 1: neither
        nominal nor ``binary``."""
        return ~self.binary & (self.levels == 0 if len(self.levels) else True)

    @property
    def axis(self) -> str:
        return "minmax" if self.knots is None else "rank"

    @property
    def missing(self) -> str:
        """How a missing value is read: ``"typical"`` (as its feature's fill) or ``"fail"``."""
        return "fail" if self.fills is None else "typical"

    @property
    def missing_words(self) -> str:
        """How a missing value is read, a sentence (the exports' and the scorecard's notes)."""
        if self.fills is None:
            return "A test on a missing value fails."
        return ("A missing value reads as its feature's typical training value (the mean of "
                "its known values; the more frequent value of a 0/1 or nominal feature).")

    def filled(self, values: np.ndarray, features=None) -> np.ndarray:
        """``values`` (a matrix of the training width, or aligned with ``features``) with each
        missing one (NaN) read as its feature's fill; ``values`` itself where none is missing
        or there are no fills (``missing="fail"``)."""
        values = np.asarray(values, dtype=np.float64)
        if self.fills is None:
            return values
        missing = np.isnan(values)
        if not missing.any():
            return values
        fills = self.fills if features is None else self.fills[features]
        return np.where(missing, fills, values)

    def fill_text(self, j: int) -> str:
        """A missing value of feature ``j`` as Explain lists it: ``missing (read as 3.2)``,
        ``missing (read as red)``, or ``missing`` where it stays missing (a test on it fails)."""
        if self.fills is None or np.isnan(self.fills[j]):
            return "missing"
        fill = self.fills[j]
        if self.categories is not None and self.categories[j] is not None:
            return f"missing (read as {category_text(self.categories[j][int(fill)])})"
        return f"missing (read as {fill:g})"

    def fill_value(self, j: int):
        """Feature ``j``'s fill as the data holds it (a nominal feature's category), for the
        exports and the scorecard; None where a missing value stays missing."""
        if self.fills is None or np.isnan(self.fills[j]):
            return None
        if self.categories is not None and self.categories[j] is not None:
            return self.categories[j][int(self.fills[j])]
        return float(self.fills[j])

    @property
    def span(self) -> np.ndarray:
        """The width of each feature's range; 1 for a constant feature, so that a value off it
        still scales (and reads back) one unit per unit."""
        span = self.data_max - self.data_min
        return np.where(span > 0, span, 1.0)

    @cached_property
    def _pieces(self) -> _Pieces:
        return _Pieces.of(self)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """X (a float matrix of the training width) on the [0, 1] axes, clipped there; a
        nominal feature's codes as they are; a canonical CSR matrix
        (``sparse_rows.checked_csr``) as `SparseRows`."""
        if sp.issparse(X):
            if self.fills is not None and np.isnan(X.data).any():
                X = X.copy()
                X.data = self.filled(X.data, X.indices)
            return SparseRows.scaled(X, self.positions)
        X = self.filled(X)
        out = self._pieces.transform(X)
        if self.categories is not None:
            nominal = np.flatnonzero(self.levels)
            out[:, nominal] = np.asarray(X, dtype=np.float64)[:, nominal]
        return out

    def positions(self, values, features) -> np.ndarray:
        """Each value on the axis of its feature (aligned arrays): `transform`'s arithmetic."""
        return self._pieces.positions(values, features)

    def accepted(self, features, center, spread) -> tuple[np.ndarray, np.ndarray]:
        """The values in the data's units that conditions ``|scaled - center| <= spread`` on
        ``features`` accept (aligned arrays), exactly as matching computes it (`transform`, then
        the kernel's test): each accepts the values from ``lower`` to ``upper``, -inf or inf
        where it reaches the end of the axis (values beyond the training range are clipped
        there), ``lower > upper`` when it accepts none. Found by bisection over the floats
        between a value the axis puts at 0 (the training minimum) and one it puts at 1."""
        features = np.asarray(features, dtype=np.int64)
        center, spread = np.asarray(center, dtype=np.float64), np.asarray(spread, dtype=np.float64)
        low, high = self.data_min[features], self.data_max[features]
        high = np.where(high > low, high, low + 1.0 + 2.0 * np.abs(low))  # constant: span 1

        def offset(x):  # what the kernel compares with the spread
            return self.positions(x, features) - center

        lower = _first_true(lambda x: offset(x) >= -spread, low, high)
        upper = _first_true(lambda x: offset(x) > spread, low, high, last_false=True)
        lower = np.where(0.0 - center >= -spread, -np.inf, lower)  # accepts the axis's start
        upper = np.where(1.0 - center <= spread, np.inf, upper)  # accepts its end
        none = (1.0 - center < -spread) | (0.0 - center > spread)
        return np.where(none, np.inf, lower), np.where(none, -np.inf, upper)

    def unscale(self, lower: np.ndarray, upper: np.ndarray):
        """Bounds on the axes (rules x features, NaN = wildcard) in the data's units, for
        reading (`accepted` gives the exact ones)."""
        return self._pieces.unscale(lower), self._pieces.unscale(upper)

    def unscale_at(self, features, lower: np.ndarray, upper: np.ndarray):
        """`unscale` of aligned (feature, lower, upper) bounds, the same numbers cell for cell."""
        return self._pieces.unscale_at(lower, features), self._pieces.unscale_at(upper, features)

    def to_dict(self) -> dict:
        out = {"data_min": self.data_min.tolist(), "data_max": self.data_max.tolist(),
               "binary": self.binary.tolist()}
        if self.knots is not None:
            out["knots"] = [None if k is None else [k[0].tolist(), k[1].tolist()]
                            for k in self.knots]
        if self.categories is not None:
            out["categories"] = [None if c is None else list(c) for c in self.categories]
        if self.shares is not None:
            out["category_shares"] = [None if not n else self.shares[j, :n].tolist()
                                      for j, n in enumerate(self.levels)]
        if self.fills is not None:
            out["fills"] = [None if np.isnan(v) else v for v in self.fills.tolist()]
        return out

    @classmethod
    def from_dict(cls, data: dict, features) -> Scaling:
        """The scaling saved by `to_dict` (a file without ``knots``: min-max), checked."""
        d = len(features)
        data_min = floats(data["data_min"], d, "data_min")
        data_max = floats(data["data_max"], d, "data_max")
        require((data_min <= data_max).all(), "data_min must not exceed data_max.")
        binary = booleans(data["binary"], d, "binary")
        zero_one = np.isin(data_min, (0.0, 1.0)) & np.isin(data_max, (0.0, 1.0))
        j = int(np.argmax(binary & ~zero_one))  # the first feature marked 0/1 wrongly, if any
        require(not binary[j] or zero_one[j],
                f"binary marks feature {features[j]!r} as taking only 0 and 1, but its "
                f"training range is {data_min[j]:g} to {data_max[j]:g}.")
        knots = data.get("knots")
        if knots is not None:
            require(isinstance(knots, list) and len(knots) == d,
                    f"knots must be a list of {d} entries, one per feature (null: its range).")
            knots = tuple(_knots(knot, data_min[j], data_max[j], features[j])
                          for j, knot in enumerate(knots))
        categories = checked_categories(data.get("categories"), features)
        if categories is not None:
            count = levels(categories, d)
            j = int(np.argmax((count > 0) & ((data_max >= count) | binary)))
            require(count[j] == 0 or (data_max[j] < count[j] and not binary[j]),
                    f"feature {features[j]!r} has {count[j]} categories, but its codes reach "
                    f"{data_max[j]:g} or it is marked binary: the category list does not "
                    "belong to this model.")
        scaling = cls(data_min, data_max, binary, knots, categories,
                      shares=_shares(data.get("category_shares"), categories, features))
        if data.get("fills") is None:  # written before fills, or with missing="fail"
            return scaling
        return replace(scaling, fills=_fills(data["fills"], scaling, features))


def category_shares(X: np.ndarray, categories: tuple | None) -> np.ndarray | None:
    """`Scaling.shares` of training rows ``X`` (dense: a nominal feature's rows are), None
    when no feature is nominal."""
    if categories is None:
        return None
    count = levels(categories, X.shape[1])
    shares = np.zeros((X.shape[1], count.max()))
    for j in np.flatnonzero(count):
        codes = X[:, j][~np.isnan(X[:, j])].astype(np.int64)
        shares[j, :count[j]] = np.bincount(codes, minlength=count[j]) / max(codes.size, 1)
    return shares


def _shares(saved, categories: tuple | None, features) -> np.ndarray | None:
    """A saved model's `Scaling.shares`, checked: per feature null (numeric) or one share in
    [0, 1] per category, summing to at most 1. A file written before the shares gives each
    category an equal share (they steer further training only, never a prediction)."""
    if categories is None:
        require(saved is None, "category_shares are given but no feature is nominal.")
        return None
    count = levels(categories, len(features))
    if saved is None:
        return np.where(np.arange(count.max()) < count[:, None],
                        1.0 / np.maximum(count, 1)[:, None], 0.0)
    require(isinstance(saved, list) and len(saved) == len(features)
            and all((v is None) == (n == 0) for v, n in zip(saved, count, strict=True)),
            f"category_shares must be a list of {len(features)} entries, one per feature: null "
            "for a numeric one, else a list of its categories' shares.")
    shares = np.zeros((len(features), count.max()))
    for j in np.flatnonzero(count):
        values = floats(saved[j], int(count[j]), f"feature {features[j]!r}'s category_shares")
        require(((values >= 0) & (values <= 1)).all() and values.sum() <= 1 + 1e-9,
                f"feature {features[j]!r}'s category_shares must be shares of its training "
                "rows: each in [0, 1], summing to at most 1.")
        shares[j, :count[j]] = values
    return shares


def typical_values(X, scaling: Scaling) -> np.ndarray:
    """Per feature of training rows ``X`` (dense, or canonical CSR, whose absent values are 0s
    and whose stored NaN are missing) the value a missing one reads as under
    ``missing="typical"``: a 0/1 feature's more frequent value (1 on a tie), a nominal
    feature's most frequent category code (the first on a tie), any other's mean of its known
    values (within its range, whatever the rounding); NaN where no value is known, so that its
    missing values stay missing and no rule tests it (covering and mutation never centre a test
    on NaN). Measured against mean imputation and "a test on a missing value fails" in
    ``docs/missing_values.md``."""
    if sp.issparse(X):  # stored values added in row order, as the dense sum adds them
        missing = np.isnan(X.data)
        count = X.shape[0] - np.bincount(X.indices[missing], minlength=X.shape[1])
        total = np.bincount(X.indices, np.where(missing, 0.0, X.data), X.shape[1])
        mean = total / np.maximum(count, 1)
    else:
        known = ~np.isnan(X)
        count = known.sum(axis=0)
        mean = np.where(known, X, 0.0).sum(axis=0) / np.maximum(count, 1)
    fills = np.clip(mean, scaling.data_min, scaling.data_max)
    fills = np.where(scaling.binary, (mean >= 0.5).astype(np.float64), fills)
    for j in np.flatnonzero(scaling.levels):
        codes = X[:, j][known[:, j]].astype(np.int64)
        fills[j] = np.bincount(codes, minlength=1).argmax()
    return np.where(count > 0, fills, np.nan)


def _fills(saved, scaling: Scaling, features) -> np.ndarray:
    """A saved model's fills, checked: one per feature, null only for a feature with no known
    training value (range 0 to 0), else a finite number within the training range; 0 or 1 for a
    0/1 feature, a category code for a nominal one."""
    d = len(features)
    require(isinstance(saved, list) and len(saved) == d,
            f"fills must be a list of {d} entries, one per feature (null: no value known).")
    fills = floats([0.0 if v is None else v for v in saved], d, "fills")
    unknown = np.array([v is None for v in saved], dtype=bool)
    low, high = scaling.data_min, scaling.data_max
    count = levels(scaling.categories, d) if scaling.categories is not None else np.zeros(d)
    wrong = (unknown & ((low != 0.0) | (high != 0.0))) | (~unknown & (
        (fills < low) | (fills > high)
        | (scaling.binary & (fills != 0.0) & (fills != 1.0))
        | ((count > 0) & (fills != np.round(fills)))))
    j = int(np.argmax(wrong))
    require(not wrong[j],
            f"fills: feature {features[j]!r}'s fill {saved[j]!r:.40} is not a value its "
            f"training could give (its range is {low[j]:g} to {high[j]:g}): the fills do not "
            "belong to this model.")
    return np.where(unknown, np.nan, fills)


def rank_knots(column: np.ndarray, max_knots: int = MAX_KNOTS):
    """A training column's rank axis: (values, positions), its distinct values (at most
    ``max_knots``: the quantiles, ends kept) at their mid-rank positions (the share of rows
    below, plus half of those equal), put on [0, 1] from the least to the greatest; None for
    two distinct values or fewer, whose axis is their range. Missing values (NaN) are left
    out: the knots are the known values'."""
    return counted_knots(*np.unique(column[~np.isnan(column)], return_counts=True), max_knots)


def counted_knots(values: np.ndarray, counts: np.ndarray, max_knots: int = MAX_KNOTS):
    """`rank_knots` of a column given as its distinct values, ascending, and their counts."""
    if len(values) <= 2:
        return None
    mid = np.cumsum(counts) - 0.5 * counts
    positions = (mid - mid[0]) / (mid[-1] - mid[0])
    if len(values) > max_knots:
        keep = np.unique(np.searchsorted(positions, np.linspace(0.0, 1.0, max_knots)))
        values, positions = values[keep], positions[keep]
    return values, positions


def _knots(knot, low, high, feature):
    """A saved feature's knots, checked: None, or increasing values from ``low`` to ``high`` at
    increasing positions from 0 to 1, at most `MAX_KNOTS`."""
    if knot is None:
        return None
    where = f"feature {feature!r}'s knots"
    require(isinstance(knot, list) and len(knot) == 2 and isinstance(knot[0], list)
            and isinstance(knot[1], list) and 3 <= len(knot[0]) <= MAX_KNOTS
            and len(knot[1]) == len(knot[0]),
            f"{where} must be [values, positions]: two lists of 3 to {MAX_KNOTS} numbers.")
    values = floats(knot[0], len(knot[0]), f"{where} values")
    positions = floats(knot[1], len(knot[1]), f"{where} positions")
    require((np.diff(values) > 0).all() and values[0] == low and values[-1] == high,
            f"{where}: the values must increase from data_min to data_max.")
    require((np.diff(positions) > 0).all() and positions[0] == 0.0 and positions[-1] == 1.0,
            f"{where}: the positions must increase from 0 to 1.")
    return values, positions


@dataclass(frozen=True)
class _Pieces:
    """A `Scaling` as one piecewise-linear map per feature, the knots end to end: feature
    ``j``'s knots are ``value[first[j]:first[j] + count[j]]`` at ``position[...]``, the piece
    from knot ``i`` to the next ``width[i]`` wide in the data's units. Min-max is two knots per
    feature, the range's ends, one piece ``span`` wide (so the arithmetic is min-max's own)."""

    value: np.ndarray
    position: np.ndarray
    width: np.ndarray
    first: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, scaling: Scaling) -> _Pieces:
        span = scaling.span
        knots = scaling.knots or (None,) * len(span)
        value, position, width = [], [], []
        for j, knot in enumerate(knots):
            if knot is None:
                value.append([scaling.data_min[j], scaling.data_max[j]])
                position.append([0.0, 1.0])
                width.append([span[j], 1.0])
            else:
                value.append(knot[0])
                position.append(knot[1])
                width.append(np.append(np.diff(knot[0]), 1.0))
        count = np.array([len(v) for v in value], dtype=np.int64)
        first = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
        return cls(*(np.concatenate(part).astype(np.float64)
                     for part in (value, position, width)), first, count)

    def _at(self, values, piece):
        """``values`` on their axes, each in its ``piece`` (the index of the knot it starts
        from, aligned or broadcast): from that knot's position, linearly, never beyond the
        next's; then clipped to [0, 1]. Non-decreasing in the value over every float."""
        start, end = self.position[piece], self.position[piece + 1]
        scaled = values - self.value[piece]  # the one copy; the rest is in place
        scaled /= self.width[piece]
        scaled *= end - start
        scaled += start
        np.minimum(scaled, end, out=scaled)
        return np.clip(scaled, 0.0, 1.0, out=scaled)

    def transform(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        plain = self.count == 2
        if plain.all():  # one piece per feature: the whole matrix at once
            return self._at(X, self.first)
        out = np.empty(X.shape, dtype=np.float64)
        cols = np.flatnonzero(plain)
        out[:, cols] = self._at(X[:, cols], self.first[cols])
        for j in np.flatnonzero(~plain):
            first, count = self.first[j], self.count[j]
            piece = np.searchsorted(self.value[first:first + count], X[:, j], side="right") - 1
            out[:, j] = self._at(X[:, j], first + np.clip(piece, 0, count - 2))
        return out

    def _pieces_at(self, starts: np.ndarray, values: np.ndarray, features) -> np.ndarray:
        """Per aligned (value, feature), the feature's last piece whose start (in ``starts``:
        `value` or `position`) is at or below the value, else its first: a bisection over
        every pair at once."""
        features = np.asarray(features, dtype=np.int64)
        low = self.first[features]
        high = low + self.count[features] - 2  # the last piece
        while (searching := low < high).any():
            mid = (low + high + 1) // 2
            below = starts[mid] <= values
            low = np.where(searching & below, mid, low)
            high = np.where(searching & ~below, mid - 1, high)
        return low

    def positions(self, values, features) -> np.ndarray:
        values = np.asarray(values, dtype=np.float64)
        return self._at(values, self._pieces_at(self.value, values, features))

    def unscale(self, scaled: np.ndarray) -> np.ndarray:
        scaled = np.asarray(scaled, dtype=np.float64)
        out = np.empty(scaled.shape, dtype=np.float64)
        for j in range(scaled.shape[1]):
            first, count = self.first[j], self.count[j]
            at = np.searchsorted(self.position[first:first + count], scaled[:, j], side="right")
            piece = first + np.clip(at - 1, 0, count - 2)
            start, end = self.position[piece], self.position[piece + 1]
            out[:, j] = (self.value[piece]
                         + (scaled[:, j] - start) / (end - start) * self.width[piece])
        return out

    def unscale_at(self, scaled, features) -> np.ndarray:
        """`unscale`'s arithmetic on aligned (scaled value, feature) pairs."""
        scaled = np.asarray(scaled, dtype=np.float64)
        piece = self._pieces_at(self.position, scaled, features)
        start, end = self.position[piece], self.position[piece + 1]
        return self.value[piece] + (scaled - start) / (end - start) * self.width[piece]


_SIGN = np.int64(-(2**63))


def _float_order(x):
    """float64 -> int64 keys in the floats' order (neighbouring floats, neighbouring keys)."""
    bits = np.asarray(x, dtype=np.float64).view(np.int64)
    return np.where(bits < 0, -(bits & ~_SIGN), bits)


def _from_order(key):
    return np.where(key < 0, (-key) | _SIGN, key).astype(np.int64).view(np.float64)


def _first_true(test, low, high, last_false=False):
    """Per entry, the least float in (low, high] where ``test`` (false at ``low``, true at
    ``high``, never true then false) turns true; with ``last_false``, the greatest in
    [low, high) where it is still false. Elsewhere the answer is left to the caller."""
    a, b = _float_order(low), _float_order(high)
    for _ in range(64):
        searching = b > a + 1
        if not searching.any():
            break
        mid = (a >> 1) + (b >> 1) + (a & b & 1)  # the midpoint, without overflow
        true = test(_from_order(mid))
        a, b = np.where(searching & ~true, mid, a), np.where(searching & true, mid, b)
    return _from_order(a if last_false else b)
