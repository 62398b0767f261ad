"""What predicts: a fitted rule set, the one owner of everything a prediction reads.

A `RuleSet` holds the rules that predict (their conditions on the [0, 1]-scaled axes, their
labelsets and training statistics, as a compact population), the scaling from the data's units,
the scorer that turns the matching rules into per-label scores, and the bipartition that turns
scores into labels. The estimator predicts, explains and saves through it; the audit compacts
and re-predicts with `RuleSet.subset`; compact models are rule sets of k rules with refitted
weights (``mlr_core/compaction.py``).

Two scorers:

- `WeightScorer` (``weighting="fitted"``): a weight per rule and label plus a baseline; a
  label's score is the baseline plus the weights of the rules matching the row, clipped to
  [0, 1] or put through the logistic function (its ``link``, ``mlr_core/links.py``;
  ``mlr_core/rule_weights.py`` and ``mlr_core/calibration.py`` fit them).
- `VoteScorer` (``weighting="vote"``): the paper's share of the F * num vote of the matching
  rules (the nearest rules when none matches).

MLR_max (one whole labelset, the vote's winner) reads the same rules whatever the scorer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from mlr_core import bipartition as bp
from mlr_core import links
from mlr_core._engine import population as popmod
from mlr_core._engine.matching import match_matrix, match_set
from mlr_core._engine.scoring import weighted_scores
from mlr_core._engine.voting import vote, voters
from mlr_core.errors import (
    SAVED_LIMIT,
    InputError,
    ModelFormatError,
    require,
    saved_real,
    saved_whole,
)
from mlr_core.explain import Explanation, contribution_columns, contributions
from mlr_core.params import MAX_NEAREST
from mlr_core.rules import binary_features, condition_text, rule_texts, rules_frame
from mlr_core.validation import check_unique_names

RULE_STATS = {field.stat: field.name for field in popmod.RULE_FIELDS if field.stat}
"""A saved rule's statistics: JSON key -> population array."""


FEATURE_RULES_PER_FEATURE = 1
"""The most one-condition rules (``x = 1``, ``mlr_core/rule_weights.py``) a fitted rule set
holds per feature beside its N evolved ones: the bound a saved file is checked against."""


AXES = ("rank", "minmax")
"""How a feature's values reach the rules' [0, 1] axis (the ``axis`` parameter,
``mlr_core/params.py``): by their order (``rank``) or by their range (``minmax``, the paper's)."""

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
    moves its knots, not its training rows' positions."""

    data_min: np.ndarray
    data_max: np.ndarray
    binary: np.ndarray
    knots: tuple | None = None

    @classmethod
    def of(cls, X: np.ndarray, axis: str = "minmax") -> Scaling:
        knots = tuple(rank_knots(column) for column in X.T) if axis == "rank" else None
        return cls(X.min(axis=0), X.max(axis=0), binary_features(X), knots)

    @property
    def axis(self) -> str:
        return "minmax" if self.knots is None else "rank"

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
        """X (a float matrix of the training width) on the [0, 1] axes, clipped there."""
        return self._pieces.transform(X)

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

    def to_dict(self) -> dict:
        out = {"data_min": self.data_min.tolist(), "data_max": self.data_max.tolist(),
               "binary": self.binary.tolist()}
        if self.knots is not None:
            out["knots"] = [None if k is None else [k[0].tolist(), k[1].tolist()]
                            for k in self.knots]
        return out

    @classmethod
    def from_dict(cls, data: dict, features) -> Scaling:
        """The scaling saved by `to_dict` (a file without ``knots``: min-max), checked."""
        d = len(features)
        data_min = _floats(data["data_min"], d, "data_min")
        data_max = _floats(data["data_max"], d, "data_max")
        require((data_min <= data_max).all(), "data_min must not exceed data_max.")
        binary = _booleans(data["binary"], d, "binary")
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
        return cls(data_min, data_max, binary, knots)


def rank_knots(column: np.ndarray, max_knots: int = MAX_KNOTS):
    """A training column's rank axis: (values, positions), its distinct values (at most
    ``max_knots``: the quantiles, ends kept) at their mid-rank positions (the share of rows
    below, plus half of those equal), put on [0, 1] from the least to the greatest; None for
    two distinct values or fewer, whose axis is their range."""
    values, counts = np.unique(column, return_counts=True)
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
    values = _floats(knot[0], len(knot[0]), f"{where} values")
    positions = _floats(knot[1], len(knot[1]), f"{where} positions")
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

    def positions(self, values, features) -> np.ndarray:
        values = np.asarray(values, dtype=np.float64)
        features = np.asarray(features, dtype=np.int64)
        low = self.first[features]
        high = low + self.count[features] - 2  # the last piece
        while (searching := low < high).any():  # the last piece starting at or below the value
            mid = (low + high + 1) // 2
            below = self.value[mid] <= values
            low = np.where(searching & below, mid, low)
            high = np.where(searching & ~below, mid - 1, high)
        return self._at(values, low)

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


