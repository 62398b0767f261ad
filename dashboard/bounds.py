"""Rule bounds kept sparsely: only the features each rule specifies.

On wide data a rule specifies a few of its features (a 1,000-word text rule about ten), so the
dense rules x features matrices the engine returns (NaN = wildcard) are mostly NaN: 40 time-travel
snapshots of them took 320 MB for one tab. The pages need a few columns (a projection), a few
rows (a heatmap) or per-feature counts, which the (rule, feature) pairs answer directly.
scipy.sparse cannot stand in: a bound of 0 is a value here, and a wildcard is no entry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: ``allowed`` of a test that is no set (the engine's ``population.NO_SET``, which this module
#: does not import: it would load numba on a page that has no model yet).
NO_SET = np.uint64(2**64 - 1)


@dataclass(frozen=True)
class RuleBounds:
    """The specified (rule, feature) pairs of a population, rule-major, with their bounds."""

    n_rules: int
    n_features: int
    rule: np.ndarray  # int32, sorted
    feature: np.ndarray  # int32
    lower: np.ndarray  # float32 for kept snapshots, float64 for the current one
    upper: np.ndarray
    #: Per pair, the category codes a nominal test allows (a uint64 bitmask, ``NO_SET`` for a
    #: numeric test); None when the data has no nominal feature.
    allowed: np.ndarray | None = None

    @classmethod
    def of(cls, lower: np.ndarray, upper: np.ndarray, dtype=np.float64,
           sets: np.ndarray | None = None) -> RuleBounds:
        """From the engine's dense bounds (rules x features, NaN = wildcard) and, for data with
        nominal features, its sets (``MLRClassifier.rule_sets``)."""
        lower = np.asarray(lower)
        rule, feature = np.nonzero(~np.isnan(lower))
        return cls(lower.shape[0], lower.shape[1], rule.astype(np.int32),
                   feature.astype(np.int32), lower[rule, feature].astype(dtype),
                   np.asarray(upper)[rule, feature].astype(dtype),
                   None if sets is None else np.asarray(sets)[rule, feature])

    @classmethod
    def of_model(cls, model, dtype=np.float64) -> RuleBounds:
        """A fitted model's bounds (``MLRClassifier.rule_bound_pairs``) and sets
        (``rule_sets``), the same as ``of`` its ``rule_bounds()`` and ``rule_sets()`` but never
        a dense rules x features bounds matrix on the way (on 20,000 words that took 1.6 GB at
        each snapshot)."""
        n_rules, rule, feature, lower, upper = model.rule_bound_pairs()
        sets = model.rule_sets()  # dense, but only for nominal data, which is never sparse
        return cls.of_pairs(model.n_features_in_, n_rules, rule, feature, lower, upper,
                            None if sets is None else sets[rule, feature], dtype)

    @classmethod
    def of_pairs(cls, n_features: int, n_rules: int, rule, feature, lower, upper,
                 allowed=None, dtype=np.float64) -> RuleBounds:
        """From (rule, feature) pairs, rule-major, as ``rule_bound_pairs`` gives them, and
        their sets (None without nominal features): also a traced iteration's rules
        (``IterationTrace.bounds``, whose ``RulePairs`` are these arguments)."""
        return cls(n_rules, n_features, np.asarray(rule, dtype=np.int32),
                   np.asarray(feature, dtype=np.int32), np.asarray(lower, dtype=dtype),
                   np.asarray(upper, dtype=dtype), allowed)

    @classmethod
    def empty(cls, n_features: int) -> RuleBounds:
        none = np.empty(0, dtype=np.int32)
        return cls(0, n_features, none, none, np.empty(0), np.empty(0))

    def head(self, n_rules: int) -> RuleBounds:
        """The bounds of the first ``n_rules`` rules (the pairs are rule-major)."""
        if n_rules >= self.n_rules:
            return self
        end = int(np.searchsorted(self.rule, n_rules))
        return RuleBounds(n_rules, self.n_features, self.rule[:end], self.feature[:end],
                          self.lower[:end], self.upper[:end],
                          None if self.allowed is None else self.allowed[:end])

    def compact(self) -> RuleBounds:
        """The same bounds in float32 (what a kept snapshot needs to draw)."""
        return RuleBounds(self.n_rules, self.n_features, self.rule, self.feature,
                          self.lower.astype(np.float32), self.upper.astype(np.float32),
                          self.allowed)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.rule, self.feature, self.lower, self.upper,
                                      self.allowed) if a is not None)

    def columns(self, features) -> tuple[np.ndarray, np.ndarray]:
        """Dense (lower, upper) of these features: rules x len(features), NaN = wildcard."""
        features = list(features)
        lower = np.full((self.n_rules, len(features)), np.nan)
        upper = lower.copy()
        for k, j in enumerate(features):
            on = self.feature == j
            lower[self.rule[on], k] = self.lower[on]
            upper[self.rule[on], k] = self.upper[on]
        return lower, upper

    def sets(self, features) -> np.ndarray | None:
        """The allowed codes of these features' nominal tests (rules x len(features), ``NO_SET``
        where a rule tests no set); None when the data has no nominal feature."""
        if self.allowed is None:
            return None
        out = np.full((self.n_rules, len(features)), NO_SET)
        for k, j in enumerate(features):
            on = self.feature == j
            out[self.rule[on], k] = self.allowed[on]
        return out

    def specified(self, features) -> np.ndarray:
        """Which rules specify each of these features (rules x len(features))."""
        return ~np.isnan(self.columns(features)[0])

    def rows(self, rules) -> tuple[np.ndarray, np.ndarray]:
        """Dense (lower, upper) of these rules over every feature."""
        row, on, shape = self._pairs_of(rules)
        lower = np.full(shape, np.nan)
        upper = lower.copy()
        lower[row, self.feature[on]] = self.lower[on]
        upper[row, self.feature[on]] = self.upper[on]
        return lower, upper

    def row_sets(self, rules) -> np.ndarray | None:
        """The sets of these rules over every feature (``NO_SET`` where a rule tests none),
        row for row with `rows`; None when the data has no nominal feature."""
        if self.allowed is None:
            return None
        row, on, shape = self._pairs_of(rules)
        out = np.full(shape, NO_SET)
        out[row, self.feature[on]] = self.allowed[on]
        return out

    def _pairs_of(self, rules) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        """The pairs of these rules: (their rows among ``rules``, which pairs they are, the
        shape of a dense rules x features matrix of them)."""
        rules = np.asarray(rules, dtype=np.int64)
        where = np.full(self.n_rules, -1)
        where[rules] = np.arange(len(rules))
        on = where[self.rule] >= 0
        return where[self.rule[on]], on, (len(rules), self.n_features)

    def usage(self, numerosity) -> np.ndarray:
        """Per feature, how many rules specify it, numerosity-weighted (micro rules)."""
        weights = np.asarray(numerosity, dtype=np.int64).reshape(-1)[self.rule]
        return np.bincount(self.feature, weights=weights, minlength=self.n_features).astype(
            np.int64)

    def shared_usage(self, features, numerosity) -> np.ndarray:
        """For each pair of these features, how many rules (numerosity-weighted) specify both:
        a len(features) x len(features) matrix, the diagonal each feature's own usage."""
        on = self.specified(features).astype(np.int64)
        weights = np.asarray(numerosity, dtype=np.int64).reshape(-1, 1)
        return on.T @ (on * weights)
