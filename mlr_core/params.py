"""The estimator's parameters, each declared once: name, default, constraint, engine conversion
and documentation.

`MLRClassifier`'s signature, ``_parameter_constraints`` and docstring, the kernels' `Config` (its
fields, `ENGINE_FIELDS`, and its values, `engine_config`), the checks of the parameters a model file
holds a second time (`saved_param`: the vote's, the resolved ``n_rules`` and ``max_specified``), the
vote's defaults (``mlr_core/scorers.py``) and the dashboard's defaults derive from `PARAMETERS`;
rules between parameters are declared in `TOGETHER` and checked with each parameter's own before
training starts. A parameter the kernels read is added by its declaration here and the kernel code
that reads it (``cfg.<name>``); one the engine does not read needs the code that uses it. The
dashboard's form offers the parameters it names (``dashboard/state.py``); the others keep the
library's defaults there. The module imports neither scikit-learn nor numba (the dashboard's first
page reads it): `constraints` builds scikit-learn's constraint objects when the estimator asks.
"""

from __future__ import annotations

import inspect
import math
import textwrap
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral, Real

from mlr_core.bipartition import TARGETS
from mlr_core.errors import SAVED_LIMIT, InputError, require, saved_whole

MAX_ITERATIONS = 10**9
"""The most iterations one call trains: days of work at the fastest, and within the counters'
range; beyond it a typo (``n_iter=10**30``) would run forever."""

MAX_NEAREST = 10**6
"""The most rules that vote by distance (``n_nearest``): the vote allocates a slot per rule
voting, so a saved model's claim is bounded like the estimator's own."""

PAPER_AXIS = {"axis": "minmax", "r0": 0.5}
"""The paper's axis and covering width, the defaults until the rank axis (issue 31): what the
paper's reproduction and its MLR_max / MLR_agg learners run with."""


@dataclass(frozen=True)
class Param:
    """One parameter. ``kind``: the number type of its interval ``bounds`` (low, high, closed),
    or scikit-learn's ``"boolean"`` or ``"random_state"``, or None when only ``options`` (the
    strings it takes) and ``none`` (whether None is allowed) make its values. ``engine``: how the
    kernels' `Config` field ``engine_field`` (by default of the same name) is made from the
    value, ``auto`` resolved, and the number of features. ``retune``: the bipartition is tuned
    under it, so a change asks for a new tuning."""

    name: str
    default: object
    kind: type | str | None = None
    bounds: tuple | None = None
    options: tuple = ()
    none: bool = False
    engine: Callable | None = None
    engine_field: str = ""
    retune: bool = False
    doc: str = ""

    def type_text(self) -> str:
        """The numpydoc type, e.g. ``int or "auto"``, ``{"hl", "em"}``."""
        words = {Integral: "int", Real: "float", "boolean": "bool",
                 "random_state": "int, RandomState or None"}
        quoted = [f'"{option}"' for option in self.options]
        if self.kind is None:
            return "{" + ", ".join(quoted) + "}"
        parts = [words[self.kind], *quoted, *(["None"] if self.none else [])]
        return " or ".join(parts)

    def doc_lines(self) -> str:
        default = f'"{self.default}"' if isinstance(self.default, str) else repr(self.default)
        text = f"{self.name} : {self.type_text()}, default={default}\n"
        if self.doc:
            text += textwrap.indent(textwrap.dedent(self.doc).strip("\n"), "    ") + "\n"
        return text


def _float(value, n_features):
    return float(value)


def _int(value, n_features):
    return int(value)


def _bool(value, n_features):
    return bool(value)


def _roulette(value, n_features):
    return value == "roulette"


def _mu(value, n_features):
    return min(0.04, 4.0 / n_features) if value == "auto" else float(value)