@dataclass(frozen=True)
class WeightScorer:
    """Fitted rule weights: ``coef[i, j]`` is what rule ``i`` adds to label ``j``'s total when
    it matches, ``intercept[j]`` the total when no rule matches (the baseline); ``alpha`` is
    the ridge penalty they were fitted with; ``link`` (a name of `links.LINKS`) how a total
    becomes a score in [0, 1]."""

    coef: np.ndarray
    intercept: np.ndarray
    alpha: float
    link: str = links.Clip.name

    kind = "fitted"
    #: MLR_agg is answered by these weights, not by the vote of the rules as they are now.
    by_vote = False
    #: Tuned thresholds are also tried with the best label as a fallback (``threshold_or_top``).
    top_fallback = True

    @property
    def words(self) -> str:
        return ("a label's score is its baseline plus the weights of the rules matching the row, "
                + self.squash.words)

    @property
    def squash(self):
        """The link: how a total becomes a score (``apply``, and its Python and SQL text)."""
        return links.LINKS[self.link]

    def scores(self, rule_set: RuleSet, Xs: np.ndarray) -> np.ndarray:
        return self.squash.apply(weighted_scores(rule_set.rules, Xs, self.coef, self.intercept))

    def subset(self, ids: np.ndarray) -> WeightScorer:
        return replace(self, coef=self.coef[ids])

    def fitted(self, what: str) -> WeightScorer:
        """These weights (``what`` needs fitted weights; the vote refuses)."""
        return self

    def contributions(self, rule_set: RuleSet, xs: np.ndarray):
        """(rules, what each adds to each label's score, baseline, covered) for one scaled row:
        the matching rules and their weights (see `RuleSet.contributions`)."""
        ids = rule_set.matching(xs)
        return ids, self.coef[ids], self.intercept.copy(), len(ids) > 0

    def voters(self, rule_set: RuleSet, xs: np.ndarray, matched: np.ndarray, out: np.ndarray):
        """(the rules whose weights make a scaled row's scores, covered): those ``matched``."""
        return matched, len(matched) > 0

    def influence(self, rule_set: RuleSet) -> Influence:
        return Influence(np.abs(self.coef).sum(axis=1), coef=self.coef)

    def prune(self, rule_set: RuleSet, Xs: np.ndarray, full: np.ndarray, weight: np.ndarray,
              keep: np.ndarray) -> None:
        """From all rules, drop each rule not in ``keep`` (bool by position), the lightest by
        ``weight`` first, if the rows it matches keep their labels ``full`` without it;
        ``keep`` ends as the rules kept. Each trial costs only the rows the rule matches: the
        unclipped scores are updated as rules go (in another order of additions than
        `scores`, so the caller checks the result through `RuleSet.subset`)."""
        matched = match_matrix(rule_set.rules, Xs).astype(bool)
        raw = matched @ self.coef + self.intercept
        protected = keep.copy()
        keep[:] = True
        for i in np.argsort(weight, kind="stable"):
            if protected[i]:
                continue
            rows = np.flatnonzero(matched[:, i])
            trial = raw[rows] - self.coef[i]
            labels = rule_set.bipartition.apply(self.squash.apply(trial))
            if np.array_equal(labels, full[rows]):
                raw[rows] = trial
                keep[i] = False

    def to_dict(self) -> dict:
        return {"kind": self.kind, "coef": self.coef.tolist(),
                "intercept": self.intercept.tolist(), "alpha": self.alpha, "link": self.link}

    @classmethod
    def from_dict(cls, data: dict, n_rules: int, m: int) -> WeightScorer:
        coef = _float_array(data["coef"], "the scorer's coef (the rules' weights)")
        if coef.size == 0:  # no rules: JSON keeps no row length
            coef = coef.reshape(0, m)
        intercept = _float_array(data["intercept"], "the scorer's intercept")
        require(coef.shape == (n_rules, m) and intercept.shape == (m,),
                f"the scorer needs {n_rules} x {m} weights (coef) and {m} intercepts.")
        alpha = saved_real(data["alpha"], "the scorer's alpha", 0.0)
        link = data.get("link", links.Clip.name)  # files written before the link was saved
        require(isinstance(link, str) and link in links.LINKS,
                f"the scorer's link must be a link among {sorted(links.LINKS)}.")
        return cls(coef, intercept, alpha, link)


