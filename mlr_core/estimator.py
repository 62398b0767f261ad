"""MLRClassifier: the scikit-learn estimator, with an incremental API for watching it learn."""

from collections.abc import Iterable

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, _fit_context, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from mlr_core import bipartition as bp
from mlr_core import export, io, params, scorecard
from mlr_core._engine import population as popmod
from mlr_core._engine.matching import match_matrix
from mlr_core._engine.trace import ROW
from mlr_core.compaction import SIZES, selection_path
from mlr_core.errors import InputError
from mlr_core.iteration_trace import describe
from mlr_core.rule_set import Scaling, VoteScorer, Voting, WeightScorer, texts
from mlr_core.rule_weights import feature_matches, feature_rules, fit_weights, fitting_rows
from mlr_core.stopping import auto_budget, learn_until_stable
from mlr_core.training_run import TrainingRun
from mlr_core.validation import check_count, check_features, check_labels, check_unique_names


class MLRClassifier(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Multi-label classification rules: a UCS-style learning classifier system whose rules are
    ``if x in [c - s, c + s] then labelset y`` (Nazmi et al.).

    Parameters
    ----------
{parameters}
    Attributes
    ----------
    run_ : TrainingRun
        The state of training (``mlr_core/training_run.py``); ``population_``, ``labelsets_``
        and ``max_specified_`` read from it.
    rule_set_ : RuleSet
        What predicts (``mlr_core/rule_set.py``): the rules as last tuned, the scaling, the
        scorer (fitted weights or the vote) and the bipartition. Set by ``fit``, ``start`` and
        :meth:`tune_bipartition`, never by prediction; ``predict``, ``predict_proba``,
        ``explain`` and ``to_json`` go through it (:meth:`current_rule_set`).
    bipartition_ : Bipartition
        ``rule_set_.bipartition``: ``("threshold", t)``, ``("threshold_or_top", t)`` or
        ``("rcut", k)``, how MLR_agg turns scores into labels.
    n_iter_ : int
        The iterations ``fit`` ran (``n_iter``, or where ``auto`` stopped).
    rule_weights_ : WeightScorer
        With ``weighting="fitted"``: per rule and label, what the rule adds to the label's
        score when it matches (``coef``), and the baseline (``intercept``);
        ``rule_weights_frame()`` lists them beside the rules. Prediction refuses weights
        older than the rules.
    feature_names_, label_names_, data_min_, data_max_, label_dtype_, classes_, n_features_in_
        What the training data looked like: names, the range each feature is scaled from, the
        dtype predictions come back in.

    Examples
    --------
    >>> import numpy as np
    >>> from mlr_core import MLRClassifier
    >>> X = np.random.default_rng(0).random((200, 2))
    >>> Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.5]).astype(int)
    >>> model = MLRClassifier(n_rules=300, n_iter=5000, random_state=0).fit(X, Y)
    >>> model.predict(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints = params.constraints()

    def __init__(self, **given):
        """Keyword-only, the parameters of `mlr_core.params.PARAMETERS` (see its signature)."""
        unknown = sorted(set(given) - set(params.DEFAULTS))
        if unknown:
            raise TypeError(f"MLRClassifier() got an unexpected keyword argument {unknown[0]!r}")
        for name, default in params.DEFAULTS.items():
            setattr(self, name, given.get(name, default))

    __init__.__signature__ = params.signature()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.classifier_tags.multi_class = False  # each label is 0/1; a 0/1/2 column is refused
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.non_deterministic = False
        return tags

    # ----------------------------------------------------------------- training

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y, feature_names=None, label_names=None):
        """Train on ``X`` (n x d) and ``Y`` (n x m 0/1) for ``n_iter`` iterations (``auto``:
        :func:`mlr_core.stopping.learn_until_stable`; ``n_iter_`` records how many), then tune
        the bipartition on the same data.

        Returns
        -------
        self
        """
        self._bind(X, Y, feature_names, label_names, warm_start=False)
        if self.n_iter == "auto":
            learn_until_stable(self.run_, auto_budget(len(self.run_.y_ids), self._by_vote()))
        else:
            self.learn(self.n_iter)
        self.n_iter_ = self.run_.iteration
        self.tune_bipartition()
        if self.max_rules is not None:
            compact = self.compact(self.max_rules)
            self._become(compact.run_, compact.rule_set_, self.label_dtype_)
        return self

    def start(self, X, Y, feature_names=None, label_names=None, warm_start=False):
        """Bind training data and begin a run (a fresh population unless ``warm_start``, which
        keeps a fitted or loaded model's rules, scaling and counters, and adopts a changed
        ``n_rules``). The bipartition is tuned on the data as it stands. Returns self."""
        self._validate_params()
        self._bind(X, Y, feature_names, label_names, warm_start)
        return self.tune_bipartition()

    def _bind(self, X, Y, feature_names, label_names, warm_start):
        """`start` without the tuning, which ``fit`` does once training is over. Refused input
        leaves the model as it was: checking X sets ``n_features_in_`` before Y and the names
        are checked."""
        before = dict(vars(self))
        try:
            self._bind_checked(X, Y, feature_names, label_names, warm_start)
        except BaseException:
            vars(self).clear()
            vars(self).update(before)
            raise

    def _bind_checked(self, X, Y, feature_names, label_names, warm_start):
        keep = warm_start and hasattr(self, "run_")
        X = check_features(self, X, reset=not keep)
        Y, label_dtype = check_labels(Y, X.shape[0])
        n, d = X.shape
        if keep:
            if Y.shape[1] != len(self.label_names_):
                raise InputError(
                    f"Y has {Y.shape[1]} labels but the model was trained on "
                    f"{len(self.label_names_)}."
                )
            config = self._kernel_config(n, d, self.run_.scaling)
            if config.max_specified != self.max_specified_:
                raise InputError(
                    f"max_specified resolves to {config.max_specified} but this run's rules "
                    f"were made with {self.max_specified_}: a warm start keeps the rules, so it "
                    "cannot change; set it back, or fit anew.")
            self.run_.reconfigure(config, self.fitness)
        else:
            self.feature_names_ = _names(feature_names, getattr(self, "feature_names_in_", None),
                                         d, "x")
            self.label_names_ = _names(label_names, None, Y.shape[1], "label")
            self.classes_ = np.arange(Y.shape[1])  # label indices, as scikit-learn's multi-label
            self.label_dtype_ = label_dtype
            seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
            scaling = Scaling.of(X)
            self.run_ = TrainingRun(self._kernel_config(n, d, scaling),
                                    self.fitness, scaling, Y.shape[1], seed, self.history_every)
        self.run_.bind(X, Y)

    def learn(self, n_iterations):
        """Advance training by exactly ``n_iterations`` iterations (a non-negative integer; call
        ``start`` or ``fit`` first). Can be called again and again; ``fit`` is ``start``, one
        call and :meth:`tune_bipartition`. The bipartition and rule weights stay as they were:
        call :meth:`tune_bipartition` before predicting with fitted weights. Returns self."""
        n_iterations = check_count(n_iterations, "learn()", "iterations", 0, params.MAX_ITERATIONS)
        if not hasattr(self, "run_"):
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        self.run_.learn(n_iterations)
        return self

    def tune_bipartition(self):
        """Take the rules as they are now as the model that predicts (``rule_set_``): fit
        their weights (``weighting="fitted"``) and set how MLR_agg turns scores into labels,
        from the ``bipartition`` and ``threshold`` parameters: a fixed threshold, RCut at the
        training label cardinality, or the best of them for ``target``
        (:func:`mlr_core.bipartition.tune`) on the leave-one-out scores of the bound training
        rows (fitted) or their votes (vote). ``fit`` and ``start`` call it; after ``learn``,
        call it to follow the rules as they are now. Returns self."""
        rule_set, scores, truth = self._tuning()
        self.rule_set_ = rule_set.with_scorer(rule_set.scorer,
                                              self.bipartition_for(self.target, scores, truth))
        self._bipartition_params = self._prediction_params()
        return self

    def tuning_scores(self):
        """``(scores, truth)``: the scores the cut is tuned on (leave-one-out scores of the
        bound training rows with the rules as they are now, or their votes) and those rows'
        labels, for :meth:`bipartition_for` (one weight fit, any number of targets)."""
        return self._tuning()[1:]

    def bipartition_for(self, target, scores, truth):
        """The cut that :meth:`tune_bipartition` would choose for ``target`` (one of
        ``bipartition.TARGETS``) on these scores of rows labelled ``truth``."""
        return bp.tune(scores, truth, self._cut_options(), bp.TARGETS[target])

    def _tuning(self):
        run = self._run()
        if not run.bound:
            raise InputError("No training data bound to tune on: call start(X, Y) first.")
        truth = run.truth()
        if self.weighting == "fitted":
            rows = fitting_rows(len(truth), seed=run.iteration)
            A = match_matrix(run.population, run.X[rows])
            base = feature_rules(run.X, run.scaling.binary, run.y_ids,
                                 run.population.feat.shape[1], run.iteration)
            scorer, scores, used = fit_weights(
                A, truth, feature_matches(base, run.X) if base.size[0] else None, rows)
            return self._snapshot(scorer, base if used else None), scores, truth[rows]
        rule_set = self._snapshot(VoteScorer(self.score_norm))
        scores = rule_set.scores_scaled(run.X) if len(self._cut_options()) > 1 else None
        return rule_set, scores, truth

    def summary(self):
        """A cheap snapshot of the run for a live display.

        ``coverage`` is the fraction of the recent training iterations whose instance some rule
        matched before covering (exact coverage of any data: :meth:`coverage`)."""
        return self._run().summary()

    def history(self):
        """The recorded training curve: one row every ``history_every`` iterations (thinned and
        spaced out as the run grows, at most 1,000 rows), columns as in :meth:`summary`."""
        return self._run().history()

    # --------------------------------------------------------------- prediction

    def predict(self, X, prediction=None):
        """0/1 label matrix (n x m, in the training labels' dtype) by MLR_agg or MLR_max
        (``prediction`` overrides the constructor's choice for this call)."""
        prediction = prediction or self.prediction
        labels = self.current_rule_set(prediction).labels_scaled(self.scaled(X), prediction)
        return labels.astype(self.label_dtype_)

    def predict_proba(self, X):
        """MLR_agg's per-label scores (n x m, in [0, 1]); they also rank the labels. With
        fitted weights, an estimate of each label's probability."""
        return self.current_rule_set("agg").scores_scaled(self.scaled(X))

    def coverage(self, X):
        """Fraction of the rows of X that at least one rule matches."""
        return float(self.current_rule_set("max").votes(self.scaled(X)).covered.mean())

    def explain(self, x):
        """The rules behind the answer for one instance (a 1-D array of d features) and how
        they became MLR_agg's and MLR_max's answers. See :class:`Explanation`."""
        row = check_features(self, np.asarray(x, dtype=np.float64).reshape(1, -1), reset=False)
        return self.current_rule_set("agg").explain(row[0])

    # ------------------------------------------------------------------- rules

    @property
    def population_(self):
        """The rule population (struct of arrays, see ``mlr_core/_engine/population.py``): the
        training run's, or, while the fitted rule set holds one-condition rules beyond it
        (``rule_weights.feature_rules``), the rule set's rules, so that ``rules_frame``,
        ``rule_bounds`` and the audit name the same rules."""
        shown = self._beyond_population()
        return self._run().population if shown is None else shown.rules

    @property
    def labelsets_(self):
        """The distinct labelsets seen, one 0/1 row each; rules refer to them by row."""
        return self._run().labelsets

    @property
    def n_rules_(self):
        """N in force (``n_rules`` with ``auto`` resolved)."""
        return self._run().config.n_rules

    @property
    def max_specified_(self):
        """The specificity limit in force (``max_specified`` with ``auto`` resolved)."""
        return self._run().config.max_specified

    @property
    def data_min_(self):
        """Per feature, the smallest training value (the rules' axis starts there)."""
        return self._run().scaling.data_min

    @property
    def data_max_(self):
        """Per feature, the largest training value (the rules' axis ends there)."""
        return self._run().scaling.data_max

    @property
    def rule_weights_(self) -> WeightScorer:
        """With ``weighting="fitted"``: the rules' fitted weights (``coef``: rules x labels,
        ``intercept``: the baseline per label, ``alpha``: the ridge penalty), refused if the
        rules have changed since they were fitted."""
        scorer = self.current_rule_set("agg").scorer
        if not isinstance(scorer, WeightScorer):
            raise InputError("This model scores by the vote (weighting='vote'): it has no rule "
                             "weights.")
        return scorer

    def scaled(self, X):
        """X (checked) on the model's [0, 1]-scaled axes, where the rules' conditions live: the
        rows the engine's kernels match (the audit uses it)."""
        return self._run().scaling.transform(check_features(self, X, reset=False))

    def rule_bounds(self):
        """(lower, upper): one row per rule (``rules_frame`` order), one column per feature,
        in the data's original units; NaN where the feature is a wildcard."""
        run = self._run()
        shown = self._beyond_population()
        if shown is not None:
            return run.scaling.unscale(*shown.bounds())
        return run.scaling.unscale(*popmod.dense_bounds(run.population, run.n_features))

    def rules_frame(self):
        """The population as a DataFrame: readable rule text, labelset, fitness, accuracy,
        numerosity, experience, generality, ... one row per macro rule (with the fit's
        one-condition rules after them while they predict, see ``population_``)."""
        shown = self._beyond_population()
        return (self._snapshot(None) if shown is None else shown).rules_frame()

    def rule_weights_frame(self):
        """With ``weighting="fitted"``: ``rules_frame()`` with one ``weight: <label>`` column
        per label, what the rule adds to the label's score when it matches (negative: it
        lowers it); the baseline is ``rule_weights_.intercept``."""
        weights = self.rule_weights_
        frame = self.current_rule_set("agg").rules_frame()
        columns = [f"weight: {name}" for name in self.label_names_]
        return pd.concat([frame, pd.DataFrame(weights.coef, index=frame.index,
                                              columns=columns)], axis=1)

    def scorecard(self, X=None):
        """The model's rules as a scorecard (``weighting="fitted"``; read best on a compact
        model): per rule (``rule_id``: its id in ``rules_frame()``, for a compact model the id
        in the full model's), its condition in the data's units, its weight per label, and
        its ``support`` and ``coverage`` on X (the bound training rows by default). The
        baseline, the score when no rule matches, is ``rule_weights_.intercept``; how scores
        become labels is ``rule_set_.prediction_text()``; :meth:`scorecard_csv` holds it all."""
        rule_set = self.current_rule_set("agg")
        return rule_set.scorecard(self._rows(X))

    def scorecard_csv(self, X=None, order=None):
        """The scorecard as a CSV file (text) from which ``predict``'s labels follow without
        this package: notes on how scores are added, clipped to [0, 1] and cut (the cut in
        words and as ``# cut: <method> <value>``), then the baseline and the rules with
        their exact bounds in the data's units (:mod:`mlr_core.scorecard`). ``order``: rule
        ids in the order to list them (ascending by default)."""
        return scorecard.to_csv(self.current_rule_set("agg"), self._rows(X), order)

    def rules_per_row(self, X=None):
        """How many rules match each row of X (the bound training rows by default): how many
        weights an explanation adds up."""
        return self.current_rule_set("agg").match_counts(self._rows(X))

    def export_python(self):
        """The scorecard as a dependency-free Python module with ``predict(row)`` (source text)
        that gives ``predict``'s labels (:func:`mlr_core.export.to_python`)."""
        return export.to_python(self.current_rule_set("agg"))

    def export_sql(self, table="data", key="row_id"):
        """The scorecard as one SQL ``SELECT`` over ``table`` (a unique ``key`` column and a
        column per feature), giving per key one 0/1 column per label, ``predict``'s labels
        (:func:`mlr_core.export.to_sql`)."""
        return export.to_sql(self.current_rule_set("agg"), table, key)

    def step_traced(self):
        """Run one training iteration, exactly as ``learn(1)`` would, and return what it did:
        the row drawn, [M] and [C], covering, the GA's parents and offspring (after crossover
        and after mutation), subsumption and the deleted copies. See :class:`IterationTrace`.
        The bipartition is left as it was, as by ``learn``."""
        run = self._run()
        if not run.bound:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        before = self.rules_frame()
        iteration = int(self.summary()["iteration"])
        trace = run.step_traced()
        row_bits = run.labelsets[run.y_ids[trace.ints[ROW]]]
        return describe(trace, before, iteration, run.labelsets, row_bits, self.label_names_,
                        lambda lower, upper, sets: texts(run.scaling, lower, upper, sets,
                                                         self.feature_names_, self.label_names_))

    def compaction_path(self, sizes=SIZES):
        """{k: a compact model of at most k rules} for each k of ``sizes``, the baseline (the
        scores when no rule matches, BOOMER's default rule) counted as one rule: k - 1 of the
        evolved rules chosen by backward elimination, their weights refitted and the
        bipartition tuned on their leave-one-out scores (``mlr_core/compaction.py``). One
        elimination serves every size; each rule keeps its id here (the ``rule_id`` of
        ``rules_frame()``). Needs fitted weights and the training data still bound (as after
        ``fit``)."""
        if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Iterable):
            raise InputError(f"compaction_path() takes a list of rule budgets, got {sizes!r}.")
        sizes = [_rule_budget(k, "compaction_path()") for k in sizes]
        run = self._run()
        rule_set = self.current_rule_set("agg")
        if not isinstance(rule_set.scorer, WeightScorer):
            raise InputError("Compact models are scorecards of fitted rule weights: set "
                             "weighting='fitted'.")
        if not run.bound:
            raise InputError("Compacting refits the weights on the training data: call "
                             "start(X, Y) or fit(X, Y) first (a loaded model has "
                             "none bound).")
        rows = fitting_rows(len(run.y_ids), seed=run.iteration)
        truth = run.truth()[rows]
        path = selection_path(match_matrix(rule_set.rules, run.X[rows]), truth,
                              rule_set.scorer, [k - 1 for k in sizes])
        models = {}
        for k in sizes:
            ids, scorer, loo = path[k - 1]
            cut = (rule_set.bipartition if loo is None
                   else self.bipartition_for(self.target, loo, truth))
            models[k] = self._with_rule_set(rule_set.subset(rule_set.rule_ids[ids])
                                            .with_scorer(scorer, cut))
        return models

    def compact(self, max_rules):
        """A new fitted model of at most ``max_rules`` rules, the baseline counted as one (see
        :meth:`compaction_path`); this model is left as it is."""
        max_rules = _rule_budget(max_rules, "compact()")
        return self.compaction_path([max_rules])[max_rules]

    def subset(self, rule_ids):
        """A new fitted model that predicts with the rules ``rule_ids`` alone (ids as in
        ``rules_frame()``), each keeping its weights, the bipartition as it is; its training
        state and bound training rows are this one's. The audit's compactions and rule
        exports."""
        return self._with_rule_set(self.current_rule_set().subset(rule_ids))

    def to_json(self):
        """The model as versioned JSON text (see :mod:`mlr_core.io`)."""
        run = self._run()
        return io.to_json(self.get_params(), self.label_dtype_, self.current_rule_set("agg"), run)

    @classmethod
    def from_json(cls, text):
        """A model saved by :meth:`to_json`; raises ModelFormatError if the text is not one.
        It predicts at once; ``start(X, Y, warm_start=True)`` continues its training."""
        def checked_params(values):
            model = cls(**values)
            model._validate_params()
            return model.get_params()

        values, label_dtype, rule_set, run = io.from_json(text, checked_params)
        return cls(**values)._become(run, rule_set, label_dtype)

    # ---------------------------------------------------------------- internals

    def _kernel_config(self, n_train, n_features, scaling):
        """The engine's `Config` for ``n_train`` rows on ``scaling``'s features."""
        values = self.get_params()
        return params.engine_config(
            values, n_features,
            params.resolved_n_rules(values, n_train, float(np.mean(scaling.binary))),
            params.resolved_max_specified(values, n_train, n_features))

    def _become(self, run, rule_set, label_dtype):
        """Be the fitted model of ``run`` predicting with ``rule_set`` (a loaded or compacted
        model)."""
        self.feature_names_ = list(rule_set.feature_names)
        self.label_names_ = list(rule_set.label_names)
        self.classes_ = np.arange(len(self.label_names_))
        self.n_features_in_ = len(self.feature_names_)
        self.label_dtype_ = label_dtype
        self.run_, self.rule_set_ = run, rule_set
        self._bipartition_params = self._prediction_params()
        return self

    def _with_rule_set(self, rule_set):
        """A new fitted model (same parameters) whose rules and predictions are ``rule_set``,
        with this model's training rows still bound, if any."""
        run = self._run()
        model = clone(self)
        if hasattr(self, "feature_names_in_"):
            model.feature_names_in_ = self.feature_names_in_
        new_run = TrainingRun.from_dict(run.to_dict(), run.config, self.fitness, rule_set,
                                        self.history_every)
        if run.bound:
            new_run.bind_scaled(run.X, run.truth())
        return model._become(new_run, rule_set, self.label_dtype_)

    def _rows(self, X):
        """X on the rules' axes, or the bound training rows when X is None."""
        if X is not None:
            return self.scaled(X)
        run = self._run()
        if not run.bound:
            raise InputError("No training data bound: give X.")
        return run.X

    def _run(self):
        check_is_fitted(self, "run_")
        return self.run_

    def _beyond_population(self):
        """``rule_set_`` while it is current and holds rules beyond the population (the fit's
        one-condition rules), else None."""
        run = self._run()
        rule_set = getattr(self, "rule_set_", None)
        if (rule_set is not None and rule_set.iteration == run.iteration
                and rule_set.n_rules > int(run.population.size[0])):
            return rule_set
        return None

    def _snapshot(self, scorer, extra=None):
        """The rules as they are now (and ``extra``, see `TrainingRun.rule_set`) with
        ``scorer``, cut as last tuned."""
        return self._run().rule_set(
            scorer, getattr(self, "rule_set_", None) and self.rule_set_.bipartition,
            Voting(int(self.min_vote_experience), int(self.n_nearest), self.max_rule),
            self.feature_names_, self.label_names_, extra)

    def current_rule_set(self, prediction=None):
        """The :class:`~mlr_core.rule_set.RuleSet` that answers ``prediction`` (``"agg"`` or
        ``"max"``; the constructor's by default): ``rule_set_`` as last tuned, or, once
        training has gone on, the rules as they are now where they need no fitting (the vote,
        MLR_max); fitted weights older than the rules are refused (InputError)."""
        prediction = prediction or self.prediction
        run = self._run()
        self._bipartition()
        rule_set = self.rule_set_
        if rule_set.iteration == run.iteration:
            return rule_set
        if not self._by_vote(prediction):
            raise InputError(
                "The rules changed since their weights were fitted (training went on): call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return self._snapshot(VoteScorer(self.score_norm))

    def _by_vote(self, prediction=None):
        """Whether ``prediction`` (the constructor's by default) is answered by the rules' vote:
        MLR_max always, MLR_agg unless its weights are fitted."""
        return (prediction or self.prediction) == "max" or self.weighting == "vote"

    def _cut_options(self):
        return bp.candidates(self.bipartition, self.threshold, int(round(self.run_.card)),
                             with_top=self.weighting == "fitted" and self.threshold is None)

    def _prediction_params(self):
        return {name: getattr(self, name) for name in params.RETUNE}

    def _bipartition(self):
        """``bipartition_``, refused if the parameters it was tuned under have changed."""
        now = self._prediction_params()
        changed = [name for name in params.RETUNE
                   if now[name] != self._bipartition_params[name]]
        if changed:
            raise InputError(
                f"{', '.join(changed)} changed since the bipartition was tuned: call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return self.rule_set_.bipartition

    @property
    def bipartition_(self):
        """How MLR_agg turns scores into labels (``rule_set_.bipartition``)."""
        self._run()
        return self._bipartition()


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


def _rule_budget(k, what: str) -> int:
    """A rule budget given to ``what``: a whole number, at least 1 (the baseline counts as
    one rule)."""
    return check_count(k, what, "rules (the baseline counted as one)", 1)


MLRClassifier.__doc__ = MLRClassifier.__doc__.replace("{parameters}", params.numpydoc())
