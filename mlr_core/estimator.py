"""MLRClassifier: the scikit-learn estimator, with an incremental API for watching it learn."""

import math
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, MultiOutputMixin
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from mlr_core import bipartition as bp
from mlr_core import io
from mlr_core._engine import population as popmod
from mlr_core._engine.cycle import Config
from mlr_core._engine.matching import match_matrix, match_set
from mlr_core._engine.trace import ROW
from mlr_core._engine.voting import vote, voters
from mlr_core.errors import InputError
from mlr_core.explain import Explanation, contribution_columns, contributions
from mlr_core.iteration_trace import describe
from mlr_core.rule_weights import RuleWeights, fit_rule_weights, fitting_rows
from mlr_core.rules import rule_texts, rules_frame
from mlr_core.stopping import learn_until_stable
from mlr_core.training_run import TrainingRun
from mlr_core.validation import check_features, check_labels

_PREDICTION_PARAMS = ("weighting", "bipartition", "threshold", "target", "score_norm",
                      "min_vote_experience", "n_nearest")


class MLRClassifier(MultiOutputMixin, ClassifierMixin, BaseEstimator):
    """Multi-label classification rules: a UCS-style learning classifier system whose rules are
    ``if x in [c - s, c + s] then labelset y`` (Nazmi et al.).

    Parameters
    ----------
    n_rules : int or "auto", default="auto"
        N, the maximum micro-population (sum of numerosities). ``auto`` is 1.5 rules per
        training row, clipped to [1000, 3000] (`auto_n_rules`). Evidence (shared folds,
        ``docs/field.md``): N = 3000 helped the largest set, yeast (1,950 training rows), and
        genbase, but cost the small ones at 150,000 iterations: 5-fold Hamming loss emotions
        (474 rows) 0.214 at N = 1000 against 0.224 at 3000, flags (155 rows) 0.280 against
        0.294, genbase (530 rows) 0.0030 against 0.0022.
    n_iter : int or "auto", default="auto"
        Training iterations (one instance each) run by ``fit``. ``auto``: 10 to 40 epochs
        (within 5,000 to 150,000 iterations), stopping once the population's own
        Hamming loss on the training rows stops improving (:mod:`mlr_core.stopping`);
        ``n_iter_`` tells how many ran. Evidence (``docs/fit_time.md``): on the shared folds
        the test measures after 5,000-20,000 iterations matched those after 150,000 (the
        former default) within their noise, genbase excepted (about 20,000); the ranks among
        the ten learners held (accuracy and F1 first) at a quarter of the CPU time or less
        (yeast 10.1 -> 2.5 s, flags 1.6 -> 0.12 s).
        An int runs exactly that many.
    fitness : {"hl", "em"}, default="hl"
        Per-match score: 1 - Hamming loss of the rule's labelset, or exact match.
    prediction : {"agg", "max"}, default="agg"
        MLR_agg (aggregated label scores, then a bipartition) or MLR_max (one labelset).
    weighting : {"fitted", "vote"}, default="fitted"
        How MLR_agg scores a label. ``"fitted"``: each rule carries a weight per label, fitted
        after training by ridge regression on which rules match which training rows, with the
        penalty chosen by leave-one-out error (``mlr_core/rule_weights.py``); a label's score
        is the sum of the matching rules' weights, clipped to [0, 1], and the bipartition is
        tuned on leave-one-out scores. ``"vote"``: the paper's share of the F * num vote,
        tuned on the training rows. Evidence (shared folds, ``docs/field.md``): Hamming loss
        yeast 0.233 -> 0.213 (0.197 tuned for it), text-like synthetic accuracy 0.20 -> 0.79.
        MLR_max always uses the vote.
    max_rule : {"vote", "fittest"}, default="vote"
        MLR_max's choice: the labelset with the largest summed F * num in [M] (the authors'
        code), or the labelset of the single fittest rule (the paper's equation).
    score_norm : {"total", "max"}, default="total"
        Aggregated scores as each label's share of the total vote, or of the top label's vote.
    bipartition : {"auto", "threshold", "rcut"}, default="auto"
        How MLR_agg turns scores into labels; ``auto`` picks the best for ``target``. With
        fitted weights every threshold is also tried as ``threshold_or_top`` (the best label
        when none reaches the threshold).
    threshold : float or None, default=None
        Fixed threshold; None tunes it in [0.1, 0.9] (step 0.05) for ``target`` on the
        leave-one-out scores (fitted weights) or the training votes.
    target : {"balanced", "accuracy", "f1", "hamming_loss"}, default="balanced"
        The measure the bipartition is tuned for (:data:`mlr_core.bipartition.TARGETS`).
        ``"balanced"`` is example-based accuracy minus 3 x Hamming loss: a label predicted
        wrongly costs three times its share of the bit errors, so the cut serves the
        example-based measures without giving away Hamming loss. No single cut serves every
        measure. On the shared folds (``docs/field.md``, 5 folds, fitted weights, average
        ranks among ten learners, Hamming loss / accuracy / F1 / micro-F1): ``"balanced"``
        2.4 / 1.0 / 1.0 / 1.2; ``"accuracy"`` 4.4 / 1.0 / 1.0 / 1.2; ``"hamming_loss"``
        2.0 / 3.2 / 3.2 / 4.2; the factor 3 was chosen from 1, 2, 3 and 5 there (3.6, 3.2, 2.4
        and 2.6 in Hamming loss, the rest within 0.6 rank).
    p_hash : float, default=0.33
        P#, probability that covering makes a feature a wildcard.
    max_specified : int or "auto", default="auto"
        Rule specificity limit: at most this many features specified per rule
        (`auto_max_specified`). ``auto`` is 3 with fitted weights: the rules are then the
        building blocks of a sum, and low-order ones generalise. On the shared folds (5 folds,
        Hamming loss tuned for it, ``docs/field.md``) 3 against ceil(log2 n_train) (8-11)
        took emotions 0.199 -> 0.189, flags 0.259 -> 0.234, yeast 0.198 -> 0.194 and the
        synthetic image-like set 0.199 -> 0.103; 1 and 2 did as well on the small sets but
        genbase needs 3 (0.0090 with 1, 0.0016 with 2, 0.0012 with 3). With the vote ``auto``
        is ceil(log2(n_train)), so a maximally specific rule can still single out one
        instance while rules in high dimension keep matching.
    r0 : float, default=0.5
        Mean side length of a covered interval on the [0, 1]-scaled axis.
    nu : float, default=10
        Fitness pressure: F = accuracy ** nu.
    beta : float, default=0.2
        Learning rate of the correct-set size estimate.
    theta_ga : int, default=25
        GA threshold on the mean iterations since the correct set's last GA.
    selection : {"tournament", "roulette"}, default="tournament"
    tau : float, default=0.4
        Tournament size as a fraction of the correct set.
    chi : float, default=0.8
        Crossover probability.
    mu : float or "auto", default="auto"
        Mutation probability per feature. ``auto`` is min(0.04, 4 / d): about four features
        mutated per offspring, as UCS's 0.04 does on ~100 features. A flat 0.04 on genbase's
        1,185 features rewrites ~47 features per offspring and measured a Hamming loss of 0.034
        against 0.006 with ``auto`` (two folds, ``benchmarks/paper_tables.py`` setup).
    m0 : float, default=0.1
        Largest change of an interval's centre or spread in a mutation.
    ga_subsumption : bool, default=True
    theta_sub : int, default=20
        Experience a rule needs to subsume others.
    acc0 : float, default=0.99
        Accuracy a rule needs to subsume others (on the fitness mode's score).
    theta_del : int, default=20
        Experience after which a rule of low fitness gets a larger deletion vote.
    delta : float, default=0.1
        Fitness fraction of the mean below which that larger deletion vote applies.
    correct_set_subsumption : bool, default=False
    min_vote_experience : int, default=0
        Rules with less experience vote only when no experienced rule matches (0: all vote).
    n_nearest : int, default=5
        Rules that vote, by distance, when no rule matches an instance.
    history_every : int, default=100
        Iterations between two rows of the training history (doubled whenever the bounded
        history fills up, so it always spans the whole run).
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    run_ : TrainingRun
        The state of training (``mlr_core/training_run.py``); ``population_``, ``labelsets_``
        and ``max_specified_`` read from it.
    bipartition_ : Bipartition
        ``("threshold", t)``, ``("threshold_or_top", t)`` or ``("rcut", k)``: how MLR_agg
        turns scores into labels. Set by ``fit``, ``start`` and :meth:`tune_bipartition`, never
        by prediction.
    n_iter_ : int
        The iterations ``fit`` ran (``n_iter``, or where ``auto`` stopped).
    rule_weights_ : RuleWeights
        With ``weighting="fitted"``: per rule (population slot) and label, what the rule adds
        to the label's score when it matches, and the intercept (``rule_weights_frame()``
        lists them beside the rules). Set with ``bipartition_``; prediction refuses weights
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

    _parameter_constraints = {
        "n_rules": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "n_iter": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "fitness": [StrOptions({"hl", "em"})],
        "prediction": [StrOptions({"agg", "max"})],
        "weighting": [StrOptions({"fitted", "vote"})],
        "max_rule": [StrOptions({"vote", "fittest"})],
        "score_norm": [StrOptions({"total", "max"})],
        "bipartition": [StrOptions({"auto", "threshold", "rcut"})],
        "threshold": [Interval(Real, 0, 1, closed="both"), None],
        "target": [StrOptions(set(bp.TARGETS))],
        "p_hash": [Interval(Real, 0, 1, closed="both")],
        "max_specified": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
        "r0": [Interval(Real, 0, None, closed="neither")],
        "nu": [Interval(Real, 0, None, closed="neither")],
        "beta": [Interval(Real, 0, 1, closed="right")],
        "theta_ga": [Interval(Real, 0, None, closed="left")],
        "selection": [StrOptions({"tournament", "roulette"})],
        "tau": [Interval(Real, 0, 1, closed="right")],
        "chi": [Interval(Real, 0, 1, closed="both")],
        "mu": [Interval(Real, 0, 1, closed="both"), StrOptions({"auto"})],
        "m0": [Interval(Real, 0, None, closed="left")],
        "ga_subsumption": ["boolean"],
        "theta_sub": [Interval(Real, 0, None, closed="left")],
        "acc0": [Interval(Real, 0, 1, closed="both")],
        "theta_del": [Interval(Real, 0, None, closed="left")],
        "delta": [Interval(Real, 0, 1, closed="both")],
        "correct_set_subsumption": ["boolean"],
        "min_vote_experience": [Interval(Integral, 0, None, closed="left")],
        "n_nearest": [Interval(Integral, 1, None, closed="left")],
        "history_every": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        n_rules="auto",
        n_iter="auto",
        fitness="hl",
        prediction="agg",
        weighting="fitted",
        max_rule="vote",
        score_norm="total",
        bipartition="auto",
        threshold=None,
        target="balanced",
        p_hash=0.33,
        max_specified="auto",
        r0=0.5,
        nu=10,
        beta=0.2,
        theta_ga=25,
        selection="tournament",
        tau=0.4,
        chi=0.8,
        mu="auto",
        m0=0.1,
        ga_subsumption=True,
        theta_sub=20,
        acc0=0.99,
        theta_del=20,
        delta=0.1,
        correct_set_subsumption=False,
        min_vote_experience=0,
        n_nearest=5,
        history_every=100,
        random_state=None,
    ):
        self.n_rules = n_rules
        self.n_iter = n_iter
        self.fitness = fitness
        self.prediction = prediction
        self.weighting = weighting
        self.max_rule = max_rule
        self.score_norm = score_norm
        self.bipartition = bipartition
        self.threshold = threshold
        self.target = target
        self.p_hash = p_hash
        self.max_specified = max_specified
        self.r0 = r0
        self.nu = nu
        self.beta = beta
        self.theta_ga = theta_ga
        self.selection = selection
        self.tau = tau
        self.chi = chi
        self.mu = mu
        self.m0 = m0
        self.ga_subsumption = ga_subsumption
        self.theta_sub = theta_sub
        self.acc0 = acc0
        self.theta_del = theta_del
        self.delta = delta
        self.correct_set_subsumption = correct_set_subsumption
        self.min_vote_experience = min_vote_experience
        self.n_nearest = n_nearest
        self.history_every = history_every
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        tags.classifier_tags.multi_class = False  # each label is 0/1; a 0/1/2 column is refused
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.non_deterministic = False
        return tags

    # ----------------------------------------------------------------- training

    def fit(self, X, Y, feature_names=None, label_names=None):
        """Train on ``X`` (n x d) and ``Y`` (n x m 0/1) for ``n_iter`` iterations (``auto``:
        :func:`mlr_core.stopping.learn_until_stable`; ``n_iter_`` records how many), then tune
        the bipartition on the same data.

        Returns
        -------
        self
        """
        self.start(X, Y, feature_names=feature_names, label_names=label_names)
        if self.n_iter == "auto":
            learn_until_stable(self.run_)
        else:
            self.learn(self.n_iter)
        self.n_iter_ = self.run_.iteration
        return self.tune_bipartition()

    def start(self, X, Y, feature_names=None, label_names=None, warm_start=False):
        """Bind training data and begin a run (a fresh population unless ``warm_start``, which
        keeps a fitted or loaded model's rules, scaling and counters, and adopts a changed
        ``n_rules``). The bipartition is tuned on the data as it stands. Returns self."""
        self._validate_params()
        keep = warm_start and hasattr(self, "run_")
        X = check_features(self, X, reset=not keep)
        Y, label_dtype = check_labels(Y, X.shape[0])
        if keep:
            if Y.shape[1] != len(self.label_names_):
                raise InputError(
                    f"Y has {Y.shape[1]} labels but the model was trained on "
                    f"{len(self.label_names_)}."
                )
            self.run_.reconfigure(
                self._config(self.max_specified_, self.n_features_in_,
                             self._n_rules(X.shape[0])),
                self.fitness)
        else:
            n, d = X.shape
            self.feature_names_ = _names(feature_names, getattr(self, "feature_names_in_", None),
                                         d, "x")
            self.label_names_ = _names(label_names, None, Y.shape[1], "label")
            self.classes_ = np.arange(Y.shape[1])  # label indices, as scikit-learn's multi-label
            self.data_min_, self.data_max_ = X.min(axis=0), X.max(axis=0)
            self.label_dtype_ = label_dtype
            k = (auto_max_specified(n, d, self.weighting) if self.max_specified == "auto"
                 else int(self.max_specified))
            seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
            self.run_ = TrainingRun(self._config(k, d, self._n_rules(n)), self.fitness, d,
                                    Y.shape[1], seed, self.history_every)
        self.run_.bind(self._scale(X), Y)
        return self.tune_bipartition()

    def learn(self, n_iterations):
        """Advance training by ``n_iterations`` iterations (call ``start`` or ``fit`` first).
        Can be called again and again; ``fit`` is ``start``, one call and
        :meth:`tune_bipartition`. The bipartition stays as it was: call
        :meth:`tune_bipartition` before predicting with MLR_agg. Returns self."""
        if not hasattr(self, "run_"):
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        self.run_.learn(n_iterations)
        return self

    def tune_bipartition(self):
        """Fit the rule weights (``weighting="fitted"``: ``rule_weights_``) and set
        ``bipartition_``, how MLR_agg turns scores into labels, from the ``bipartition`` and
        ``threshold`` parameters: a fixed threshold, RCut at the training label cardinality,
        or the best of them for ``target`` (:func:`mlr_core.bipartition.tune`) on the
        leave-one-out scores of the bound training rows (fitted) or their votes (vote).
        ``fit`` and ``start`` call it; after ``learn``, call it to follow the rules as they are
        now. Returns self."""
        run = self._run()
        if not run.bound:
            raise InputError("No training data bound to tune on: call start(X, Y) first.")
        fitted = self.weighting == "fitted"
        options = bp.candidates(self.bipartition, self.threshold, int(round(run.card)),
                                with_top=fitted and self.threshold is None)
        truth, scores = run.truth(), None
        if fitted:
            rows = fitting_rows(len(truth), seed=run.iteration)
            truth = truth[rows]
            self.rule_weights_, scores = fit_rule_weights(
                match_matrix(run.population, run.X[rows]), truth, run.iteration)
        elif len(options) > 1:
            votes = vote(run.population, run.X, run.labelsets, int(self.min_vote_experience),
                         int(self.n_nearest))
            scores = bp.normalise(votes.label_votes, votes.total, self.score_norm)
        self.bipartition_ = bp.tune(scores, truth, options, bp.TARGETS[self.target])
        self._bipartition_params = self._prediction_params()
        return self

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
        Xs = self.scaled(X)
        if prediction == "max":
            labels = self._max_labels(self._vote_scaled(Xs))
        else:
            labels = bp.apply(self._agg_scores(Xs), self._bipartition())
        return labels.astype(self.label_dtype_)

    def predict_proba(self, X):
        """MLR_agg's per-label scores (n x m, in [0, 1]); they also rank the labels. With
        fitted weights, an estimate of each label's probability."""
        return self._agg_scores(self.scaled(X))

    def coverage(self, X):
        """Fraction of the rows of X that at least one rule matches."""
        return float(self._vote_scaled(self.scaled(X)).covered.mean())

    def explain(self, x):
        """The rules behind the answer for one instance (a 1-D array of d features) and how
        they became MLR_agg's and MLR_max's answers. See :class:`Explanation`."""
        Xs = self.scaled(np.asarray(x, dtype=np.float64).reshape(1, -1))
        votes = self._vote_scaled(Xs)
        pop = self.population_
        slots = np.empty(pop.nspec.shape[0], dtype=np.int64)
        if self.weighting == "fitted":  # the matching rules' weights, nothing else
            weights = self._rule_weights()
            count = match_set(pop, Xs[0], slots)
            covered, slots = count > 0, slots[:count]
            share = pd.DataFrame(weights.coef[slots], columns=contribution_columns(
                self.label_names_))
            baseline = weights.intercept
        else:
            count, covered = voters(pop, Xs[0], int(self.min_vote_experience),
                                    int(self.n_nearest), slots)
            slots = slots[:count]
            share = contributions(pop.fit[slots], pop.num[slots],
                                  self.labelsets_[pop.ls[slots]], votes.total[0],
                                  self.label_names_)
            baseline = np.zeros(len(self.label_names_))
        frame = self.rules_frame().iloc[slots].reset_index()
        sets = self.labelsets_[pop.ls[slots]]
        scores = self._agg_scores(Xs)
        method, value = self._bipartition()
        agg = bp.apply(scores, (method, value))
        names = np.array(self.label_names_, dtype=object)
        return Explanation(
            match_set=pd.concat([frame, share], axis=1),
            rule_ids=slots,
            fallback=not covered,
            union=list(names[sets.any(axis=0)]),
            scores=pd.Series(scores[0], index=self.label_names_, name="score"),
            baseline=pd.Series(baseline, index=self.label_names_, name="baseline"),
            bipartition=(method, value),
            agg_labels=list(names[agg[0].astype(bool)]),
            max_labels=list(names[self._max_labels(votes)[0].astype(bool)]),
        )

    # ------------------------------------------------------------------- rules

    @property
    def population_(self):
        """The rule population (struct of arrays, see ``mlr_core/_engine/population.py``)."""
        return self.run_.population

    @property
    def labelsets_(self):
        """The distinct labelsets seen, one 0/1 row each; rules refer to them by row."""
        return self.run_.labelsets

    @property
    def n_rules_(self):
        """N in force (``n_rules`` with ``auto`` resolved)."""
        return self.run_.config.n_rules

    @property
    def max_specified_(self):
        """The specificity limit in force (``max_specified`` with ``auto`` resolved)."""
        return self.run_.config.max_specified

    def scaled(self, X):
        """X (checked) on the model's [0, 1]-scaled axes, where the rules' conditions live: the
        rows the engine's kernels match (the audit uses it)."""
        self._run()
        return self._scale(check_features(self, X, reset=False))

    def rule_bounds(self):
        """(lower, upper): one row per rule (``rules_frame`` order), one column per feature,
        in the data's original units; NaN where the feature is a wildcard."""
        check_is_fitted(self, "run_")
        return self._unscaled(*popmod.dense_bounds(self.population_, len(self.feature_names_)))

    def rules_frame(self):
        """The population as a DataFrame: readable rule text, labelset, fitness, accuracy,
        numerosity, experience, generality, ... one row per macro rule."""
        run = self._run()
        pop = popmod.live(run.population)
        sets = run.labelsets[pop.ls]
        texts = self._texts(*popmod.dense_bounds(run.population, len(self.feature_names_)), sets)
        return rules_frame(pop, texts, sets, run.generality(), self.label_names_)

    def rule_weights_frame(self):
        """With ``weighting="fitted"``: ``rules_frame()`` with one ``weight: <label>`` column
        per label, what the rule adds to the label's score when it matches (negative: it
        lowers it); the intercept is ``rule_weights_.intercept``."""
        weights = self._rule_weights()
        frame = self.rules_frame()
        columns = [f"weight: {name}" for name in self.label_names_]
        return pd.concat([frame, pd.DataFrame(weights.coef, index=frame.index,
                                              columns=columns)], axis=1)

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
                        self._texts)

    def to_json(self):
        """The model as versioned JSON text (see :mod:`mlr_core.io`)."""
        check_is_fitted(self, "run_")
        return io.to_json(self)

    @classmethod
    def from_json(cls, text):
        """A model saved by :meth:`to_json`; raises ModelFormatError if the text is not one.
        It predicts at once; ``start(X, Y, warm_start=True)`` continues its training."""
        return io.from_json(cls, text)

    # ---------------------------------------------------------------- internals

    def _n_rules(self, n_train):
        return auto_n_rules(n_train) if self.n_rules == "auto" else int(self.n_rules)

    def _config(self, max_specified, n_features, n_rules):
        """The kernels' view of the parameters (with ``auto`` values resolved)."""
        mu = min(0.04, 4.0 / n_features) if self.mu == "auto" else float(self.mu)
        return Config(
            n_rules=int(n_rules), p_hash=float(self.p_hash), r0=float(self.r0),
            max_specified=int(max_specified), nu=float(self.nu), beta=float(self.beta),
            theta_ga=float(self.theta_ga), tau=float(self.tau),
            roulette=self.selection == "roulette", chi=float(self.chi), mu=mu,
            m0=float(self.m0), ga_subsumption=bool(self.ga_subsumption),
            theta_sub=float(self.theta_sub), acc0=float(self.acc0),
            theta_del=float(self.theta_del), delta=float(self.delta),
            correct_set_subsumption=bool(self.correct_set_subsumption),
        )

    def _adopt(self, run, bipartition, label_dtype, feature_names, label_names, data_min,
               data_max, rule_weights=None):
        """Become the fitted model of ``run`` (how :mod:`mlr_core.io` restores a model)."""
        self.feature_names_, self.label_names_ = list(feature_names), list(label_names)
        self.classes_ = np.arange(len(label_names))
        self.n_features_in_ = len(feature_names)
        self.data_min_, self.data_max_ = data_min, data_max
        self.label_dtype_ = label_dtype
        self.run_ = run
        if rule_weights is not None:
            self.rule_weights_ = rule_weights
        self.bipartition_ = bp.Bipartition(*bipartition)
        self._bipartition_params = self._prediction_params()
        return self

    def _run(self):
        check_is_fitted(self, "run_")
        return self.run_

    def _unscaled(self, scaled_lower, scaled_upper):
        span = self._span()
        return self.data_min_ + scaled_lower * span, self.data_min_ + scaled_upper * span

    def _texts(self, scaled_lower, scaled_upper, labelsets):
        """Rule text from bounds on the scaled axes (NaN = wildcard) and 0/1 labelset rows."""
        lower, upper = self._unscaled(scaled_lower, scaled_upper)
        return rule_texts(lower, upper, scaled_lower, scaled_upper, labelsets,
                          self.feature_names_, self.label_names_)

    def _span(self):
        """Per feature, the width of the training range; 1 for a constant feature, so that a
        value off it still scales (and reads back) one unit per unit."""
        span = self.data_max_ - self.data_min_
        return np.where(span > 0, span, 1.0)

    def _scale(self, X):
        scaled = X - self.data_min_  # the one copy; the rest is in place
        scaled /= self._span()
        return np.clip(scaled, 0.0, 1.0, out=scaled)


    def _vote_scaled(self, Xs):
        run = self._run()
        return vote(run.population, Xs, run.labelsets, int(self.min_vote_experience),
                    int(self.n_nearest))

    def _agg_scores(self, Xs):
        """MLR_agg's scores for scaled rows: fitted rule weights or vote shares."""
        if self.weighting == "fitted":
            return self._rule_weights().scores(self.population_, Xs)
        votes = self._vote_scaled(Xs)
        return bp.normalise(votes.label_votes, votes.total, self.score_norm)

    def _rule_weights(self) -> RuleWeights:
        """``rule_weights_``, refused if the rules have changed since they were fitted."""
        self._bipartition()
        weights = self.rule_weights_
        if (weights.iteration != self.run_.iteration
                or weights.coef.shape[0] != int(self.population_.size[0])):
            raise InputError(
                "The rules changed since their weights were fitted (training went on): call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return weights

    def _max_labels(self, votes):
        """MLR_max's labelsets: the vote winner or the fittest voter's (``max_rule``)."""
        chosen = votes.voted_set if self.max_rule == "vote" else votes.fittest_set
        return bp.max_labels(chosen, self.labelsets_)

    def _prediction_params(self):
        return {name: getattr(self, name) for name in _PREDICTION_PARAMS}

    def _bipartition(self):
        """``bipartition_``, refused if the parameters it was tuned under have changed."""
        now = self._prediction_params()
        changed = [name for name in _PREDICTION_PARAMS
                   if now[name] != self._bipartition_params[name]]
        if changed:
            raise InputError(
                f"{', '.join(changed)} changed since the bipartition was tuned: call "
                "tune_bipartition() (with training data bound by start or fit) or fit again."
            )
        return self.bipartition_


def auto_n_rules(n_train: int) -> int:
    """``n_rules="auto"``: 1.5 rules per training row, at least 1,000 (the UCS default, enough
    for the small sets: emotions, flags, CAL500 did no better with more) and at most 3,000 (the
    yeast and genbase optimum measured, and what keeps a fold under a minute)."""
    return int(min(3000, max(1000, round(1.5 * n_train))))


def auto_max_specified(n_train: int, n_features: int, weighting: str) -> int:
    """``max_specified="auto"``: 3 features per rule with fitted weights, ceil(log2(n_train))
    with the vote; never more than the features there are."""
    k = 3 if weighting == "fitted" else math.ceil(math.log2(max(n_train, 2)))
    return min(n_features, max(1, k))


def _names(given, from_frame, count, prefix):
    """Feature or label names: given, else a DataFrame's columns, else ``prefix0, prefix1...``."""
    names = given if given is not None else from_frame
    if names is None:
        return [f"{prefix}{i}" for i in range(count)]
    names = [str(n) for n in names]
    if len(names) != count:
        raise InputError(f"Got {len(names)} names for {count} {prefix} columns.")
    return names