@dataclass(frozen=True)
class VoteScorer:
    """The paper's MLR_agg scores: each label's share of the voters' F * num (``score_norm``
    ``"total"``) or of the top label's (``"max"``); who votes is the rule set's `Voting`."""

    score_norm: str = "total"

    kind = "vote"
    by_vote = True
    top_fallback = False
    link = None  # the vote's shares are scores as they are

    @property
    def words(self) -> str:
        whole = "all voters" if self.score_norm == "total" else "the label backed most"
        return ("a label's score is the fitness x numerosity of the voters (the rules matching "
                "the row, its nearest rules when none does) whose labelset holds it, over that "
                f"of {whole}")

    def scores(self, rule_set: RuleSet, Xs: np.ndarray) -> np.ndarray:
        votes = rule_set.votes(Xs)
        return bp.normalise(votes.label_votes, votes.total, self.score_norm)

    def subset(self, ids: np.ndarray) -> VoteScorer:
        return self

    def fitted(self, what: str) -> WeightScorer:
        raise InputError(f"{what} needs fitted rule weights (weighting='fitted'): this model "
                         "scores by the vote.")

    def contributions(self, rule_set: RuleSet, xs: np.ndarray):
        """(voters, their shares of the total vote, a zero baseline, covered) for one scaled
        row (see `RuleSet.contributions`)."""
        m = len(rule_set.label_names)
        out = np.empty(rule_set.n_rules, dtype=np.int64)
        ids, covered = self.voters(rule_set, xs, None, out)
        fit, num = rule_set.rules.fit[ids], rule_set.rules.num[ids]
        total = float(fit @ num) if len(ids) else 0.0
        share = contributions(fit, num, rule_set.labelsets[rule_set.rules.ls[ids]], total,
                              rule_set.label_names).to_numpy()
        return ids, share.reshape(len(ids), m), np.zeros(m), bool(covered)

    def voters(self, rule_set: RuleSet, xs: np.ndarray, matched, out: np.ndarray):
        """(the rules voting for a scaled row, covered): the matching ones (see `Voting`), the
        nearest when none matches; ``out`` is a buffer of a slot per rule."""
        count, covered = voters(rule_set.rules, xs, int(rule_set.voting.min_vote_experience),
                                int(rule_set.voting.n_nearest), out)
        return out[:count].copy(), covered

    def influence(self, rule_set: RuleSet) -> Influence:
        pop = rule_set.rules
        return Influence(pop.fit * pop.num, labelsets=rule_set.labelsets[pop.ls])

    def prune(self, rule_set, Xs, full, weight, keep) -> None:
        """Nothing: a vote's rules are put back voter by voter instead (``audit.compact``)."""


    def to_dict(self) -> dict:
        return {"kind": self.kind, "score_norm": self.score_norm}

    @classmethod
    def from_dict(cls, data: dict, n_rules: int, m: int) -> VoteScorer:
        require(data.get("score_norm") in ("total", "max"),
                "a vote scorer's score_norm must be 'total' or 'max'.")
        return cls(data["score_norm"])


@dataclass(frozen=True)
class Influence:
    """What each rule (by position) brings to a prediction (``mlr_core/audit.py``'s words):
    ``weight`` and either its ``labelsets`` (the vote) or its per-label ``coef`` (fitted
    weights)."""

    weight: np.ndarray
    labelsets: np.ndarray | None = None
    coef: np.ndarray | None = None

    def contributions(self, at, predicted, mode):
        """Contribution of the rules at positions ``at`` to one row's predicted labels."""
        if self.coef is not None:
            return self.coef[at] @ (2.0 * predicted - 1.0)
        if mode == "max":
            return self.weight[at] * (self.labelsets[at] == predicted).all(axis=1)
        return self.weight[at] * (self.labelsets[at] @ predicted.astype(np.int64))