PARAMETERS = (
    Param("n_rules", "auto", Integral, (1, None, "left"), ("auto",), engine=_int, doc="""
        N, the maximum micro-population (sum of numerosities). ``auto`` is 1.5 rules per
        training row, clipped to [1000, 3000], and 1000 on data whose features are mostly 0/1
        (`auto_n_rules`). Evidence (shared folds,
        ``docs/field.md``): N = 3000 helped the largest set, yeast (1,950 training rows), and
        genbase, but cost the small ones at 150,000 iterations: 5-fold Hamming loss emotions
        (474 rows) 0.214 at N = 1000 against 0.224 at 3000, flags (155 rows) 0.280 against
        0.294, genbase (530 rows) 0.0030 against 0.0022."""),
    Param("n_iter", "auto", Integral, (0, MAX_ITERATIONS, "both"), ("auto",), doc="""
        Training iterations (one instance each) run by ``fit``. ``auto``: 10 to 40 epochs
        (within 5,000 to 150,000 iterations; at most 30,000 when most features are 0/1,
        whose own rules then carry the linear part), stopping once the population's own
        Hamming loss on the training rows stops improving (:mod:`mlr_core.stopping`);
        ``n_iter_`` tells how many ran. Evidence (``docs/fit_time.md``): on the shared folds
        the test measures after 5,000-20,000 iterations matched those after 150,000 (the
        former default) within their noise, genbase excepted (about 20,000); the ranks among
        the ten learners held (accuracy and F1 first) at a quarter of the CPU time or less
        (yeast 10.1 -> 2.5 s, flags 1.6 -> 0.12 s). A model that predicts by the vote
        (``weighting="vote"`` or ``prediction="max"``) may run to 150,000 whatever the epochs:
        the vote needs a more mature population (genbase vote accuracy 0.78 after 40 epochs,
        0.96 after the 30,000-40,000 iterations it then runs, ``auto_budget``).
        An int runs exactly that many."""),
    Param("fitness", "hl", options=("hl", "em"), doc="""
        Per-match score: 1 - Hamming loss of the rule's labelset, or exact match."""),
    Param("prediction", "agg", options=("agg", "max"), doc="""
        MLR_agg (aggregated label scores, then a bipartition) or MLR_max (one labelset)."""),
    Param("weighting", "fitted", options=("fitted", "vote"), retune=True, doc="""
        How MLR_agg scores a label. ``"fitted"``: each rule carries a weight per label, fitted
        after training by ridge regression on which rules match which training rows, with the
        penalty chosen by leave-one-out error (``mlr_core/rule_weights.py``); a label's score
        is the sum of the matching rules' weights, clipped to [0, 1], or, where it ranks labels
        better on held-out folds of the training rows, that sum put on a scale of log-odds by
        a logistic regression per label on the labels' leave-one-out sums and through the
        logistic function (``mlr_core/calibration.py``); the bipartition is tuned on
        held-out scores. Each 0/1 feature (a word) also gets the one-condition
        rule ``word = 1``, and each numeric one the rules ``x >= cut`` at its deciles, fitted
        first, the evolved rules then on what they leave: the scores are at least an additive
        model of the features (``fit_in_two_stages``; slashdot fold 0 ranking loss 0.080 ->
        0.070, ohsumed 0.113 -> 0.091; 5-fold means 0.085 and 0.091), kept where its
        leave-one-out error is the smaller, and alone where the evolved rules add nothing it
        can see (``fit_weights``). ``"vote"``: the
        paper's share of the F * num vote, tuned on the training rows. Evidence (shared
        folds, ``docs/field.md``): Hamming loss yeast 0.233 -> 0.213 (0.197 tuned for it),
        text-like synthetic accuracy 0.20 -> 0.79.
        MLR_max always uses the vote."""),
    Param("max_by", "vote", options=("vote", "fittest"), doc="""
        MLR_max's choice: the labelset with the largest summed F * num in [M] (the authors'
        code), or the labelset of the single fittest rule (the paper's equation)."""),
    Param("score_norm", "total", options=("total", "max"), retune=True, doc="""
        Aggregated scores as each label's share of the total vote, or of the top label's vote."""),
    Param("bipartition", "auto", options=("auto", "threshold", "rcut", "top_unless_empty"),
          retune=True, doc="""
        How MLR_agg turns scores into labels; ``auto`` picks the best for ``target``. With
        fitted weights every threshold is also tried as ``threshold_or_top`` (the best label
        when none reaches the threshold), with no floor or with a lower one of the thresholds
        as the score that best label needs (:func:`mlr_core.bipartition.floored_tops`).
        ``"top_unless_empty"``: the threshold, or the best
        label when none reaches it, unless that label's score is below a floor set from the
        training rows (:func:`mlr_core.bipartition.empty_share_floor`): rows are left empty
        about as often as training label sets are, so never when none is. It buys accuracy
        and F1 with Hamming loss where the scores are weak: use it when every row is known to
        have a label and a wrong label costs no more than a missing one (``docs/field.md``,
        "When each cut is right")."""),
    Param("threshold", None, Real, (0, 1, "both"), none=True, retune=True, doc="""
        Fixed threshold; None tunes it in [0.1, 0.9] (step 0.05) for ``target`` on the
        leave-one-out scores (fitted weights) or the training votes. Refused with
        ``bipartition="rcut"``, which keeps a number of labels and reads no threshold."""),
    Param("target", "guarded", options=tuple(TARGETS), retune=True, doc="""
        The measure the bipartition is tuned for (:data:`mlr_core.bipartition.TARGETS`):
        "guarded", "balanced", or a measure's own name, "hamming_loss", "accuracy", "f1",
        "micro_f1" or "macro_f1", for the cut that is best for it (``docs/field.md``, "Each
        measure's own cut").
        ``"guarded"`` (:func:`mlr_core.bipartition.guarded_accuracy`): example-based accuracy
        minus the Hamming loss divided by the label density, over the cuts whose Hamming loss
        beats predicting no label by at least one standard error (with ``bipartition="auto"``
        predicting no label is itself a candidate): a wrong bit is priced like a label found
        at any density, and the Hamming loss is never worse than the empty prediction's on
        the rows tuned on. ``"balanced"`` (the default before) is accuracy minus 3 x Hamming
        loss, whose price of a wrong bit falls as labels get sparse. Figures:
        ``docs/field.md``."""),
    Param("plateau_rows", 8.0, Real, (0, None, "left"), retune=True, doc="""
        With a tuned cut, how flat the target's curve must be for the cut to move off its best
        point: among the cuts of the best one's kind within ``plateau_rows`` tuning rows' worth
        of it (:func:`mlr_core.bipartition.row_worth`: ``plateau_rows / n`` of accuracy or F1
        on n rows, times the label density for the Hamming loss), the middle of the run of
        neighbouring thresholds around the best (:func:`mlr_core.bipartition.plateau_middle`).
        On a few hundred tuning rows the target is flat within a row or two over several
        thresholds and then falls off a cliff; the best point may sit on the edge. 0 takes the
        best (the default before). Why 8: ``docs/field.md``, "The cut at its plateau's
        middle"."""),
    Param("axis", "rank", options=("minmax", "rank"), doc="""
        How each feature's values reach the rules' [0, 1] axis, where covering, mutation,
        crossover and subsumption work. ``"rank"`` (the default): by their order, each training
        value at its mid-rank position in the training column (the share of rows below it, plus
        half of those equal; at most 4,096 quantiles kept), linearly between them, so that a
        strictly increasing map of a feature (a logarithm, a change of units) leaves the
        learning as it is and a heavy-tailed feature (counts, amounts) is spread by its rows,
        not crowded near 0 by its extremes. ``"minmax"``: by the training range, the paper's
        (with ``r0=0.5``: :data:`PAPER_AXIS`). Either way conditions are stated, tested and
        exported in the data's units, and values beyond the training range count as its ends.
        0/1 features are the same on both axes. Why rank is the default
        (``docs/order_axis.md``): under x -> exp(8u) and x -> u**6 it changes no prediction,
        where min-max lost up to 0.10 of accuracy; heavy-tailed counts go from an accuracy of
        0.02 to 0.57; on the five shared datasets over seeds 0-2 (with ``r0=0.75``) it ranks
        level on accuracy and F1, ahead on one-error and ranking loss (2.53 and 1.93 against
        2.73 and 2.13) and behind on Hamming loss (2.4 against 2.2, yeast's +0.003 to
        +0.005 on every seed)."""),
    Param("missing", "typical", options=("typical", "fail"), doc="""
        How a missing feature value (NaN, an ARFF ``?``, an empty CSV cell) is read, in
        ``fit``, ``predict`` and every later step (``mlr_core/missing.py``). ``"typical"``: as
        its feature's typical training value, learned by ``fit`` and saved in the model (a 0/1
        feature's more frequent value, a nominal feature's most frequent category, any other
        feature's mean of its known values; a feature with no known value stays missing and
        untested). ``"fail"``: a test on a missing value fails (a rule testing the feature
        does not match the row). Evidence (fold 0 of the eight shared datasets, 20% of cells
        missing at random, ``docs/missing_values.md``): mean accuracy 0.5224 with ``"fail"``,
        0.5228 after mean imputation, 0.5347 with ``"typical"``, which keeps 0/1 words 0/1 (and
        their one-condition rules) where imputation makes them fractions; measured on the
        min-max axis. On the rank axis (the default since) the same fold gave 0.5337 with
        ``"typical"`` and 0.5361 with ``"fail"``, level, and 0.3991 after mean imputation."""),
    Param("p_hash", 0.33, Real, (0, 1, "both"), engine=_float, doc="""
        P#, probability that covering makes a feature a wildcard."""),
    Param("max_specified", "auto", Integral, (1, None, "left"), ("auto",), engine=_int, doc="""
        Rule specificity limit: at most this many features specified per rule
        (`auto_max_specified`). ``auto`` is 3 with fitted weights: the rules are then the
        building blocks of a sum, and low-order ones generalise. On the shared folds (5 folds,
        Hamming loss tuned for it, ``docs/field.md``) 3 against ceil(log2 n_train) (8-11)
        took emotions 0.199 -> 0.189, flags 0.259 -> 0.234, yeast 0.198 -> 0.194 and the
        synthetic image-like set 0.199 -> 0.103; 1 and 2 did as well on the small sets but
        genbase needs 3 (0.0090 with 1, 0.0016 with 2, 0.0012 with 3). With the vote ``auto``
        is ceil(log2(n_train)), so a maximally specific rule can still single out one
        instance while rules in high dimension keep matching."""),
    Param("r0", 0.75, Real, (0, 1e6, "right"), engine=_float, doc="""
        Mean side length of a covered interval on the [0, 1] axis (``axis``); a nominal
        feature's sets do not read it (each other category joins one with probability 1/2,
        ``mlr_core/_engine/covering.py``). 0.75 for the
        rank axis, where an interval of side s holds a share s of the training rows (the
        paper's 0.5, :data:`PAPER_AXIS`, is for min-max, where one of side 0.5 holds 83% of a
        yeast column's rows): with 0.5 the rank axis's rules were six times as specific and
        lost Hamming loss and one-error ranks on the five (``docs/order_axis.md``). At most
        10**6 (an interval of 1 already spans the axis): a model file holds spreads below
        2**62, and a larger one could not be loaded back."""),
    Param("nu", 10, Real, (0, None, "neither"), engine=_float, doc="""
        Fitness pressure: F = accuracy ** nu."""),
    Param("beta", 0.2, Real, (0, 1, "right"), engine=_float, doc="""
        Learning rate of the correct-set size estimate."""),
    Param("theta_ga", 25, Real, (0, None, "left"), engine=_float, doc="""
        GA threshold on the mean iterations since the correct set's last GA."""),
    Param("selection", "tournament", options=("tournament", "roulette"), engine=_roulette,
          engine_field="roulette", doc="""
        How the GA picks two parents in the correct set [C]."""),
    Param("tau", 0.4, Real, (0, 1, "right"), engine=_float, doc="""
        Tournament size as a fraction of the correct set."""),
    Param("chi", 0.8, Real, (0, 1, "both"), engine=_float, doc="""
        Crossover probability."""),
    Param("mu", "auto", Real, (0, 1, "both"), ("auto",), engine=_mu, doc="""
        Mutation probability per feature. ``auto`` is min(0.04, 4 / d): about four features
        mutated per offspring, as UCS's 0.04 does on ~100 features. A flat 0.04 on genbase's
        1,185 features rewrites ~47 features per offspring and measured a Hamming loss of 0.034
        against 0.006 with ``auto`` (two folds, ``benchmarks/paper_tables.py`` setup)."""),
    Param("m0", 0.1, Real, (0, 1e6, "both"), engine=_float, doc="""
        Largest change of an interval's centre or spread in a mutation; at most 10**6, as
        ``r0``."""),
    Param("ga_subsumption", True, "boolean", engine=_bool, doc="""
        Whether an offspring an experienced, accurate parent subsumes joins it as a copy."""),
    Param("theta_sub", 20, Real, (0, None, "left"), engine=_float, doc="""
        Experience a rule needs to subsume others."""),
    Param("acc0", 0.99, Real, (0, 1, "both"), engine=_float, doc="""
        Accuracy a rule needs to subsume others (on the fitness mode's score)."""),
    Param("theta_del", 20, Real, (0, None, "left"), engine=_float, doc="""
        Experience after which a rule of low fitness gets a larger deletion vote."""),
    Param("delta", 0.1, Real, (0, 1, "both"), engine=_float, doc="""
        Fitness fraction of the mean below which that larger deletion vote applies."""),
    Param("correct_set_subsumption", False, "boolean", engine=_bool, doc="""
        Whether the most general experienced, accurate rule of [C] subsumes the others."""),
    Param("min_vote_experience", 0, Integral, (0, SAVED_LIMIT, "left"), retune=True, doc="""
        Rules with less experience vote only when no experienced rule matches (0: all vote)."""),
    Param("n_nearest", 5, Integral, (1, MAX_NEAREST, "both"), retune=True, doc="""
        Rules that vote, by distance, when no rule matches an instance."""),
    Param("history_every", 100, Integral, (1, None, "left"), doc="""
        Iterations between two rows of the training history (doubled whenever the bounded
        history fills up, so it always spans the whole run)."""),
    Param("max_rules", None, Integral, (1, None, "left"), none=True, doc="""
        With an integer k, ``fit`` ends by compacting the model to at most k rules, the
        baseline counted as one (`mlr_core.compaction.compact`): a scorecard of k - 1 evolved
        rules whose weights and bipartition are refitted. A parameter rather than only a
        function so that ``clone``, ``GridSearchCV`` and the experiment runner treat a rule
        budget like any other setting; ``compact`` and ``compaction_path``
        (``mlr_core/compaction.py``) give compact models of a fitted one without evolving
        again. Needs ``weighting="fitted"``."""),
    Param("random_state", None, "random_state", doc="""
        Seeds the run's own random generator (one draw when ``fit`` or ``start`` begins)."""),
)
"""Every parameter of `MLRClassifier`, in its signature's order."""

