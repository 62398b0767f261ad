"""What predicts: a fitted rule set, the one owner of everything a prediction reads.

A `RuleSet` holds the rules that predict (their conditions on the [0, 1]-scaled axes, their
labelsets and training statistics, as a compact population), the scaling from the data's units
(`Scaling`, ``mlr_core/scaling.py``), the scorer that turns the matching rules into per-label
scores (fitted weights or the vote, ``mlr_core/scorers.py``), and the bipartition that turns
scores into labels. The estimator predicts, explains and saves through it; the audit compacts
and re-predicts with `RuleSet.subset`; compact models are rule sets of k rules with refitted
weights (``mlr_core/compaction.py``). A saved rule set is read back field by field through the
checks of ``mlr_core/model_file.py``.

MLR_max (one whole labelset, the vote's winner) reads the same rules whatever the scorer.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import scipy.sparse as sp

from mlr_core import bipartition as bp
from mlr_core import model_file
from mlr_core._engine import population as popmod
from mlr_core._engine.matching import match_matrix, match_set
from mlr_core._engine.voting import vote
from mlr_core.errors import InputError
from mlr_core.explain import Explanation, contribution_columns
from mlr_core.model_file import RULE_STATS
from mlr_core.nominal import encoded
from mlr_core.rules import condition_text, labelset_text, rule_conditions, rule_text, rules_frame
from mlr_core.scaling import MAX_KNOTS, Scaling, rank_knots
from mlr_core.scorers import Influence, VoteScorer, Voting, WeightScorer, scorer_from_dict
from mlr_core.sparse_rows import checked_csr
from mlr_core.validation import check_no_infinity, check_no_missing_stored

TEXT_BLOCK = 256
"""Rules whose bounds (rules x features) are made at once for their texts."""

__all__ = ["MAX_KNOTS", "Influence", "RuleSet", "Scaling", "VoteScorer", "Voting",
           "WeightScorer", "rank_knots", "texts"]
"""`RuleSet` and, from the modules they moved to, the names a user's code imports from here."""


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
        (``x = 1``, ``x >= cut``: ``mlr_core/rule_weights.py``) rather than evolved ones: a
        loaded model's training population takes the evolved rules alone (`evolved`), as the
        run that saved it held them; the fit adds its one-condition rules again on every refit.
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
    def rule_count(self) -> int:
        """How many rules it holds, each once whatever its numerosity (the parameter
        ``n_rules`` is another thing: N, the most the population's numerosities add up to)."""
        return int(self.rules.size[0])

    @property
    def n_rules(self) -> int:
        """Former name of `rule_count`, which it returns with a FutureWarning."""
        warnings.warn("RuleSet.n_rules is now RuleSet.rule_count (the parameter n_rules is N, "
                      "the micro-population); the old name will go.", FutureWarning, stacklevel=2)
        return self.rule_count

    @property
    def n_evolved(self) -> int:
        """How many of the rules, the first ones, evolved (the rest are `n_feature_rules`)."""
        return self.rule_count - self.n_feature_rules

    @property
    def feature_rules_alone(self) -> bool:
        """Whether the one-condition rules answer alone: fitted weights where every evolved rule
        weighs 0, as the weight fit's leave-one-out error chose where the evolved rules added
        nothing to the additive model (``rule_weights.fit_weights``)."""
        coef = getattr(self.scorer, "coef", None)
        return bool(self.n_feature_rules and self.n_evolved and coef is not None
                    and not coef[:self.n_evolved].any())

    def evolved(self) -> tuple[popmod.Population, np.ndarray]:
        """(the evolved rules, copied, their ids): the population a training run resumes."""
        at = np.arange(self.n_evolved)
        return popmod.take(self.rules, at), self.rule_ids[at]

    def subset(self, rule_ids) -> RuleSet:
        """The rules whose ids (`RuleSet.rule_ids`) are ``rule_ids`` alone, keeping their ids
        and weights (in ascending id order, so that ties between them break as here); the
        scorer and bipartition stay as they are."""
        ids = np.unique(np.asarray(rule_ids, dtype=np.int64))
        at = np.minimum(np.searchsorted(self.rule_ids, ids), max(self.rule_count - 1, 0))
        unknown = ids[self.rule_ids[at] != ids] if self.rule_count else ids
        if len(unknown):
            raise InputError(f"rule {unknown[0]} is not one of the {self.rule_count} rules of this "
                             "model (the rule_id of its rules_frame()).")
        return replace(self, rules=popmod.take(self.rules, at), scorer=self.scorer.subset(at),
                       rule_ids=ids, n_feature_rules=int(np.count_nonzero(at >= self.n_evolved)))

    def with_scorer(self, scorer, bipartition) -> RuleSet:
        """The same rules, scored and cut anew (refitted weights, a retuned bipartition)."""
        return replace(self, scorer=scorer, bipartition=bp.Bipartition(*bipartition))

    # -------------------------------------------------------------- predicting

    def prediction_text(self, prediction: str = "agg") -> str:
        """How a prediction is made, in words: MLR_agg's scores (fitted weights through their
        link, or the vote; the scorer's ``words``) and their cut (`bipartition.words`), or
        MLR_max's labelset."""
        if prediction == "max":
            whose = ("the one its voters (the rules matching it, its nearest rules when none "
                     "does) back with the most fitness x numerosity"
                     if self.voting.max_by == "vote" else "that of its fittest voter")
            return f"Each row gets one whole labelset: {whose}."
        words = self.scorer.words
        return f"{words[0].upper()}{words[1:]}; the labels are cut from them by " \
               f"{self.bipartition.words()}."

    def scaled(self, X: np.ndarray) -> np.ndarray:
        """Rows in the data's units (a checked float matrix, scipy sparse rows, or a DataFrame
        whose nominal columns hold categories) on the rules' [0, 1] axes."""
        if sp.issparse(X):
            X = checked_csr(X)
            values = X.data
        else:
            try:
                X = values = np.asarray(encoded(X, self.scaling.categories), dtype=np.float64)
            except (TypeError, ValueError) as err:
                raise InputError(f"X must hold numbers: {err}") from err
        if X.ndim != 2 or X.shape[1] != len(self.feature_names):
            raise InputError(f"X must have {len(self.feature_names)} feature columns, got shape "
                             f"{X.shape}.")
        if sp.issparse(X) and self.scaling.fills is None:
            check_no_missing_stored(values)
        check_no_infinity(values)
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
            chosen = votes.voted_set if self.voting.max_by == "vote" else votes.fittest_set
            return bp.max_labels(chosen, self.labelsets)
        return self.bipartition.apply(self.scores_scaled(Xs))

    def scores(self, X) -> np.ndarray:
        return self.scores_scaled(self.scaled(X))

    def labels(self, X, prediction: str = "agg") -> np.ndarray:
        return self.labels_scaled(self.scaled(X), prediction)

    def matching(self, x_scaled: np.ndarray) -> np.ndarray:
        """Positions of the rules matching one scaled row, ascending."""
        out = np.empty(self.rule_count, dtype=np.int64)
        return out[:match_set(self.rules, x_scaled, out)]

    def contributions(self, x) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """For one row in the data's units: (rule positions, what each adds to each label's score,
        the baseline, covered). With fitted weights the rules are the matching ones and
        ``baseline + contributions.sum(axis=0)``, through the link, is exactly `scores`
        (the same additions in the same order). With the vote, the voters' shares of the
        total vote (the nearest rules when none matches; ``covered`` False) and a zero
        baseline."""
        return self.scorer.contributions(self, self.scaled(self._one_row(x))[0])

    def _one_row(self, x):
        """One row in the data's units as a 1 x d matrix (a 1 x d sparse row as it is; a table
        of one row where features are nominal: their values are categories)."""
        if sp.issparse(x):
            return x
        if self.scaling.categories is None:
            return np.asarray(x, dtype=np.float64).reshape(1, -1)
        return pd.DataFrame([list(np.asarray(x, dtype=object).ravel())])

    def explain(self, x) -> Explanation:
        """Why these rules answer what they answer for one row (see `Explanation`)."""
        at, share, baseline, covered = self.contributions(x)
        xs = self.scaled(self._one_row(x))
        if self.scaling.categories is None:
            frame = self.rules_frame().iloc[at].reset_index()
        else:  # "colour = red ∈ {red, ochre}"
            frame = self.rules_frame(self._one_row(x).iloc[0].tolist()).iloc[at].reset_index()
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
            missing=self._missing_texts(x),
        )

    def _missing_texts(self, x) -> tuple:
        """`Explanation.missing` of one row in the data's units."""
        row = self._one_row(x)
        values = (row.toarray() if sp.issparse(row)
                  else np.asarray(encoded(row, self.scaling.categories), dtype=np.float64))
        return tuple((int(j), self.feature_names[j], self.scaling.fill_text(j))
                     for j in np.flatnonzero(np.isnan(values[0])))

    # ------------------------------------------------------------------ reading

    def bounds(self):
        """(lower, upper) per rule and feature on the scaled axes, NaN for a wildcard."""
        return popmod.dense_bounds(self.rules, len(self.feature_names))

    def tests(self) -> list[list[tuple[int, float, float, float]]]:
        """Per rule, its tests in the data's units: (feature, lower, upper, spread) for each
        feature it specifies, in slot order; it accepts a value ``x`` of the feature exactly
        when ``lower <= x <= upper`` (`Scaling.accepted`: -inf or inf where the axis's end is
        reached; ``spread`` is its half-width on the axis). Nominal tests are `set_tests`."""
        pop = self.rules
        rows, slots = np.nonzero(np.arange(pop.feat.shape[1]) < pop.nspec[:, None])
        if popmod.has_sets(pop):
            numeric = pop.allowed[rows, slots] == popmod.NO_SET
            rows, slots = rows[numeric], slots[numeric]
        features, spread = pop.feat[rows, slots], pop.spread[rows, slots]
        lower, upper = self.scaling.accepted(features, pop.center[rows, slots], spread)
        out = [[] for _ in range(self.rule_count)]
        for i, *test in zip(rows.tolist(), features.tolist(), lower.tolist(), upper.tolist(),
                            spread.tolist(), strict=True):
            out[i].append(tuple(test))
        return out

    def bounds_in_blocks(self):
        """`bounds` a block of `TEXT_BLOCK` rules at a time: (the block's positions, lower,
        upper, sets), so that no rules x features matrix is whole (3,000 rules of 20,000 words:
        480 MB each); sets is `population.dense_sets` of the block (None without nominal
        tests)."""
        d = len(self.feature_names)
        for start in range(0, self.rule_count, TEXT_BLOCK):
            at = np.arange(start, min(start + TEXT_BLOCK, self.rule_count))
            block = popmod.take(self.rules, at)
            yield at, *popmod.dense_bounds(block, d), popmod.dense_sets(block, d)

    def set_tests(self) -> list[list[tuple[int, tuple]]]:
        """Per rule, its nominal tests: (feature, the categories it allows) for each nominal
        feature it specifies, in slot order; it accepts a value exactly when the value is one
        of them (a category training never saw, or a missing value, is in no set)."""
        out = [[] for _ in range(self.rule_count)]
        if not popmod.has_sets(self.rules):
            return out
        pop, categories = self.rules, self.scaling.categories
        for i in range(self.rule_count):
            for k in range(int(pop.nspec[i])):
                if pop.allowed[i, k] != popmod.NO_SET:
                    j, mask = int(pop.feat[i, k]), int(pop.allowed[i, k])
                    out[i].append((j, tuple(v for code, v in enumerate(categories[j])
                                            if mask >> code & 1)))
        return out

    def rule_conditions(self, row=None) -> list[tuple[str, ...]]:
        """Per rule, its conditions as `rule_texts` writes them, one text per feature it
        specifies; with ``row`` (one row's values in the data's units), a nominal test also
        names the row's value (``colour = red ∈ {red, ochre}``)."""
        return [terms for at, lower, upper, sets in self.bounds_in_blocks()
                for terms in conditions(self.scaling, lower, upper, self.feature_names, sets, row)]

    def rule_texts(self, row=None) -> list[str]:
        """One readable line per rule (``IF ... THEN {a, c}``); ``row`` as in
        `rule_conditions`."""
        return [rule_text(terms, labelset_text(bits, self.label_names)) for terms, bits in zip(
            self.rule_conditions(row), self.labelsets[self.rules.ls], strict=True)]

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
        support = match_matrix(self.rules, Xs).sum(axis=0).astype(np.int64)
        frame = pd.DataFrame({
            "condition": [condition_text(terms) for terms in self.rule_conditions()],
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

    def rules_frame(self, row=None) -> pd.DataFrame:
        """One row per rule (``rule_id`` index): readable text, labelset, fitness, accuracy,
        numerosity, experience, generality, ..., and the text's conditions one by one
        (``conditions``); ``row`` as in `rule_conditions`."""
        generality = popmod.generality(self.rules, len(self.feature_names), self.scaling.levels)
        return rules_frame(self.rules, self.rule_conditions(row), self.labelsets[self.rules.ls],
                           generality, self.label_names, self.rule_ids)

    # --------------------------------------------------------------------- JSON

    def to_dict(self) -> dict:
        """JSON-ready data; conditions as XCSF's ``hyperrectangle_csr`` (a centre and a spread
        per feature on the scaled axes, null for a wildcard), the rules' ids beside them
        (``rule_ids``). Floats round-trip exactly."""
        pop, d = self.rules, len(self.feature_names)
        rules = []
        for i in range(self.rule_count):
            center, spread = [None] * d, [None] * d
            for k in range(pop.nspec[i]):
                center[pop.feat[i, k]] = float(pop.center[i, k])
                spread[pop.feat[i, k]] = float(pop.spread[i, k])
            condition = {"type": "hyperrectangle_csr", "center": center, "spread": spread}
            if popmod.has_sets(pop):
                condition["allowed"] = popmod.allowed_lists(pop, i, d)
            rule = {"condition": condition,
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
    def from_dict(cls, data: dict, max_population: int, max_specified: int) -> RuleSet:
        """Rebuild from `to_dict` output, every field checked (ModelFormatError): at most
        ``max_population`` rules of at most ``max_specified`` features (clipped to the features),
        checked before allocating. A file without ``rule_ids`` (written before rules kept
        their ids) numbers its rules 0, 1, ...; one without ``n_feature_rules`` (written before
        the one-condition rules were told apart) counts them all as evolved."""
        features, labels = model_file.names(data)
        d, m = len(features), len(labels)
        max_specified = min(max_specified, d)
        scaling = Scaling.from_dict(data, features)
        rules = model_file.listed(data, "rules")
        pop, labelsets = model_file.population(rules, d, m, max_population, max_specified,
                                               scaling.levels)
        n = len(rules)
        scorer = scorer_from_dict(data["scorer"], n, m)
        iteration = model_file.iteration(data["iteration"])
        n_feature_rules = model_file.n_feature_rules(data.get("n_feature_rules", 0), n, d)
        return cls(pop, labelsets, scaling, scorer, bp.checked(data["bipartition"], m),
                   Voting.from_dict(data["voting"]), tuple(features), tuple(labels), iteration,
                   model_file.rule_ids(data.get("rule_ids"), n), n_feature_rules)


def conditions(scaling, scaled_lower, scaled_upper, feature_names, sets=None, row=None):
    """`rules.rule_conditions` of bounds on the scaled axes (NaN = wildcard): a condition on a
    0/1 feature (``scaling.binary``) reads ``word = 1``, one on a nominal feature names the
    categories of its set (``sets``, `population.dense_sets`)."""
    lower, upper = scaling.unscale(scaled_lower, scaled_upper)
    return rule_conditions(lower, upper, scaled_lower, scaled_upper, feature_names,
                           binary=scaling.binary, sets=sets, categories=scaling.categories,
                           row=row)


def texts(scaling, scaled_lower, scaled_upper, labelsets, feature_names, label_names,
          sets=None, row=None):
    """Readable rules from bounds on the scaled axes and 0/1 labelset rows (`conditions`)."""
    return [rule_text(terms, labelset_text(bits, label_names)) for terms, bits in zip(
        conditions(scaling, scaled_lower, scaled_upper, feature_names, sets, row), labelsets,
        strict=True)]
