"""How the matching rules become per-label scores, who votes, and what each rule brings.

Two scorers:

- `WeightScorer` (``weighting="fitted"``): a weight per rule and label plus a baseline; a
  label's score is the baseline plus the weights of the rules matching the row, clipped to
  [0, 1] or put through the logistic function (its ``link``, ``mlr_core/links.py``;
  ``mlr_core/rule_weights.py`` and ``mlr_core/calibration.py`` fit them).
- `VoteScorer` (``weighting="vote"``): the paper's share of the F * num vote of the matching
  rules (the nearest rules when none matches), who votes being the rule set's `Voting`.

`Influence` is what each rule brings to a prediction, in the audit's words.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

import numpy as np

from mlr_core import bipartition as bp
from mlr_core import links, params
from mlr_core._engine.matching import match_matrix
from mlr_core._engine.scoring import weighted_scores
from mlr_core._engine.voting import voters
from mlr_core.errors import InputError, require, saved_real
from mlr_core.explain import contributions
from mlr_core.model_file import float_array

if TYPE_CHECKING:
    from mlr_core.rule_set import RuleSet

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
    def from_dict(cls, data: dict, rule_count: int, m: int) -> WeightScorer:
        coef = float_array(data["coef"], "the scorer's coef (the rules' weights)")
        if coef.size == 0:  # no rules: JSON keeps no row length
            coef = coef.reshape(0, m)
        intercept = float_array(data["intercept"], "the scorer's intercept")
        require(coef.shape == (rule_count, m) and intercept.shape == (m,),
                f"the scorer needs {rule_count} x {m} weights (coef) and {m} intercepts.")
        alpha = saved_real(data["alpha"], "the scorer's alpha", 0.0)
        link = data.get("link", links.Clip.name)  # files written before the link was saved
        require(isinstance(link, str) and link in links.LINKS,
                f"the scorer's link must be a link among {sorted(links.LINKS)}.")
        return cls(coef, intercept, alpha, link)


@dataclass(frozen=True)
class VoteScorer:
    """The paper's MLR_agg scores: each label's share of the voters' F * num (``score_norm``
    ``"total"``) or of the top label's (``"max"``); who votes is the rule set's `Voting`."""

    score_norm: str = params.DEFAULTS["score_norm"]

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
        out = np.empty(rule_set.rule_count, dtype=np.int64)
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
        """Nothing: a vote's rules are put back voter by voter instead (``audit.trim``)."""


    def to_dict(self) -> dict:
        return {"kind": self.kind, "score_norm": self.score_norm}

    @classmethod
    def from_dict(cls, data: dict, rule_count: int, m: int) -> VoteScorer:
        return cls(params.saved_param("score_norm", data.get("score_norm"),
                                      "a vote scorer's score_norm"))


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
    nearest rules when none matches; MLR_max's labelset is the vote's winner (``max_by``
    ``"vote"``) or the fittest voter's (``"fittest"``)."""

    min_vote_experience: int = params.DEFAULTS["min_vote_experience"]
    n_nearest: int = params.DEFAULTS["n_nearest"]
    max_by: str = params.DEFAULTS["max_by"]

    def to_dict(self) -> dict:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> Voting:
        """The voting saved by `to_dict`, each field checked by its parameter's declaration."""
        require(isinstance(data, dict), "\"voting\" must be an object.")
        data = params.renamed(data, warn=False)  # files written before max_rule was max_by
        return cls(**{field.name: params.saved_param(field.name, data[field.name],
                                               f"voting {field.name}")
                      for field in fields(cls)})


SCORERS = {cls.kind: cls for cls in (WeightScorer, VoteScorer)}


def scorer_from_dict(data, rule_count: int, m: int) -> WeightScorer | VoteScorer:
    """The scorer saved by its ``to_dict``, of the kind it names, checked."""
    require(isinstance(data, dict) and isinstance(data.get("kind"), str)
            and data["kind"] in SCORERS, f"scorer kind must be one of {', '.join(SCORERS)}.")
    return SCORERS[data["kind"]].from_dict(data, rule_count, m)