@dataclass(frozen=True)
class Voting:
    """Who votes for a row and what MLR_max takes from the vote: the matching rules (only those
    with at least ``min_vote_experience`` when some such rule matches), the ``n_nearest``
    nearest rules when none matches; MLR_max's labelset is the vote's winner (``max_rule``
    ``"vote"``) or the fittest voter's (``"fittest"``)."""

    min_vote_experience: int = 0
    n_nearest: int = 5
    max_rule: str = "vote"

    def to_dict(self) -> dict:
        return {"min_vote_experience": self.min_vote_experience, "n_nearest": self.n_nearest,
                "max_rule": self.max_rule}

    @classmethod
    def from_dict(cls, data: dict) -> Voting:
        require(isinstance(data, dict), "\"voting\" must be an object.")
        voting = cls(saved_whole(data["min_vote_experience"], "voting min_vote_experience"),
                     saved_whole(data["n_nearest"], "voting n_nearest", 1), data["max_rule"])
        require(voting.n_nearest <= MAX_NEAREST and voting.max_rule in ("vote", "fittest"),
                f"voting needs n_nearest of at most {MAX_NEAREST:,} and max_rule 'vote' or "
                "'fittest'.")
        return voting


SCORERS = {cls.kind: cls for cls in (WeightScorer, VoteScorer)}