BY_NAME = {param.name: param for param in PARAMETERS}
DEFAULTS = {param.name: param.default for param in PARAMETERS}
RETUNE = tuple(param.name for param in PARAMETERS if param.retune)
"""The parameters the bipartition is tuned under (prediction and its cut)."""
RENAMED = {"max_rule": "max_by"}
"""Former names of parameters (``max_rule`` read as the rule budget ``max_rules``'s twin): still
taken, with a FutureWarning, and read from model files (`renamed`)."""
ENGINE_FIELDS = tuple(param.engine_field or param.name for param in PARAMETERS
                      if param.engine is not None)
"""The kernels' `Config` fields (``mlr_core/_engine/cycle.py``), in the declarations' order."""


@dataclass(frozen=True)
class Together:
    """A rule between parameters that each are valid alone: ``holds`` (of all the values) or
    the refusal ``message``."""

    holds: Callable[[dict], bool]
    message: str


TOGETHER = (
    Together(lambda p: p["threshold"] is None or p["bipartition"] != "rcut",
             "bipartition='rcut' keeps a number of labels and reads no threshold: give "
             "threshold=None, or bipartition='threshold' (or 'auto') for the threshold."),
    Together(lambda p: p["max_rules"] is None or p["weighting"] == "fitted",
             "max_rules compacts the model to a scorecard of fitted rule weights: it needs "
             "weighting='fitted' (or max_rules=None)."),
)
"""The rules between parameters, checked before training starts (`check_together`)."""


