"""MLRClassifier: the scikit-learn estimator, a thin shell over its fitted rule set."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, _fit_context, clone
from sklearn.utils.validation import check_is_fitted

from mlr_core import io, params
from mlr_core._engine import population as popmod
from mlr_core.compaction import compaction_path
from mlr_core.errors import InputError
from mlr_core.scorers import SCORERS, VoteScorer, WeightScorer
from mlr_core.training_run import TrainingRun
from mlr_core.training_session import TrainingSession, rules_now
from mlr_core.validation import check_features


class MLRClassifier(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Multi-label classification rules: a UCS-style learning classifier system whose rules are
    ``if x in [c - s, c + s] then labelset y`` (Nazmi et al.).

    Parameters
    ----------
{parameters}
    Attributes
    ----------
    run_ : TrainingRun
        The state of training (``mlr_core/training_run.py``); ``labelsets_``, ``n_rules_``
        and ``max_specified_`` read from it. A `~mlr_core.training_session.TrainingSession`
        trains it further step by step.
    rule_set_ : RuleSet
        What predicts (``mlr_core/rule_set.py``): the rules as last tuned, the scaling, the
        scorer (fitted weights or the vote) and the bipartition; its methods explain
        (``explain``) and export (``scorecard``, ``rule_weights_frame``, ``match_counts``;
        ``mlr_core.export``, ``mlr_core.scorecard``). Set by ``fit`` and a session's
        ``tune_bipartition``, never by prediction; ``predict``, ``predict_proba`` and
        ``to_json`` go through it (:meth:`current_rule_set`).
    bipartition_ : Bipartition
        ``rule_set_.bipartition``: ``("threshold", t)``, ``("threshold_or_top", t)`` or
        ``("rcut", k)``, how MLR_agg turns scores into labels.
    n_iter_ : int
        The iterations ``fit`` ran (``n_iter``, or where ``auto`` stopped).
    tuned_under_ : dict
        The parameters the cut was tuned under (``params.RETUNE``); prediction refuses a cut
        whose parameters have changed since.
    rule_weights_ : WeightScorer
        With ``weighting="fitted"``: per rule and label, what the rule adds to the label's
        score when it matches (``coef``), and the baseline (``intercept``);
        ``rule_set_.rule_weights_frame()`` lists them beside the rules. Prediction refuses weights
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
        given = params.renamed(given)
        unknown = sorted(set(given) - set(params.DEFAULTS))
        if unknown:
            raise TypeError(f"MLRClassifier() got an unexpected keyword argument {unknown[0]!r}")
        for name, default in params.DEFAULTS.items():
            setattr(self, name, given.get(name, default))

    __init__.__signature__ = params.signature()

    def set_params(self, **values):
        """scikit-learn's ``set_params``, taking a former name (`mlr_core.params.RENAMED`) too."""
        return super().set_params(**params.renamed(values))

    def _validate_params(self):
        """scikit-learn's check of each parameter, then of the rules between them
        (`mlr_core.params.TOGETHER`): every caller (``fit``, a session's start, a loaded file's
        parameters) refuses them before any training."""
        super()._validate_params()
        params.check_together(self.get_params())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.classifier_tags.multi_class = False  # each label is 0/1; a 0/1/2 column is refused
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.non_deterministic = False
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y, feature_names=None, label_names=None):
        """Train on ``X`` (n x d) and ``Y`` (n x m 0/1) for ``n_iter`` iterations (``auto``:
        :func:`mlr_core.stopping.learn_until_stable`; ``n_iter_`` records how many), then tune
        the bipartition on the same data: a `TrainingSession` run to its end.

        Returns
        -------
        self
        """
        session = TrainingSession(self).bind(X, Y, feature_names, label_names)
        if self.n_iter == "auto":
            session.learn_until_stable()
        else:
            session.learn(self.n_iter)
        self.n_iter_ = self.run_.iteration
        session.tune_bipartition()
        if self.max_rules is not None:
            compact = compaction_path(self, [self.max_rules])[self.max_rules]
            self._become(compact.run_, compact.rule_set_, self.label_dtype_)
        return self

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

    def scaled(self, X):
        """X (checked) on the model's [0, 1]-scaled axes, where the rules' conditions live: the
        rows the engine's kernels match (the audit uses it)."""
        return self._run().scaling.transform(check_features(self, X, reset=False))

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
        if not self.by_vote(prediction):
            raise InputError(
                "The rules changed since their weights were fitted (training went on): call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return rules_now(self, VoteScorer(self.score_norm))

    def by_vote(self, prediction=None):
        """Whether ``prediction`` (the constructor's by default) is answered by the rules' vote:
        MLR_max always, MLR_agg unless its weights are fitted."""
        return (prediction or self.prediction) == "max" or SCORERS[self.weighting].by_vote

    def retune_params(self):
        """The parameters the bipartition is tuned under, as they are now."""
        return {name: getattr(self, name) for name in params.RETUNE}

    def _bipartition(self):
        """``bipartition_``, refused if the parameters it was tuned under have changed."""
        now = self.retune_params()
        changed = [name for name in params.RETUNE if now[name] != self.tuned_under_[name]]
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
        return self.current_rule_set("agg").scorer.fitted("rule_weights_")

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
        return (rules_now(self, None) if shown is None else shown).rules_frame()

    def subset(self, rule_ids):
        """A new fitted model that predicts with the rules ``rule_ids`` alone (ids as in
        ``rules_frame()``), each keeping its weights, the bipartition as it is; its training
        state and bound training rows are this one's. The audit's compactions and rule
        exports."""
        return self.with_rule_set(self.current_rule_set().subset(rule_ids))

    def with_rule_set(self, rule_set):
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

    # --------------------------------------------------------------------- JSON

    def to_json(self):
        """The model as versioned JSON text (see :mod:`mlr_core.io`)."""
        run = self._run()
        return io.to_json(self.get_params(), self.label_dtype_, self.current_rule_set("agg"), run)

    @classmethod
    def from_json(cls, text):
        """A model saved by :meth:`to_json`; raises ModelFormatError if the text is not one.
        It predicts at once; ``TrainingSession(model).start(X, Y, warm_start=True)`` continues
        its training."""
        def checked_params(values):
            model = cls(**values)
            model._validate_params()
            return model.get_params()

        values, label_dtype, rule_set, run = io.from_json(text, checked_params)
        return cls(**values)._become(run, rule_set, label_dtype)

    # ---------------------------------------------------------------- internals

    def _become(self, run, rule_set, label_dtype):
        """Be the fitted model of ``run`` predicting with ``rule_set`` (a loaded or compacted
        model)."""
        self.feature_names_ = list(rule_set.feature_names)
        self.label_names_ = list(rule_set.label_names)
        self.classes_ = np.arange(len(self.label_names_))
        self.n_features_in_ = len(self.feature_names_)
        self.label_dtype_ = label_dtype
        self.run_, self.rule_set_ = run, rule_set
        self.tuned_under_ = self.retune_params()
        return self

    def _run(self):
        check_is_fitted(self, "run_")
        return self.run_

    def _beyond_population(self):
        """``rule_set_`` while it is current and holds rules beyond the population (the fit's
        one-condition rules), else None."""
        run = self._run()
        rule_set = getattr(self, "rule_set_", None)
        if (rule_set is not None and rule_set.iteration == run.iteration
                and rule_set.rule_count > int(run.population.size[0])):
            return rule_set
        return None


MLRClassifier.__doc__ = MLRClassifier.__doc__.replace("{parameters}", params.numpydoc())
