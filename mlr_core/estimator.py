"""MLRClassifier: the scikit-learn estimator, a thin shell over its fitted state
(`mlr_core.fitted_state`), which a `TrainingSession` writes."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin, _fit_context, clone
from sklearn.utils.validation import check_is_fitted

from mlr_core import io, params
from mlr_core._deprecation import deprecated_method
from mlr_core._engine import population as popmod
from mlr_core.fitted_state import FittedState
from mlr_core.nominal import encoded
from mlr_core.rule_set import WeightScorer
from mlr_core.training_session import TrainingSession
from mlr_core.validation import check_features


class MLRClassifier(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Multi-label classification rules: a UCS-style learning classifier system whose rules are
    ``if x in [c - s, c + s] then labelset y`` (Nazmi et al.).

    Parameters
    ----------
{parameters}
    Attributes
    ----------
    fitted_ : FittedState
        Everything fitting left, in one object (``mlr_core/fitted_state.py``), which only a
        `~mlr_core.training_session.TrainingSession` writes (``fit`` is one run to its end);
        the attributes below read it.
    run_ : TrainingRun
        The state of training (``mlr_core/training_run.py``); ``labelsets_``, ``n_rules_`` and
        ``max_specified_`` read from it, ``population_`` too unless the fitted rule set adds
        rules. A `~mlr_core.training_session.TrainingSession` trains it further step by step.
    rule_set_ : RuleSet
        What predicts (``mlr_core/rule_set.py``): the rules as last tuned, the scaling, the
        scorer (fitted weights or the vote) and the bipartition; its methods explain
        (``explain``) and export (``scorecard``, ``rule_weights_frame``, ``match_counts``;
        ``mlr_core.export``, ``mlr_core.scorecard``). Set by ``fit`` and a session's
        ``tune_bipartition``, never by prediction; ``predict``, ``predict_proba`` and
        ``to_json`` go through it, or, once training has gone on, through the rules as they
        are now where they need no fitting (the vote, MLR_max).
    bipartition_ : Bipartition
        ``rule_set_.bipartition``: ``("threshold", t)``, ``("threshold_or_top", t)``,
        ``("threshold_or_top_floor", (t, floor))`` or ``("rcut", k)``, how MLR_agg turns
        scores into labels.
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
    feature_names_in_ : ndarray of str
        The columns of a training DataFrame, as scikit-learn records them (absent for an
        array).

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
        tags.input_tags.allow_nan = True  # a missing value: mlr_core/missing.py
        tags.input_tags.sparse = True  # scipy sparse rows stay sparse (sparse_rows.py)
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y, feature_names=None, label_names=None):
        """Train on ``X`` (n x d) and ``Y`` (n x m 0/1) for ``n_iter`` iterations (``auto``:
        :func:`mlr_core.stopping.learn_until_stable`; ``n_iter_`` records how many), then tune
        the bipartition on the same data: a `TrainingSession` run to its end
        (:meth:`TrainingSession.fit <mlr_core.training_session.TrainingSession.fit>`).

        Returns
        -------
        self
        """
        TrainingSession(self).fit(X, Y, feature_names, label_names)
        return self

    # --------------------------------------------------------------- prediction

    def predict(self, X, prediction=None):
        """0/1 label matrix (n x m, in the training labels' dtype) by MLR_agg or MLR_max
        (``prediction`` overrides the constructor's choice for this call)."""
        prediction = prediction or self.prediction
        labels = self._rule_set_for(prediction).labels_scaled(self._scaled(X), prediction)
        return labels.astype(self.label_dtype_)

    def predict_proba(self, X):
        """MLR_agg's per-label scores (n x m, in [0, 1]); they also rank the labels. With
        fitted weights, an estimate of each label's probability."""
        return self._rule_set_for("agg").scores_scaled(self._scaled(X))

    def coverage(self, X):
        """Fraction of the rows of X that at least one rule matches."""
        return float(self._rule_set_for("max").votes(self._scaled(X)).covered.mean())

    def _scaled(self, X):
        """X (checked) on the model's [0, 1]-scaled axes, where the rules' conditions live: the
        rows the engine's kernels match (the audit uses it)."""
        scaling = self._fitted().run.scaling
        return scaling.transform(check_features(self, encoded(X, scaling.categories)))

    def _rule_set_for(self, prediction=None):
        """The :class:`~mlr_core.rule_set.RuleSet` that answers ``prediction`` (``"agg"`` or
        ``"max"``; the constructor's by default) under the parameters as they are now
        (:meth:`FittedState.rule_set_for <mlr_core.fitted_state.FittedState.rule_set_for>`)."""
        return self._fitted().rule_set_for(prediction or self.prediction, self.get_params())

    current_rule_set = deprecated_method(
        "current_rule_set", _rule_set_for,
        "read `rule_set_` (the rules as last tuned), after "
        "`TrainingSession.tune_bipartition()` where training went on.")
    scaled = deprecated_method("scaled", _scaled, "use `rule_set_.scaled(X)`.")

    @property
    def bipartition_(self):
        """How MLR_agg turns scores into labels (``rule_set_.bipartition``), refused if the
        parameters it was tuned under have changed."""
        return self._fitted().tuned_rule_set(self.get_params()).bipartition

    # ----------------------------------------------------------- fitted state

    @property
    def run_(self):
        """The state of training (see the class docstring)."""
        return self._fitted().run

    @property
    def rule_set_(self):
        """What predicts, as last tuned (see the class docstring); absent before the first
        tuning."""
        return self._present("rule_set", "the model is not tuned yet: call tune_bipartition() "
                             "(or start, or fit).")

    @property
    def tuned_under_(self):
        """The parameters the cut was tuned under (``params.RETUNE``)."""
        return dict(self._fitted().tuned_under)

    @property
    def n_iter_(self):
        """The iterations ``fit`` ran; absent on a model no ``fit`` trained (a loaded one)."""
        return self._present("n_iter", "this model was not trained by fit().")

    @property
    def feature_names_(self):
        """The features' names, as the rules say them."""
        return list(self._fitted().feature_names)

    @property
    def label_names_(self):
        """The labels' names, as the rules say them."""
        return list(self._fitted().label_names)

    @property
    def classes_(self):
        """The label indices, as scikit-learn's multi-label classifiers give them."""
        return np.arange(len(self._fitted().label_names))

    @property
    def label_dtype_(self):
        """The dtype ``predict`` answers in (the training labels')."""
        return self._fitted().label_dtype

    @property
    def n_features_in_(self):
        """The number of features seen in training (scikit-learn's)."""
        return len(self._fitted().feature_names)

    @property
    def feature_names_in_(self):
        """The columns of a training DataFrame (scikit-learn's); absent for an array."""
        return self._present("feature_names_in", "the model was trained on an array, without "
                             "feature names.")

    # ------------------------------------------------------------------- rules

    @property
    def population_(self):
        """The rule population (struct of arrays, see ``mlr_core/_engine/population.py``): the
        training run's, or, while the fitted rule set holds one-condition rules beyond it
        (``rule_weights.feature_rules``), the rule set's rules, so that ``rules_frame``,
        ``rule_bounds`` and the audit name the same rules."""
        fitted = self._fitted()
        shown = fitted.rule_set_with_feature_rules()
        return fitted.run.population if shown is None else shown.rules

    @property
    def labelsets_(self):
        """The distinct labelsets seen, one 0/1 row each; rules refer to them by row."""
        return self._fitted().run.labelsets

    @property
    def n_rules_(self):
        """N in force (``n_rules`` with ``auto`` resolved)."""
        return self._fitted().run.config.n_rules

    @property
    def max_specified_(self):
        """The specificity limit in force (``max_specified`` with ``auto`` resolved)."""
        return self._fitted().run.config.max_specified

    @property
    def data_min_(self):
        """Per feature, the smallest training value (the rules' axis starts there)."""
        return self._fitted().run.scaling.data_min

    @property
    def data_max_(self):
        """Per feature, the largest training value (the rules' axis ends there)."""
        return self._fitted().run.scaling.data_max

    @property
    def rule_weights_(self) -> WeightScorer:
        """With ``weighting="fitted"``: the rules' fitted weights (``coef``: rules x labels,
        ``intercept``: the baseline per label, ``alpha``: the ridge penalty), refused if the
        rules have changed since they were fitted."""
        return self._rule_set_for("agg").scorer.fitted("rule_weights_")

    def rule_bounds(self):
        """(lower, upper): one row per rule (``rules_frame`` order), one column per feature,
        in the data's original units; NaN where the feature is a wildcard."""
        fitted = self._fitted()
        run, shown = fitted.run, fitted.rule_set_with_feature_rules()
        if shown is not None:
            return run.scaling.unscale(*shown.bounds())
        return run.scaling.unscale(*popmod.dense_bounds(run.population, run.n_features))

    def rule_sets(self):
        """The sets beside `rule_bounds`: per rule and feature, the category codes a nominal
        test allows (a uint64 bitmask: bit ``c`` is category ``run_.scaling.categories[j][c]``),
        `population.NO_SET` elsewhere; None when no feature is nominal."""
        fitted = self._fitted()
        run, shown = fitted.run, fitted.rule_set_with_feature_rules()
        return popmod.dense_sets(run.population if shown is None else shown.rules,
                                 run.n_features)

    def rule_bound_pairs(self):
        """The cells of `rule_bounds` that are not NaN, without its rules x features matrices
        (3,000 rules of 20,000 words: 480 MB each): (n_rules, rule, feature, lower, upper),
        ``n_rules`` its rows, then aligned arrays, rule by rule, each rule's features in its
        condition slots' order."""
        fitted = self._fitted()
        run, shown = fitted.run, fitted.rule_set_with_feature_rules()
        rules = run.population if shown is None else shown.rules
        rule, feature, lower, upper = popmod.bound_pairs(rules)
        return (int(rules.size[0]), rule, feature,
                *run.scaling.unscale_at(feature, lower, upper))

    def rules_frame(self):
        """The population as a DataFrame: readable rule text, labelset, fitness, accuracy,
        numerosity, experience, generality, ... one row per macro rule (with the fit's
        one-condition rules after them while they predict, see ``population_``)."""
        fitted = self._fitted()
        shown = fitted.rule_set_with_feature_rules()
        if shown is None:
            shown = fitted.rules_under_last_cut(None, self.get_params())
        return shown.rules_frame()

    def subset(self, rule_ids):
        """A new fitted model that predicts with the rules ``rule_ids`` alone (ids as in
        ``rules_frame()``), each keeping its weights, the bipartition as it is; its training
        state and bound training rows are this one's. The audit's compactions and rule
        exports."""
        return self.with_rule_set(self._rule_set_for().subset(rule_ids))

    def with_rule_set(self, rule_set):
        """A new fitted model (same parameters) whose rules and predictions are ``rule_set``
        (a subset or compaction of this model's), trained on from this model's run, with its
        training rows still bound, if any."""
        fitted = self._fitted()
        model = clone(self)
        return TrainingSession(model).adopt(FittedState.of_rule_set(
            fitted.run.with_rules(rule_set), rule_set, fitted.label_dtype, model.get_params(),
            fitted.feature_names_in)).model

    # --------------------------------------------------------------------- JSON

    def to_json(self):
        """The model as versioned JSON text (see :mod:`mlr_core.io`)."""
        fitted = self._fitted()
        return io.to_json(self.get_params(), fitted.label_dtype, self._rule_set_for("agg"),
                          fitted.run, fitted.feature_names_in is not None)

    @classmethod
    def from_json(cls, text):
        """A model saved by :meth:`to_json`; raises ModelFormatError if the text is not one.
        It predicts at once; ``TrainingSession(model).start(X, Y, warm_start=True)`` continues
        its training."""
        def checked_params(values):
            model = cls(**values)
            model._validate_params()
            return model.get_params()

        values, label_dtype, rule_set, run, fitted_on_frame = io.from_json(text, checked_params)
        model = cls(**values)
        columns = np.asarray(rule_set.feature_names, dtype=object) if fitted_on_frame else None
        return TrainingSession(model).adopt(FittedState.of_rule_set(
            run, rule_set, label_dtype, model.get_params(), columns)).model

    # ---------------------------------------------------------------- internals

    def _fitted(self) -> FittedState:
        check_is_fitted(self, "fitted_")
        return self.fitted_

    def _present(self, name, absent):
        """The fitted state's ``name``, or, where it is None, an AttributeError that says why
        the attribute ``name_`` is ``absent`` (``hasattr`` then answers False)."""
        value = getattr(self._fitted(), name)
        if value is None:
            raise AttributeError(f"{name}_: {absent}")
        return value


MLRClassifier.__doc__ = MLRClassifier.__doc__.replace("{parameters}", params.numpydoc())