def renamed(values: dict, warn: bool = True) -> dict:
    """``values`` (parameters by name) with each former name of `RENAMED` given its name now;
    with ``warn``, a FutureWarning for each (user code; a model file is read as it is)."""
    out = dict(values)
    for old, new in RENAMED.items():
        if old in out:
            if new in out:
                raise TypeError(f"{old} is the former name of {new}: give {new} alone.")
            if warn:
                warnings.warn(f"The parameter {old} is now {new}; the old name will go.",
                              FutureWarning, stacklevel=3)
            out[new] = out.pop(old)
    return out


def check_together(values: dict) -> None:
    """Refuse (InputError) parameters that `TOGETHER` does not allow together: before training,
    rather than after a whole run."""
    for rule in TOGETHER:
        if not rule.holds(values):
            raise InputError(rule.message)


def saved_param(name: str, value, what: str):
    """A resolved value of parameter ``name`` as a model file holds it (``what`` names where),
    checked against its declaration, else a `ModelFormatError`: one of its options, or a whole
    number within its bounds (and, as every saved count, below `SAVED_LIMIT`)."""
    param = BY_NAME[name]
    if param.kind is None:
        require(isinstance(value, str) and value in param.options,
                f"{what} must be {' or '.join(map(repr, param.options))}, got {value!r:.40}.")
        return value
    assert param.kind is Integral, f"{name}: only whole numbers are saved resolved"
    low, high, closed = param.bounds
    low = low if closed in ("left", "both") else low + 1
    if high is not None and closed not in ("right", "both"):
        high -= 1
    return saved_whole(value, what, low, high)


