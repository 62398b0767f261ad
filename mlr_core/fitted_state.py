"""What fitting leaves, in one object: the training run, the rule set that predicts, the
parameters it was tuned under, the names and the dtype of the training data.

A `~mlr_core.training_session.TrainingSession` is the only writer: it binds data, trains and
tunes, and gives the model a new `FittedState` each time (the state itself is frozen, its run
trains on in place). `MLRClassifier` reads it (``fitted_``, and its fitted attributes are
properties over it); the dashboard asks it whether the weights are current (`is_current`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from mlr_core import params
from mlr_core.errors import InputError
from mlr_core.rule_set import RuleSet
from mlr_core.scorers import SCORERS, VoteScorer, Voting
from mlr_core.training_run import TrainingRun


def by_vote(prediction: str, weighting: str) -> bool:
    """Whether ``prediction`` (``"agg"`` or ``"max"``) is answered by the rules' vote, which
    needs no fitting: MLR_max always, MLR_agg unless ``weighting`` fits weights."""
    return prediction == "max" or SCORERS[weighting].by_vote


@dataclass(frozen=True, eq=False)
class FittedState:
    """One model's fitted state; see the module docstring. Two states are the same only if
    they are one object."""

    #: The state of training (counters, population, scaling, bound rows).
    run: TrainingRun
    #: The names of the features and labels, as the rules and exports say them.
    feature_names: tuple[str, ...]
    label_names: tuple[str, ...]
    #: The dtype predictions come back in (the training labels').
    label_dtype: np.dtype
    #: The columns of a training DataFrame, as scikit-learn records them (None for an array).
    feature_names_in: np.ndarray | None = None
    #: The rule set that predicts, as last tuned: None between binding and the first tuning.
    rule_set: RuleSet | None = None
    #: The `params.RETUNE` values ``rule_set`` was tuned under.
    tuned_under: dict = field(default_factory=dict)
    #: The iterations ``fit`` ran (None for a model that no ``fit`` trained).
    n_iter: int | None = None

    @classmethod
    def of_rule_set(cls, run: TrainingRun, rule_set: RuleSet, label_dtype, values: dict,
                    feature_names_in: np.ndarray | None = None) -> FittedState:
        """The state of a model that predicts with ``rule_set`` (loaded, a subset, compacted),
        trained by ``run``, tuned under the parameters ``values``."""
        return cls(run, tuple(rule_set.feature_names), tuple(rule_set.label_names),
                   np.dtype(label_dtype), feature_names_in).tuned(rule_set, values)

    def tuned(self, rule_set: RuleSet, values: dict) -> FittedState:
        """This state predicting with ``rule_set``, tuned under the parameters ``values``."""
        return replace(self, rule_set=rule_set,
                       tuned_under={name: values[name] for name in params.RETUNE})

    def is_current(self) -> bool:
        """Whether the rule set is that of the rules as they are now: tuned (its weights
        fitted) since training last changed them."""
        return self.rule_set is not None and self.rule_set.iteration == self.run.iteration

    def rules_under_last_cut(self, scorer, values: dict, feature_rules=None) -> RuleSet:
        """The run's rules as they are now (with the fit's one-condition ``feature_rules``, see
        `TrainingRun.rule_set`), scored by ``scorer``, cut as last tuned and voting by the
        parameters ``values``."""
        voting = Voting(int(values["min_vote_experience"]), int(values["n_nearest"]),
                        values["max_by"])
        return self.run.rule_set(scorer, self.rule_set and self.rule_set.bipartition, voting,
                                 self.feature_names, self.label_names, feature_rules)

    def tuned_rule_set(self, values: dict) -> RuleSet:
        """The rule set as last tuned, refused (InputError) before any tuning or if the
        parameters ``values`` differ from those it was tuned under."""
        if self.rule_set is None:
            raise InputError("The model is not tuned yet: call tune_bipartition() (or start, "
                             "or fit).")
        changed = [name for name in params.RETUNE if values[name] != self.tuned_under[name]]
        if changed:
            raise InputError(
                f"{', '.join(changed)} changed since the bipartition was tuned: call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return self.rule_set

    def rule_set_for(self, prediction: str, values: dict) -> RuleSet:
        """The rule set that answers ``prediction`` under the parameters ``values``: the one
        last tuned (`tuned_rule_set`) while it is current, else, where no fitting is needed
        (`by_vote`), the rules as they are now. Fitted weights older than the rules are
        refused (InputError)."""
        rule_set = self.tuned_rule_set(values)
        if self.is_current():
            return rule_set
        if not by_vote(prediction, values["weighting"]):
            raise InputError(
                "The rules changed since their weights were fitted (training went on): call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return self.rules_under_last_cut(VoteScorer(values["score_norm"]), values)

    def rule_set_with_feature_rules(self) -> RuleSet | None:
        """The rule set while it is current and holds rules beyond the population (the fit's
        one-condition rules, which the model then shows beside the evolved ones), else None."""
        if self.is_current() and self.rule_set.rule_count > int(self.run.population.size[0]):
            return self.rule_set
        return None