@dataclass(frozen=True)
class RuleSet:
    """The rules that predict, how rows reach their axes, and how their matches become labels.

    Attributes
    ----------
    rules : Population
        The predicting rules, exactly as many slots as rules (``mlr_core/_engine/population.py``),
        in ascending id order.
    labelsets : ndarray
        Distinct 0/1 labelset rows; ``rules.ls`` indexes them.
    scaling : Scaling
    scorer : WeightScorer or VoteScorer
    bipartition : Bipartition
        How MLR_agg cuts the scores (``mlr_core/bipartition.py``).
    voting : Voting
        Who votes (the vote scorer and MLR_max).
    feature_names, label_names : tuple of str
    iteration : int
        The training iteration the rules were taken at.
    rule_ids : ndarray
        Each rule's id (int64, ascending): its position in the population the rules were taken
        from, kept by `subset`, so that a compact model's rule 17 is rule 17 of the full model
        it came from. Every rule number shown (the ``rule_id`` of `rules_frame` and of the
        scorecard, explanations, the audit) is this id.
    n_feature_rules : int
        How many of the rules, the last ones, are the weight fit's one-condition rules
        (``x = 1``, ``mlr_core/rule_weights.py``) rather than evolved ones: a loaded model's
        training population takes the evolved rules alone (`evolved`), as the run that saved
        it held them; the fit adds its one-condition rules again on every refit.
    """

    rules: popmod.Population
    labelsets: np.ndarray
    scaling: Scaling
    scorer: WeightScorer | VoteScorer
    bipartition: bp.Bipartition
    voting: Voting
    feature_names: tuple
    label_names: tuple
    iteration: int
    rule_ids: np.ndarray
    n_feature_rules: int = 0

    # ---------------------------------------------------------------- building

    @classmethod
    def from_population(cls, pop, labelsets, scaling, scorer, bipartition, voting,
                        feature_names, label_names, iteration, rule_ids=None,
                        n_feature_rules=0) -> RuleSet:
        """A rule set of a population's live rules (copied: training may go on), their ids
        ``rule_ids`` (their slots by default), the last ``n_feature_rules`` of them the fit's
        one-condition rules."""
        size = int(pop.size[0])
        ids = np.arange(size, dtype=np.int64) if rule_ids is None else np.array(
            rule_ids, dtype=np.int64)
        return cls(popmod.take(pop, np.arange(size)), labelsets.copy(), scaling,
                   scorer, bipartition and bp.Bipartition(*bipartition), voting,
                   tuple(feature_names), tuple(label_names), int(iteration), ids,
                   int(n_feature_rules))

    @property
    def n_rules(self) -> int:
        return int(self.rules.size[0])

    @property
    def n_evolved(self) -> int:
        """How many of the rules, the first ones, evolved (the rest are `n_feature_rules`)."""
        return self.n_rules - self.n_feature_rules

    def evolved(self) -> tuple[popmod.Population, np.ndarray]:
        """(the evolved rules, copied, their ids): the population a training run resumes."""
        at = np.arange(self.n_evolved)
        return popmod.take(self.rules, at), self.rule_ids[at]

    def subset(self, rule_ids) -> RuleSet:
        """The rules whose ids (`RuleSet.rule_ids`) are ``rule_ids`` alone, keeping their ids
        and weights (in ascending id order, so that ties between them break as here); the
        scorer and bipartition stay as they are."""
        ids = np.unique(np.asarray(rule_ids, dtype=np.int64))
        at = np.minimum(np.searchsorted(self.rule_ids, ids), max(self.n_rules - 1, 0))
        unknown = ids[self.rule_ids[at] != ids] if self.n_rules else ids
        if len(unknown):
            raise InputError(f"rule {unknown[0]} is not one of the {self.n_rules} rules of this "
                             "model (the rule_id of its rules_frame()).")
        return replace(self, rules=popmod.take(self.rules, at), scorer=self.scorer.subset(at),
                       rule_ids=ids, n_feature_rules=int(np.count_nonzero(at >= self.n_evolved)))

    def with_scorer(self, scorer, bipartition) -> RuleSet:
        """The same rules, scored and cut anew (refitted weights, a retuned bipartition)."""
        return replace(self, scorer=scorer, bipartition=bp.Bipartition(*bipartition))

    # -------------------------------------------------------------- predicting

    def prediction_text(self, prediction: str = "agg") -> str:
        """How a prediction is made, in words: MLR_agg's scores (fitted weights clipped to
        [0, 1], or the vote) and their cut (`bipartition.words`), or MLR_max's labelset."""
        if prediction == "max":
            whose = ("the one its voters (the rules matching it, its nearest rules when none "
                     "does) back with the most fitness x numerosity"
                     if self.voting.max_rule == "vote" else "that of its fittest voter")
            return f"Each row gets one whole labelset: {whose}."
        words = self.scorer.words
        return f"{words[0].upper()}{words[1:]}; the labels are cut from them by " \
               f"{self.bipartition.words()}."

    def scaled(self, X: np.ndarray) -> np.ndarray:
        """Rows in the data's units (a checked float matrix) on the rules' [0, 1] axes."""
        try:
            X = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError) as err:
            raise InputError(f"X must hold numbers: {err}") from err
        if X.ndim != 2 or X.shape[1] != len(self.feature_names):
            raise InputError(f"X must have {len(self.feature_names)} feature columns, got shape "
                             f"{X.shape}.")
        if not np.isfinite(X).all():
            raise InputError("X holds NaN or infinite values: every feature needs a number.")
        return self.scaling.transform(X)

    def scorer_for(self, prediction: str):
        """What answers for ``prediction``'s voters and their influence: the scorer for MLR_agg,
        the vote for MLR_max (a whole labelset, whatever the scorer)."""
        return self.scorer if prediction == "agg" else VoteScorer()

    def votes(self, Xs: np.ndarray):
        """The engine's vote of these rules on scaled rows (``_engine/voting.py``)."""
        return vote(self.rules, Xs, self.labelsets, int(self.voting.min_vote_experience),
                    int(self.voting.n_nearest))

    def scores_scaled(self, Xs: np.ndarray) -> np.ndarray:
        """MLR_agg's per-label scores (n x m, in [0, 1]) of scaled rows."""
        return self.scorer.scores(self, Xs)

    def labels_scaled(self, Xs: np.ndarray, prediction: str = "agg") -> np.ndarray:
        """0/1 labels (uint8) of scaled rows by MLR_agg (scores cut by the bipartition) or
        MLR_max (the winning labelset)."""
        if prediction == "max":
            votes = self.votes(Xs)
            chosen = votes.voted_set if self.voting.max_rule == "vote" else votes.fittest_set
            return bp.max_labels(chosen, self.labelsets)
        return self.bipartition.apply(self.scores_scaled(Xs))

    def scores(self, X) -> np.ndarray:
        return self.scores_scaled(self.scaled(X))

    def labels(self, X, prediction: str = "agg") -> np.ndarray:
        return self.labels_scaled(self.scaled(X), prediction)

    def matching(self, x_scaled: np.ndarray) -> np.ndarray:
        """Positions of the rules matching one scaled row, ascending."""
        out = np.empty(self.n_rules, dtype=np.int64)
        return out[:match_set(self.rules, x_scaled, out)]

    def contributions(self, x) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """For one row in the data's units: (rule positions, what each adds to each label's score,
        the baseline, covered). With fitted weights the rules are the matching ones and
        ``baseline + contributions.sum(axis=0)``, through the link, is exactly `scores`
        (the same additions in the same order). With the vote, the voters' shares of the
        total vote (the nearest rules when none matches; ``covered`` False) and a zero
        baseline."""
        xs = self.scaled(np.asarray(x, dtype=np.float64).reshape(1, -1))[0]
        return self.scorer.contributions(self, xs)

    def explain(self, x) -> Explanation:
        """Why these rules answer what they answer for one row (see `Explanation`)."""
        at, share, baseline, covered = self.contributions(x)
        xs = self.scaled(np.asarray(x, dtype=np.float64).reshape(1, -1))
        frame = self.rules_frame().iloc[at].reset_index()
        sets = self.labelsets[self.rules.ls[at]]
        names = np.array(self.label_names, dtype=object)
        scores = self.scores_scaled(xs)
        return Explanation(
            match_set=pd.concat([frame, pd.DataFrame(share, columns=contribution_columns(
                self.label_names))], axis=1),
            rule_ids=self.rule_ids[at],
            fallback=not covered,
            union=list(names[sets.any(axis=0)]),
            scores=pd.Series(scores[0], index=list(self.label_names), name="score"),
            baseline=pd.Series(baseline, index=list(self.label_names), name="baseline"),
            bipartition=self.bipartition,
            agg_labels=list(names[self.bipartition.apply(scores)[0].astype(bool)]),
            max_labels=list(names[self.labels_scaled(xs, "max")[0].astype(bool)]),
            how=self.prediction_text(),
            link=self.scorer.link,
        )

    # ------------------------------------------------------------------ reading

    def bounds(self):
        """(lower, upper) per rule and feature on the scaled axes, NaN for a wildcard."""
        return popmod.dense_bounds(self.rules, len(self.feature_names))

    def tests(self) -> list[list[tuple[int, float, float, float]]]:
        """Per rule, its tests in the data's units: (feature, lower, upper, spread) for each
        feature it specifies, in slot order; it accepts a value ``x`` of the feature exactly
        when ``lower <= x <= upper`` (`Scaling.accepted`: -inf or inf where the axis's end is
        reached; ``spread`` is its half-width on the axis)."""
        pop = self.rules
        rows, slots = np.nonzero(np.arange(pop.feat.shape[1]) < pop.nspec[:, None])
        features, spread = pop.feat[rows, slots], pop.spread[rows, slots]
        lower, upper = self.scaling.accepted(features, pop.center[rows, slots], spread)
        out = [[] for _ in range(self.n_rules)]
        for i, *test in zip(rows.tolist(), features.tolist(), lower.tolist(), upper.tolist(),
                            spread.tolist(), strict=True):
            out[i].append(tuple(test))
        return out

    def rule_texts(self) -> list[str]:
        return texts(self.scaling, *self.bounds(), self.labelsets[self.rules.ls],
                     self.feature_names, self.label_names)

    def scorecard(self, X) -> pd.DataFrame:
        """The rules as a scorecard (fitted weights; read best on a compact model): per rule
        (``rule_id`` index), its condition in the data's units, its weight per label (what it
        adds to the score when it matches), and on the rows ``X`` (the data's units) its
        ``support`` (rows matched) and ``coverage`` (their fraction). The baseline, the score
        when no rule matches, is ``scorer.intercept``; how scores become labels is
        `prediction_text`; ``mlr_core.scorecard.to_csv`` holds it all."""
        return self.scorecard_scaled(self.scaled(X))

    def scorecard_scaled(self, Xs: np.ndarray) -> pd.DataFrame:
        """`scorecard` with support on rows already on the rules' axes (a model's bound rows:
        ohsumed's training rows took 0.1-0.2 s and 89 MB to scale again)."""
        scaled_lower, scaled_upper = self.bounds()
        lower, upper = self.scaling.unscale(scaled_lower, scaled_upper)
        support = match_matrix(self.rules, Xs).sum(axis=0).astype(np.int64)
        frame = pd.DataFrame({
            "condition": [condition_text(lo, hi, slo, shi, self.feature_names,
                                         self.scaling.binary)
                          for lo, hi, slo, shi in zip(lower, upper, scaled_lower, scaled_upper,
                                                      strict=True)],
            "support": support,
            "coverage": support / max(len(Xs), 1),
        }, index=pd.Index(self.rule_ids, name="rule_id"))
        return pd.concat([frame, self._weight_columns("A scorecard", frame.index)], axis=1)

    def rule_weights_frame(self) -> pd.DataFrame:
        """With fitted weights: `rules_frame` with one ``weight: <label>`` column per label,
        what the rule adds to the label's score when it matches (negative: it lowers it); the
        baseline is ``scorer.intercept``."""
        frame = self.rules_frame()
        return pd.concat([frame, self._weight_columns("rule_weights_frame()", frame.index)],
                         axis=1)

    def _weight_columns(self, what: str, index) -> pd.DataFrame:
        return pd.DataFrame(self.scorer.fitted(what).coef, index=index,
                            columns=[f"weight: {n}" for n in self.label_names])

    def match_counts(self, X) -> np.ndarray:
        """How many rules match each row of X (the data's units): how many weights an
        explanation adds up."""
        return self.match_counts_scaled(self.scaled(X))

    def match_counts_scaled(self, Xs: np.ndarray) -> np.ndarray:
        """`match_counts` of rows already on the rules' axes (a model's bound rows)."""
        return match_matrix(self.rules, Xs).sum(axis=1).astype(np.int64)

    def rules_frame(self) -> pd.DataFrame:
        """One row per rule (``rule_id`` index): readable text, labelset, fitness, accuracy,
        numerosity, experience, generality, ..."""
        generality = popmod.generality(self.rules, len(self.feature_names))
        return rules_frame(self.rules, self.rule_texts(), self.labelsets[self.rules.ls],
                           generality, self.label_names, self.rule_ids)

    # --------------------------------------------------------------------- JSON

    def to_dict(self) -> dict:
        """JSON-ready data; conditions as XCSF's ``hyperrectangle_csr`` (a centre and a spread
        per feature on the scaled axes, null for a wildcard), the rules' ids beside them
        (``rule_ids``). Floats round-trip exactly."""
        pop, d = self.rules, len(self.feature_names)
        rules = []
        for i in range(self.n_rules):
            center, spread = [None] * d, [None] * d
            for k in range(pop.nspec[i]):
                center[pop.feat[i, k]] = float(pop.center[i, k])
                spread[pop.feat[i, k]] = float(pop.spread[i, k])
            rule = {"condition": {"type": "hyperrectangle_csr", "center": center,
                                  "spread": spread},
                    "labelset": self.labelsets[pop.ls[i]].tolist()}
            rule.update({key: getattr(pop, field)[i].item() for key, field in RULE_STATS.items()})
            rules.append(rule)
        return {
            "feature_names": list(self.feature_names),
            "label_names": list(self.label_names),
            **self.scaling.to_dict(),
            "rules": rules,
            "rule_ids": self.rule_ids.tolist(),
            "n_feature_rules": self.n_feature_rules,
            "scorer": self.scorer.to_dict(),
            "bipartition": list(self.bipartition),
            "voting": self.voting.to_dict(),
            "iteration": self.iteration,
        }

    @classmethod
    def from_dict(cls, data: dict, max_rules: int, max_specified: int) -> RuleSet:
        """Rebuild from `to_dict` output, every field checked (ModelFormatError): at most
        ``max_rules`` rules of at most ``max_specified`` features (clipped to the features),
        checked before allocating. A file without ``rule_ids`` (written before rules kept
        their ids) numbers its rules 0, 1, ...; one without ``n_feature_rules`` (written before
        the one-condition rules were told apart) counts them all as evolved."""
        require(isinstance(data, dict), "\"rule_set\" must be an object.")
        features = [str(n) for n in _list(data, "feature_names")]
        labels = [str(n) for n in _list(data, "label_names")]
        d, m = len(features), len(labels)
        require(d >= 1 and m >= 1, "A model needs at least one feature and one label.")
        check_unique_names(features, "feature", ModelFormatError)
        check_unique_names(labels, "label", ModelFormatError)
        max_specified = min(max_specified, d)
        scaling = Scaling.from_dict(data, features)
        rules = _list(data, "rules")
        limit = max_rules + FEATURE_RULES_PER_FEATURE * d
        require(len(rules) <= limit,
                f"The file holds {len(rules):,} rules, more than its n_rules = {max_rules:,} "
                f"and one one-condition rule per feature.")
        pop = popmod.new_population(len(rules), max_specified)
        labelsets, index = [], {}
        for i, rule in enumerate(rules):
            where = f"rule {i}"
            require(isinstance(rule, dict), f"{where} must be an object.")
            bits = rule["labelset"]
            require(isinstance(bits, list) and len(bits) == m and all(b in (0, 1) for b in bits),
                    f"{where}: labelset must be {m} values of 0 or 1.")
            key = tuple(int(b) for b in bits)
            pop.ls[i] = index.setdefault(key, len(index))
            if pop.ls[i] == len(labelsets):
                labelsets.append(key)
            _fill_condition(pop, i, rule["condition"], d, max_specified, where)
            for name, field in RULE_STATS.items():  # counts are whole, every stat >= 0
                stat = getattr(pop, field)
                read = saved_whole if stat.dtype.kind == "i" else saved_real
                stat[i] = read(rule[name], f"{where}: {name}", 0)
            require(pop.num[i] >= 1, f"{where}: numerosity must be at least 1.")
            require(pop.fit[i] <= 1.0 and pop.acc[i] <= 1.0,
                    f"{where}: fitness and accuracy must lie in [0, 1].")
            # each match adds a score in [0, 1] to correct and 1 to experience
            require(pop.correct[i] <= pop.exp[i],
                    f"{where}: correct ({pop.correct[i]:g}) cannot exceed experience "
                    f"({pop.exp[i]:,}).")
        pop.size[0] = len(rules)
        pop.micro[0] = int(pop.num.sum())
        scorer_data = data["scorer"]
        require(isinstance(scorer_data, dict) and isinstance(scorer_data.get("kind"), str)
                and scorer_data["kind"] in SCORERS,
                f"scorer kind must be one of {', '.join(SCORERS)}.")
        scorer = SCORERS[scorer_data["kind"]].from_dict(scorer_data, len(rules), m)
        iteration = data["iteration"]
        require(isinstance(iteration, int) and 0 <= iteration < 2**63,
                "iteration must be a non-negative integer.")
        n_feature_rules = data.get("n_feature_rules", 0)
        require(isinstance(n_feature_rules, int) and not isinstance(n_feature_rules, bool)
                and 0 <= n_feature_rules <= min(len(rules), FEATURE_RULES_PER_FEATURE * d),
                f"n_feature_rules must be an integer from 0 to {len(rules)} (the rules) and at "
                f"most {FEATURE_RULES_PER_FEATURE * d} (one per feature).")
        return cls(pop, np.array(labelsets, dtype=np.uint8).reshape(-1, m),
                   scaling, scorer,
                   bp.checked(data["bipartition"], m),
                   Voting.from_dict(data["voting"]), tuple(features), tuple(labels), iteration,
                   _rule_ids(data.get("rule_ids"), len(rules)), n_feature_rules)


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