def number_type(name: str) -> type:
    """The Python type of a numeric parameter's values (``int`` or ``float``), for a form that
    shows it: its ``kind`` as declared in `PARAMETERS`."""
    return int if BY_NAME[name].kind in (Integral, "random_state") else float


def constraints() -> dict:
    """scikit-learn's ``_parameter_constraints`` of the declarations."""
    from sklearn.utils._param_validation import Interval, StrOptions

    out = {}
    for param in PARAMETERS:
        allowed = []
        if param.kind in ("boolean", "random_state"):
            allowed.append(param.kind)
        elif param.kind is not None:
            low, high, closed = param.bounds
            allowed.append(Interval(param.kind, low, high, closed=closed))
        if param.options:
            allowed.append(StrOptions(set(param.options)))
        if param.none:
            allowed.append(None)
        out[param.name] = allowed
    return out


def signature() -> inspect.Signature:
    """``MLRClassifier.__init__``'s signature: ``self``, then every parameter keyword-only with
    its default (what scikit-learn's ``get_params`` reads)."""
    return inspect.Signature([
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        *(inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY, default=param.default)
          for param in PARAMETERS)])


def numpydoc() -> str:
    """The docstring's parameter list, indented for a class docstring."""
    return textwrap.indent("".join(param.doc_lines() for param in PARAMETERS), "    ")


