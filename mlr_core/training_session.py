"""A training session: one model trained step by step, for watching it learn.

`MLRClassifier` is the scikit-learn face: parameters, ``fit``, ``predict``, over its fitted state
(``fitted_``, a `~mlr_core.fitted_state.FittedState`: the `TrainingRun`, the `RuleSet` that
predicts, the names). A `TrainingSession` is that state's one writer, for anyone who trains in
steps (the dashboard holds one per tab): ``start`` binds data, ``learn`` and ``step_traced`` run
iterations, ``tune_bipartition`` makes the rules as they are now the model that predicts,
``summary`` and ``history`` read the run. ``fit`` is a session run to its end.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from sklearn.utils import check_random_state

from mlr_core import bipartition as bp
from mlr_core import nominal, params
from mlr_core._deprecation import deprecated_method
from mlr_core._engine.matching import match_matrix
from mlr_core._engine.trace import ROW
from mlr_core.calibration import calibrate
from mlr_core.errors import InputError
from mlr_core.fitted_state import FittedState, by_vote
from mlr_core.iteration_trace import describe
from mlr_core.rule_weights import feature_ramps, feature_rules, fit_weights, fitting_rows
from mlr_core.scaling import Scaling
from mlr_core.scorers import SCORERS, VoteScorer, WeightScorer
from mlr_core.stopping import auto_budget, learn_until_stable
from mlr_core.training_run import TrainingRun
from mlr_core.validation import (
    check_count,
    check_features,
    check_labels,
    check_training_features,
    check_unique_names,
)


class TrainingSession:
    """The training of ``model`` (an `MLRClassifier`: a new one, or a fitted or loaded one to
    train further), step by step. The session is the only writer of the model's fitted state
    (``model.fitted_``, a `~mlr_core.fitted_state.FittedState`). Its methods return the session
    where they change it, so calls chain: ``TrainingSession(MLRClassifier()).start(X,
    Y).learn(500).model``."""

    def __init__(self, model):
        self.model = model

    @property
    def run(self) -> TrainingRun:
        """The model's training run, once started (InputError before)."""
        return self._fitted().run

    def _fitted(self) -> FittedState:
        fitted = getattr(self.model, "fitted_", None)
        if fitted is None:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        return fitted

    def adopt(self, fitted: FittedState) -> TrainingSession:
        """Make ``fitted`` the model's fitted state (the one place it is written): a model
        started here, tuned, loaded, or made of a subset of another's rules. Returns the
        session."""
        self.model.fitted_ = fitted
        return self

    def answers_by_vote(self, prediction=None) -> bool:
        """Whether the model answers ``prediction`` (the constructor's by default) by the rules'
        vote, which needs no fitting (`mlr_core.fitted_state.by_vote`)."""
        return by_vote(prediction or self.model.prediction, self.model.weighting)

    # ----------------------------------------------------------------- binding

    def fit(self, X, Y, feature_names=None, label_names=None):
        """What ``MLRClassifier.fit`` does: start on ``X`` and ``Y``, train for ``n_iter``
        iterations (or until stable), tune the bipartition once, and with ``max_rules``, keep
        the compact model of that many rules (`mlr_core.compaction`). Returns the session."""
        from mlr_core.compaction import compaction_path  # it drives a session of its own

        model = self.start_untuned(X, Y, feature_names, label_names).model
        if model.n_iter == "auto":
            self.learn_until_stable()
        else:
            self.learn(model.n_iter)
        self.adopt(replace(self._fitted(), n_iter=self.run.iteration))
        self.tune_bipartition()
        if model.max_rules is not None:
            compact = compaction_path(model, [model.max_rules])[model.max_rules]
            self.adopt(replace(compact.fitted_, n_iter=self._fitted().n_iter))
        return self

    def start(self, X, Y, feature_names=None, label_names=None, warm_start=False):
        """Bind training data and begin a run (a fresh population unless ``warm_start``, which
        keeps a fitted or loaded model's rules, scaling and counters, and adopts a changed
        ``n_rules``). The bipartition is tuned on the data as it stands. Returns the session."""
        return self.start_untuned(X, Y, feature_names, label_names, warm_start).tune_bipartition()

    def start_untuned(self, X, Y, feature_names=None, label_names=None, warm_start=False):
        """`start` without the tuning, which ``fit`` does once training is over (and the
        dashboard when a page first needs scores: with fitted weights the tuning is a weight
        fit, seconds on wide data, where the checks here take milliseconds). Refused input or
        parameters leave the model as it was: its new state is adopted once all is checked."""
        model = self.model
        model._validate_params()
        fitted = getattr(model, "fitted_", None)
        if warm_start and fitted is not None:
            X = check_features(model, nominal.encoded(X, fitted.run.scaling.categories))
            Y, _ = check_labels(Y, X.shape[0])
            if Y.shape[1] != len(fitted.label_names):
                raise InputError(
                    f"Y has {Y.shape[1]} labels but the model was trained on "
                    f"{len(fitted.label_names)}."
                )
            self._reconfigure(*X.shape)
            fitted.run.bind_rows(X, Y)
            return self
        categories = nominal.categories_of(X)
        X, columns = check_training_features(model, nominal.encoded(X, categories))
        Y, label_dtype = check_labels(Y, X.shape[0])
        n, d = X.shape
        feature_names = _names(feature_names, columns, d, "x")
        label_names = _names(label_names, None, Y.shape[1], "label")
        seed = check_random_state(model.random_state).randint(0, 2**31 - 1)
        scaling = Scaling.of(X, model.axis, categories, model.missing)
        run = TrainingRun(engine_config(model, n, d, scaling), model.fitness, scaling,
                          Y.shape[1], seed, model.history_every)
        run.bind_rows(X, Y)
        return self.adopt(FittedState(run, tuple(feature_names), tuple(label_names), label_dtype,
                                      columns))

    bind = deprecated_method("bind", start_untuned, "use `start_untuned(...)`.")

    def _reconfigure(self, n, d):
        """A warm start's parameters in force on ``n`` rows of ``d`` features."""
        model, run = self.model, self.run
        config = engine_config(model, n, d, run.scaling)
        if model.missing != run.scaling.missing:
            raise InputError(
                f"missing is {model.missing!r} but this run's rules were learned with "
                f"missing={run.scaling.missing!r}, whose reading of a missing value the model "
                "keeps: set it back, or fit anew.")
        if config.max_specified != run.config.max_specified:
            raise InputError(
                f"max_specified resolves to {config.max_specified} but this run's rules "
                f"were made with {run.config.max_specified}: a warm start keeps the rules, so "
                "it cannot change; set it back, or fit anew.")
        run.reconfigure(config, model.fitness)

    def restart(self):
        """``start(X, Y, warm_start=True)`` on the rows already bound, which stay where they
        are: for a copy of a model scored another way (``set_params``) that shares its
        original's bound rows, where binding the training rows again would copy them (89 MB
        on ohsumed's words) only to hold the same values. Returns the session."""
        model, run = self.model, self.run
        if not run.bound:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        model._validate_params()
        self._reconfigure(*run.X.shape)
        run.bind_scaled_rows(run.X, run.truth())
        return self.tune_bipartition()

    # ---------------------------------------------------------------- learning

    def learn(self, n_iterations):
        """Advance training by exactly ``n_iterations`` iterations (a non-negative integer; call
        `start` first). The bipartition and rule weights stay as they were: call
        `tune_bipartition` before predicting with fitted weights. Returns the session."""
        n_iterations = check_count(n_iterations, "learn()", "iterations", 0,
                                   params.MAX_ITERATIONS)
        self.run.learn(n_iterations)
        return self

    def learn_until_stable(self):
        """``n_iter="auto"``: learn until the population's own fit of the training rows stops
        improving (:func:`mlr_core.stopping.learn_until_stable`). Returns the session."""
        run = self.run
        share = params.words_share(self.model.get_params(), float(np.mean(run.scaling.binary)))
        learn_until_stable(run, auto_budget(len(run.y_ids), self.answers_by_vote(), share))
        return self

    def step_traced(self):
        """Run one training iteration, exactly as ``learn(1)`` would, and return what it did:
        the row drawn, [M] and [C], covering, the GA's parents and offspring (after crossover
        and after mutation), subsumption and the deleted copies. See :class:`IterationTrace`.
        The bipartition is left as it was, as by ``learn``."""
        model, run = self.model, self.run
        if not run.bound:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        before = model.rules_frame()
        iteration = run.iteration
        trace = run.step_traced()
        row_bits = run.labelsets[run.y_ids[trace.ints[ROW]]]
        return describe(trace, before, iteration, run.labelsets, row_bits, model.label_names_,
                        model.feature_names_, run.scaling)

    # ------------------------------------------------------------------ tuning

    def tune_bipartition(self):
        """Take the rules as they are now as the model that predicts (``model.rule_set_``):
        fit their weights (``weighting="fitted"``) and set how MLR_agg turns scores into labels,
        from the ``bipartition`` and ``threshold`` parameters: a fixed threshold, RCut at the
        training label cardinality, or the best of them for ``target``
        (:func:`mlr_core.bipartition.tune`) on the leave-one-out scores of the bound training
        rows (fitted) or their votes (vote). `start` and ``fit`` call it; after `learn`, call it
        to follow the rules as they are now. Returns the session."""
        model = self.model
        rule_set, scores, truth = self._tuning()
        cut = self.bipartition_for(model.target, scores, truth)
        return self.adopt(self._fitted().tuned(rule_set.with_scorer(rule_set.scorer, cut),
                                               model.get_params()))

    def tuning_scores(self):
        """``(scores, truth)``: the scores the cut is tuned on (leave-one-out scores of the
        bound training rows with the rules as they are now, or their votes) and those rows'
        labels, for :meth:`bipartition_for` (one weight fit, any number of targets)."""
        return self._tuning()[1:]

    def bipartition_for(self, target, scores, truth):
        """The cut that :meth:`tune_bipartition` would choose for ``target`` (one of
        ``bipartition.TARGETS``) on these scores of rows labelled ``truth``."""
        return bp.tune(scores, truth, self.cut_options(), bp.TARGETS[target],
                       self.model.plateau_rows)

    def cut_options(self):
        """The cuts :meth:`bipartition_for` chooses among, from the ``bipartition`` and
        ``threshold`` parameters (:func:`mlr_core.bipartition.candidates`)."""
        model = self.model
        return bp.candidates(model.bipartition, model.threshold, int(round(self.run.card)),
                             with_top=SCORERS[model.weighting].top_fallback
                             and model.threshold is None)

    def _tuning(self):
        run = self.run
        if not run.bound:
            raise InputError("No training data bound to tune on: call start(X, Y) first.")
        return _TUNINGS[self.model.weighting](self, run, run.truth())

    def _fitted_tuning(self, run, truth):
        rows = fitting_rows(len(truth), seed=run.iteration)
        A = match_matrix(run.population, run.X[rows])
        base, matched = feature_rules(run.X, run.scaling.binary, run.scaling.numeric,
                                      run.scaling.zero, run.y_ids, run.labelsets,
                                      run.population.feat.shape[1], run.iteration)
        scorer, totals, used = fit_weights(A, truth, matched, rows, feature_ramps(base))
        scorer, scores = calibrate(scorer, totals, truth[rows], seed=run.iteration)
        rule_set = self._fitted().rules_under_last_cut(scorer, self.model.get_params(),
                                                      base if used else None)
        return rule_set, scores, truth[rows]

    def _vote_tuning(self, run, truth):
        rule_set = self._fitted().rules_under_last_cut(VoteScorer(self.model.score_norm),
                                                      self.model.get_params())
        scores = rule_set.scores_scaled(run.X) if bp.needs_scores(self.cut_options()) else None
        return rule_set, scores, truth

    # ----------------------------------------------------------------- reading

    def summary(self):
        """A cheap snapshot of the run for a live display.

        ``coverage`` is the fraction of the recent training iterations whose instance some rule
        matched before covering (exact coverage of any data: ``MLRClassifier.coverage``)."""
        return self.run.summary()

    def history(self):
        """The recorded training curve: one row every ``history_every`` iterations (thinned and
        spaced out as the run grows, at most 1,000 rows), columns as in :meth:`summary`."""
        return self.run.history()


_TUNINGS = {WeightScorer.kind: TrainingSession._fitted_tuning,
            VoteScorer.kind: TrainingSession._vote_tuning}
"""How each scorer kind (``weighting``) is tuned to the rules as they are now."""


def engine_config(model, n_train, n_features, scaling):
    """The engine's `Config` of ``model``'s parameters for ``n_train`` rows on ``scaling``'s
    features (``auto`` values resolved)."""
    values = model.get_params()
    return params.engine_config(
        values, n_features,
        params.resolved_n_rules(values, n_train, float(np.mean(scaling.binary))),
        params.resolved_max_specified(values, n_train, n_features))._replace(
            levels=scaling.levels, shares=scaling.share_table)


def _names(given, from_frame, count, prefix):
    """Feature or label names: given, else a DataFrame's columns, else ``prefix0, prefix1...``."""
    names = given if given is not None else from_frame
    if names is None:
        return [f"{prefix}{i}" for i in range(count)]
    names = [str(n) for n in names]
    if len(names) != count:
        raise InputError(f"Got {len(names)} names for {count} {prefix} columns.")
    check_unique_names(names, "feature" if prefix == "x" else "label")
    return names