def texts(scaling, scaled_lower, scaled_upper, labelsets, feature_names, label_names):
    """Readable rules from bounds on the scaled axes (NaN = wildcard) and 0/1 labelset rows; a
    condition on a 0/1 feature (``scaling.binary``) reads ``word = 1``."""
    lower, upper = scaling.unscale(scaled_lower, scaled_upper)
    return rule_texts(lower, upper, scaled_lower, scaled_upper, labelsets, feature_names,
                      label_names, binary=scaling.binary)


def _rule_ids(values, n) -> np.ndarray:
    """Saved rule ids: ``n`` ascending non-negative integers, or 0..n-1 when none were saved."""
    if values is None:
        return np.arange(n, dtype=np.int64)
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**62
                    for v in values),
            f"rule_ids must be {n} non-negative integers, one per rule (leave it out to "
            "number the rules 0, 1, ...).")
    ids = np.array(values, dtype=np.int64)
    require((np.diff(ids) > 0).all(), "rule_ids must be ascending, each id once.")
    return ids


def _list(data, key) -> list:
    value = data[key]
    require(isinstance(value, list), f"\"{key}\" must be a list.")
    return value


def _floats(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values),
            f"{what} must be {n} numbers.")
    out = np.asarray(values, dtype=np.float64)
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def _float_array(values, what) -> np.ndarray:
    """A saved list (of lists) of finite numbers as floats, or a ModelFormatError naming
    ``what``."""
    require(isinstance(values, list), f"{what} must be a list of numbers.")
    try:
        out = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as err:
        raise ModelFormatError(f"{what} must hold numbers only ({err}).") from err
    require(np.isfinite(out).all(), f"{what} must be finite.")
    return out