def engine_config(params: dict, n_features: int, n_rules: int, max_specified: int):
    """The kernels' `Config` of ``params`` (``get_params()``), ``n_rules`` and ``max_specified``
    resolved by the caller (`auto_n_rules`, `auto_max_specified`, or a saved run's)."""
    from mlr_core._engine.cycle import Config

    values = {**params, "n_rules": n_rules, "max_specified": max_specified}
    return Config(**{param.engine_field or param.name:
                     param.engine(values[param.name], n_features)
                     for param in PARAMETERS if param.engine is not None})


def resolved_max_specified(params: dict, n_train: int, n_features: int) -> int:
    """``max_specified`` in force on data of this shape."""
    if params["max_specified"] == "auto":
        return auto_max_specified(n_train, n_features, params["weighting"])
    return min(int(params["max_specified"]), n_features)


def resolved_n_rules(params: dict, n_train: int, binary_share: float) -> int:
    """``n_rules`` in force for ``n_train`` rows whose features are ``binary_share`` 0/1."""
    if params["n_rules"] != "auto":
        return int(params["n_rules"])
    return auto_n_rules(n_train, words_share(params, binary_share))


def words_share(params: dict, binary_share: float) -> float:
    """The share of 0/1 features that the ``auto`` sizes (`auto_n_rules`,
    ``stopping.auto_budget``) read: 0 without fitted weights, which alone give the 0/1
    features rules of their own."""
    return binary_share if params["weighting"] == "fitted" else 0.0


def auto_n_rules(n_train: int, binary_share: float = 0.0) -> int:
    """``n_rules="auto"``: 1.5 rules per training row, at least 1,000 (the UCS default, enough
    for the small sets: emotions, flags, CAL500 did no better with more) and at most 3,000 (the
    yeast and genbase optimum measured, and what keeps a fold under a minute).

    1,000 whatever the rows when at least half the features are 0/1 (``binary_share``, with
    fitted weights): their one-condition rules ``word = 1`` are fitted first
    (``mlr_core/rule_weights.py``) and carry the linear part, and the evolved rules only add
    to it. Fold 0 of the shared folds, N = 3,000 -> 1,000: slashdot ranking loss 0.0701 ->
    0.0698, accuracy 0.585 -> 0.586, fit 15.1 -> 3.5 CPU s; ohsumed ranking loss 0.1032 ->
    0.1027, accuracy 0.446 -> 0.450, 32.3 -> 7.5 CPU s (the weight fit on thousands of evolved
    rules was most of the time)."""
    if binary_share >= 0.5:
        return 1000
    return int(min(3000, max(1000, round(1.5 * n_train))))


def auto_max_specified(n_train: int, n_features: int, weighting: str) -> int:
    """``max_specified="auto"``: 3 features per rule with fitted weights, ceil(log2(n_train))
    with the vote; never more than the features there are."""
    k = 3 if weighting == "fitted" else math.ceil(math.log2(max(n_train, 2)))
    return min(n_features, max(1, k))