def _booleans(values, n, what) -> np.ndarray:
    require(isinstance(values, list) and len(values) == n
            and all(isinstance(v, bool) for v in values),
            f"{what} must be {n} booleans (true or false), one per feature.")
    return np.array(values, dtype=bool)


def _fill_condition(pop, i, condition, d, k, where):
    """Check a ``hyperrectangle_csr`` condition and store it sparsely in slot i."""
    require(isinstance(condition, dict) and condition.get("type") == "hyperrectangle_csr",
            f"{where}: condition type must be hyperrectangle_csr.")
    center, spread = condition["center"], condition["spread"]
    require(isinstance(center, list) and isinstance(spread, list)
            and len(center) == d and len(spread) == d,
            f"{where}: center and spread need {d} entries (null for a wildcard).")
    specified = [j for j in range(d) if center[j] is not None]
    require(all((spread[j] is None) == (center[j] is None) for j in range(d)),
            f"{where}: center and spread must be null for the same features.")
    require(len(specified) <= k, f"{where}: more than max_specified = {k} features specified.")
    for slot, j in enumerate(specified):
        c = saved_real(center[j], f"{where}, feature {j}: center", -SAVED_LIMIT, SAVED_LIMIT)
        s = saved_real(spread[j], f"{where}, feature {j}: spread", 0.0, SAVED_LIMIT)
        pop.feat[i, slot], pop.center[i, slot], pop.spread[i, slot] = j, c, s
    pop.nspec[i] = len(specified)
