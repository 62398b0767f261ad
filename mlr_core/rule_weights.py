"""Rule weights: what each rule adds to each label's score, fitted once the rules have evolved.

The paper's MLR_agg scores a label by its share of the matched rules' vote (F * num of the rules
whose labelset holds it). Those shares are not probabilities: a general rule with a wrong
labelset keeps a high HL fitness and dilutes every vote, and the best cut moves from fold to
fold. Here the evolved rules are kept as they are and each becomes a 0/1 feature (does it match
x?); one ridge regression per label on those features gives each rule a weight per label, so a
label's total is ``intercept + sum of the weights of the rules that match x``, and its score
that total clipped to [0, 1] (an estimate of the probability of the label) or, where it ranks
the labels better, put on log-odds by a second stage (``mlr_core/calibration.py``).

Each 0/1 feature (a word) also becomes a rule of its own, ``word = 1``, and each numeric feature
nine, steps at its deciles (`feature_rules`) that share one weight, a ramp in the feature's
order (`feature_ramps`): fitted first, on every training row, they are an additive model of the
features (`additive_fit`), and the evolved rules are fitted on what it leaves
(`fit_in_two_stages`); the leave-one-out error chooses among the evolved rules alone, the
additive model they refine, and the additive model alone (`fit_weights`). They stay rules of the
rule set, after the evolved ones, so scorecards, explanations, compaction and exports read them
as any other.

The one penalty for all labels is chosen by exact leave-one-out error (generalised
cross-validation, as in scikit-learn's ``RidgeCV``: no refits; here on one decomposition shared
by the fits of the same rules, `Basis`). Its leave-one-out predictions come for free and are
scores for rows the weights did not see; the bipartition is tuned on them. Measured
on the shared folds (``docs/field.md``): a shared penalty did as well as one per label, a
logistic regression on the rules themselves no better at ten times the time, the vote shares
as extra features nothing.
"""

import contextlib
import functools
import threading

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import Ridge
from threadpoolctl import ThreadpoolController

from mlr_core._engine import population as popmod
from mlr_core.model_file import FEATURE_RULES_PER_FEATURE
from mlr_core.scorers import WeightScorer
from mlr_core.sparse_rows import SparseRows, count_at_least

ALPHAS = np.logspace(-1, 4, 11)
"""Penalties tried, 0.1 to 10,000; the chosen one ranged from 1 (genbase) to 10,000 (yeast)."""

MAX_ROWS = 5000
"""At most this many training rows (a seeded sample) fit the weights: the leave-one-out solve
costs O(n^2 N) or O(n N^2), and 5,000 rows already pin down a few thousand weights."""


BLOCK = 2048
"""Rows at a time in the leverage's products: the squares of all n x r eigen-coordinates at once
cost ohsumed's weight fit 89 MB more (11,121 rows x 1,002 words)."""

MAX_FEATURE_RAMPS = 2048
"""At most this many features get one-condition rules, those whose rules split the training
rows most evenly (for words in fewer than half the rows: those held by the most rows): the fit
sees one column per feature, its ramp (`feature_ramps`), decomposes a ramps x ramps matrix and
keeps every training row's coordinates (a rows x ramps dense matrix, 786 MB for 48,000 rows),
so 20,000 words would take 3.2 GB and hours. The widest data measured (genbase, 1,185 0/1
features) keeps all of its."""

MAX_FEATURE_RULES = 4096
"""At most this many one-condition rules in all, the most even first: which training rows each
matches is kept as a sparse rows x rules matrix, about half full for a numeric feature's steps
(1.2 GB at 48,000 rows). Nine steps for each of 300 numeric features fit (the sparse-label
stand-ins of ``benchmarks/field.py``): under one cap of 2,048 rules a quarter of those steps
were lost, and sparse-30's accuracy was 0.119 against four steps' 0.138 (session 33); with every
step kept it is 0.158 (``docs/field.md``, "Each feature's ramp in nine steps")."""

MAX_FEATURE_MATCHES = 2**24
"""At most this many matches (a training row and a one-condition rule that holds for it) in
all, counted from the rules' supports before the sparse matrix of them is made, the most even
rules first: 12 bytes each in the matrix and 44 at the peak of making it (9 million matches of
20,000 rows x 900 steps: 108 MB, 396 MB at the peak), so 2**24 (16.8 million) keeps that peak
under 0.75 GB. Without it, data within the loaders' budget could ask for far more: 100,000 rows
of 320 numeric features (256 MB) make 2,880 steps that match half the rows each, 144 million
matches, 6.3 GB at the peak. The shared datasets make at most 1.35 million (mediamill_small:
2,500 rows, 1,080 steps) and keep every rule."""

MATCH_CELLS = 2**22
"""Rows x rules cells at a time when one-condition rules are matched on dense rows: their
values are compared as a float64 copy (32 MB at this size; all 2,048 rules of 48,000 rows at
once would be 786 MB)."""

MIN_SUPPORT = 2
"""A one-condition rule is kept when it matches at least this many training rows and misses as
many: a test constant on them has nothing to weigh."""

CUT_QUANTILES = tuple(k / (FEATURE_RULES_PER_FEATURE + 1)
                      for k in range(1, FEATURE_RULES_PER_FEATURE + 1))
"""Where a numeric feature's one-condition rules step: at its training column's deciles (0.1,
0.2, ..., 0.9), so that they read the feature's order, whatever its units. The fit gives a
feature's steps one weight (`feature_ramps`): nine equal steps, a staircase that rises (or
falls) with the share of training rows below the value. Nine rather than four (quintiles, until
session 34): the staircase is then nearer a slope in the feature's rank, which is what ranks
labels best where each label shifts many features a little (sparse-30, fold means: ranking loss
0.2012 -> 0.1956, accuracy 0.1406 -> 0.1580; ``docs/field.md``, "Each feature's ramp in nine
steps"), and the datasets of the shared folds, whose fits keep the evolved rules alone, do not
move.

A step is put in the gap between two distinct training values that leaves the share of rows
below it nearest to each quantile, halfway across the gap, as a decision tree's split is:
- where one value holds more than a tenth of the rows (a word count's 0, a rating's mode), the
  quantiles all fall on it, and the nearest gaps are its edges: a word count gets the step
  ``count >= 1``, as a 0/1 word gets ``word = 1``, where steps placed at the quantiles
  themselves would leave it none;
- no training value lies on a step, so the kernels' rounding at a bound cannot move a training
  row across it, and a new value inside a gap goes to the nearer side."""


def feature_rules(Xs, binary: np.ndarray, numeric: np.ndarray, zero: np.ndarray,
                  y_ids: np.ndarray, labelsets: np.ndarray, width: int,
                  iteration: int) -> tuple[popmod.Population, sp.csr_matrix | None]:
    """The one-condition rules of the scaled training rows ``Xs`` (a matrix or `SparseRows`), and
    which rows they match (`feature_matches`; None when there are none):
    ``x_j = 1`` on each 0/1 feature (``binary``), a step ``x_j >= cut`` at each of the
    `CUT_QUANTILES` of each ``numeric`` one (``x_j <= cut`` where the feature's 0, at
    ``zero``, would pass the first; nominal features get none), each kept if
    `MIN_SUPPORT` allows: the linear part of the fit, an additive model of the features. Each
    predicts the labelset most common among the rows it matches (``y_ids``, rows of
    ``labelsets``; ties to the labelset first in the order of its 0/1 bits, not of its id: a
    loaded model numbers its labelsets otherwise than the run that saved it), has numerosity 1,
    experience its support, and fitness 0: it takes no part in the vote. ``width``: the evolved
    rules' condition slots, so that both live in one rule set. Ordered by feature, then bounds.

    Why numeric features too: where each label shifts many features a little (the sparse-label
    stand-ins of ``benchmarks/field.py``), hyper-rectangles found by covering miss what a sum of
    steps sees, and the scores' top label was wrong for 53-83% of test rows. `fit_weights` keeps
    them only where the leave-one-out error says so: on the eight datasets of the shared folds
    it keeps the evolved rules alone, every fold, as before numeric features had any, and on
    those stand-ins the additive part (``docs/field.md``: one-error 0.75 -> 0.65 on sparse-30)."""
    feat, lower, upper, support = _tests(Xs, binary, numeric, zero)
    n = len(Xs)
    keep = (support >= MIN_SUPPORT) & (support <= n - MIN_SUPPORT)
    keep = _within_caps(feat, np.where(keep, np.minimum(support, n - support), -1), support)
    pop = _one_condition(feat[keep], lower[keep], upper[keep], width)
    if not keep.any():
        return pop, None
    matched = feature_matches(pop, Xs)
    by_bits = np.lexsort(labelsets.T[::-1])  # labelset ids in the order of their bits
    rank = np.empty_like(by_bits)
    rank[by_bits] = np.arange(len(by_bits))
    by_set = sp.csr_matrix((np.ones(n), (np.arange(n), rank[y_ids])),
                           shape=(n, len(labelsets)))
    pop.ls[:] = by_bits[np.asarray((matched.T @ by_set).argmax(axis=1)).ravel()]
    pop.num[:] = 1
    pop.exp[:] = np.asarray(matched.sum(axis=0)).ravel()
    pop.cs[:] = 1.0
    pop.ts[:] = pop.birth[:] = iteration
    return pop, matched


def _within_caps(feat: np.ndarray, balance: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Which candidate tests (on features ``feat``; ``balance``: how evenly each splits the
    training rows, -1 for one not kept; ``support``: how many rows it matches) are kept: by
    balance, the most even first, the tests of the first `MAX_FEATURE_RAMPS` features to come
    up, at most `MAX_FEATURE_RULES` of them, while their matches add up to at most
    `MAX_FEATURE_MATCHES`. Decided before any rows x rules matrix is made."""
    order = np.argsort(-balance, kind="stable")
    order = order[balance[order] >= 0]
    _, first = np.unique(feat[order], return_index=True)  # each feature's first place
    features = feat[order[np.sort(first)[:MAX_FEATURE_RAMPS]]]
    kept = order[np.isin(feat[order], features)][:MAX_FEATURE_RULES]
    kept = kept[np.cumsum(support[kept]) <= MAX_FEATURE_MATCHES]
    keep = np.zeros(len(feat), dtype=bool)
    keep[kept] = True
    return keep


def _tests(Xs, binary: np.ndarray, numeric: np.ndarray, zero: np.ndarray):
    """The candidate tests ``lower <= x_feat <= upper`` and how many training rows hold a
    value they accept (aligned arrays, by feature, then bounds), counted from the columns'
    values, so that the caps (`_within_caps`) apply before any rows x tests matrix is made (9
    tests per feature of wide numeric data would not fit in memory): ``x = 1`` on the 0/1 features;
    on each numeric one a step at each of its `CUT_QUANTILES`, ``x >= cut``, or, where the
    feature's 0 (``zero``, its position) passes that, the other side of the same step,
    ``x <= cut`` (to the fit, with its intercept, the same step; to sparse rows, a test most
    rows fail). A step the 0 sits on (between two values, at their midpoint) is left out:
    either side would pass it."""
    feat = [np.flatnonzero(binary)]
    lower, upper = [np.full(len(feat[0]), 0.5)], [np.ones(len(feat[0]))]
    support = [count_at_least(Xs, 0.5)[feat[0]]]
    columns = Xs.columns() if isinstance(Xs, SparseRows) else None
    for j in np.flatnonzero(numeric):
        if columns is None:
            column = Xs[:, j]
            values, counts = np.unique(column[~np.isnan(column)], return_counts=True)
        else:
            values, counts = Xs.distinct(columns, j)
        if len(values) < 2:
            continue
        below = np.cumsum(counts)[:-1]  # rows below each gap between two distinct values
        target = np.array(CUT_QUANTILES) * counts.sum()
        after = np.minimum(np.searchsorted(below, target), len(below) - 1)  # nearest gaps:
        before = np.maximum(after - 1, 0)  # one each side (a search, not a scan of every gap)
        nearer = np.abs(below[after] - target) < np.abs(below[before] - target)
        at = np.unique(np.where(nearer, after, before)) + 1  # the value above each chosen gap
        cut = (values[at - 1] + values[at]) / 2.0
        at, cut = at[cut != zero[j]], cut[cut != zero[j]]  # the 0 would pass either side
        above = cut > zero[j]
        feat.append(np.full(len(at), j))
        lower.append(np.where(above, cut, 0.0))
        upper.append(np.where(above, 1.0, cut))
        support.append(np.where(above, counts.sum() - below[at - 1], below[at - 1]))
    feat, lower, upper, support = (np.concatenate(parts)
                                   for parts in (feat, lower, upper, support))
    order = np.lexsort((upper, lower, feat))
    return feat[order], lower[order], upper[order], support[order]


def _one_condition(feat: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                   width: int) -> popmod.Population:
    """Rules of one condition each, ``x_feat`` in [lower, upper] (0 or 1: to the axis's end,
    every value beyond it, as the axis clips them there)."""
    pop = popmod.new_population(len(feat), width)
    pop.feat[:, 0] = feat
    pop.center[:, 0] = (lower + upper) / 2.0
    pop.spread[:, 0] = np.where(upper == 1.0, 1.0 - pop.center[:, 0], pop.center[:, 0] - lower)
    pop.nspec[:] = 1
    pop.size[0] = pop.micro[0] = len(feat)
    return pop


def feature_matches(pop: popmod.Population, Xs) -> sp.csr_matrix:
    """The rows x rules 0/1 match matrix of one-condition rules (`feature_rules`), sparse, by
    the kernels' own test (``|x - center| <= spread``, a missing value failing): a word's rule
    matches the rows that hold the word. On `SparseRows` a rule's feature's 0 must fail it."""
    k = int(pop.size[0])
    feat, center, spread = pop.feat[:k, 0], pop.center[:k, 0], pop.spread[:k, 0]
    if isinstance(Xs, SparseRows):
        return Xs.within(feat, center, spread)
    step = max(1, MATCH_CELLS // max(len(Xs), 1))  # rules at a time
    blocks = [sp.csc_matrix(np.abs(Xs[:, feat[i:i + step]] - center[i:i + step])
                            <= spread[i:i + step], dtype=np.float64)
              for i in range(0, k, step)] or [sp.csc_matrix((len(Xs), 0))]
    return sp.hstack(blocks, format="csr")


def fitting_rows(n: int, seed: int) -> np.ndarray:
    """The training rows the weights are fitted on: all, or a seeded sample of `MAX_ROWS`."""
    if n <= MAX_ROWS:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, MAX_ROWS, replace=False))


@functools.cache
def _blas_controller() -> ThreadpoolController:
    """The loaded BLAS libraries, found once: finding them costs milliseconds, as much as a
    compact model's smaller refits."""
    return ThreadpoolController()


class _OneBlasThread:
    """BLAS limited to one thread while any thread of the process is inside `one_blas_thread`:
    the limit is the process's, so each entrant limiting it and restoring it on leaving (as
    ``ThreadpoolController.limit`` alone does) let the first to leave give the others back every
    core in the middle of their fits (a dashboard's tabs fit weights, and compact, in threads of
    their own). The first to enter limits it, the last to leave restores it."""

    def __init__(self):
        self._lock = threading.Lock()
        self._inside = 0
        self._limiter = None

    @contextlib.contextmanager
    def __call__(self):
        with self._lock:
            if not self._inside:
                self._limiter = _blas_controller().limit(limits=1, user_api="blas")
            self._inside += 1
        try:
            yield
        finally:
            with self._lock:
                self._inside -= 1
                if not self._inside:
                    self._limiter.restore_original_limits()


one_blas_thread = _OneBlasThread()
"""A context in which BLAS uses one thread: the weights' bits then do not depend on the
machine's cores (threads split the sums differently), and on a busy machine a second thread
cost 3x the time (docs/fit_time.md)."""


def ranking_weights(A: np.ndarray, Y: np.ndarray, alpha: float) -> np.ndarray:
    """The rules x labels weights of a ridge fit with a given penalty, nothing else: enough to
    rank rules by importance. One Cholesky solve of the rules' Gram matrix (its product is
    BLAS's fastest kind of work) instead of the leave-one-out decomposition, which costs
    several times more."""
    ridge = Ridge(alpha=alpha, solver="cholesky")
    with one_blas_thread():
        ridge.fit(A, Y.astype(np.float64))
    return ridge.coef_.T.reshape(A.shape[1], Y.shape[1])


def fit_rule_weights(A: np.ndarray, Y: np.ndarray) -> tuple[WeightScorer, np.ndarray]:
    """Fit the weights on a rows x rules 0/1 match matrix ``A`` and the rows' 0/1 labels.

    Returns
    -------
    (weights, loo_scores)
        ``loo_scores``: each row's leave-one-out scores, in [0, 1].
    """
    weights, loo = _fit(A, Y.astype(np.float64))
    return weights, np.clip(loo, 0.0, 1.0)


def feature_ramps(pop: popmod.Population) -> sp.csr_matrix | None:
    """The one-condition rules x ramps map that ties each feature's steps (`feature_rules`) to
    one weight: a feature's ramp is the sum of its steps ``x >= cut`` minus the sum of its steps
    ``x <= cut``, over their number, so that it rises by equal steps from the feature's lowest
    training values to its highest, over a span of 1 (a word's rule, alone on its feature, is
    its own ramp). A ramp's weight w gives each of its k steps w / k, with the step's sign.
    None where no feature has more than one rule: the fit is then that of the rules themselves.

    Why one weight per feature: where each label shifts many numeric features a little (the
    sparse-label stand-ins of ``benchmarks/field.py``), the four steps fitted each on its own
    spent the ridge penalty on four noisy weights per feature, and ranked the labels worse than
    one slope in the feature's order (fold means, sparse-30: ranking loss 0.2108 -> 0.2033,
    accuracy 0.1098 -> 0.1378; ``docs/field.md``, "Each feature's steps as one ramp")."""
    k = int(pop.size[0])
    features, ramp, steps = np.unique(pop.feat[:k, 0], return_inverse=True, return_counts=True)
    if len(features) == k:
        return None
    # x >= cut reaches the axis's end: center + (1 - center) is exactly 1 for a center in
    # [0.5, 1] (Sterbenz's lemma), and a step x <= cut (from 0) ends at its cut, below 1
    rising = pop.center[:k, 0] + pop.spread[:k, 0] == 1.0
    return sp.csr_matrix((np.where(rising, 1.0, -1.0) / steps[ramp], (np.arange(k), ramp)),
                         shape=(k, len(features)))


def additive_fit(base: sp.csr_matrix, Y: np.ndarray,
                 ramps: sp.csr_matrix | None = None) -> tuple[WeightScorer, np.ndarray]:
    """The first stage: the one-condition rules alone (``base``: all training rows x
    `feature_rules`; ``Y``: their labels), a weight per ramp where ``ramps`` (`feature_ramps`)
    ties them, and every row's leave-one-out totals (`_fit`)."""
    Yf = Y.astype(np.float64)
    if ramps is None:
        return _fit(base, Yf)
    by_ramp, loo = _fit(base @ ramps, Yf)
    return WeightScorer(ramps @ by_ramp.coef, by_ramp.intercept, by_ramp.alpha), loo


def fit_in_two_stages(A, Y: np.ndarray, base: sp.csr_matrix, rows: np.ndarray,
                      stage_one: tuple[WeightScorer, np.ndarray]
                      ) -> tuple[WeightScorer, np.ndarray]:
    """The one-condition rules first (``stage_one``: `additive_fit` of ``base``, all training
    rows x `feature_rules`, to ``Y``, all rows' labels), then the evolved rules (``A``: the fitting
    ``rows`` x rules, or its `Basis`) on what they leave, each stage with its own penalty. The
    weights: one row per column of ``A``, then of ``base``; the leave-one-out totals of
    ``rows``, the sum of both stages' (unclipped: `fit_weights` compares them clipped, the
    second stage reads them as they are).

    Why two stages: in one ridge fit the thousands of evolved rules set the one penalty for
    all, and the linear part, the better ranker on wide 0/1 data, was drowned (slashdot fold 0
    ranking loss: words alone 0.070, the evolved rules alone 0.080, both in one fit 0.080).
    The first stage is a sparse fit of as many columns as words, cheap on every training row
    (the evolved rules are fitted on `MAX_ROWS` of them)."""
    first, loo_first = stage_one
    residual = Y[rows] - first.intercept - base[rows] @ first.coef
    second, loo_second = _fit(A, residual)
    weights = WeightScorer(np.vstack([second.coef, first.coef]),
                           first.intercept + second.intercept, first.alpha)
    return weights, loo_first[rows] + loo_second


def fit_weights(A: np.ndarray, Y: np.ndarray, base: sp.csr_matrix | None, rows: np.ndarray,
                ramps: sp.csr_matrix | None = None) -> tuple[WeightScorer, np.ndarray, bool]:
    """The weights of the evolved rules (``A``: the fitting ``rows`` x rules; ``Y``: every
    training row's labels) alone; or with the one-condition rules ``base`` (every training row
    x `feature_rules`, None when there are none; ``ramps``, `feature_ramps`, tying their
    weights) fitted first (`fit_in_two_stages`); or those alone (`additive_fit`, the evolved
    rules weighing 0): whichever has the smallest leave-one-out squared error on the fitting
    rows, ties to the first. Returns (weights, leave-one-out totals of ``rows``, unclipped,
    whether ``base`` is used). Both fits of ``A`` share its one decomposition.

    Why a choice rather than always both: the words' linear part is what ranks best on text
    (slashdot, ohsumed), but on flags (36 one-hot 0/1 columns, 154 rows; fold 0) fitting it
    first cost Hamming loss 0.229 -> 0.268 and accuracy 0.673 -> 0.632, and there the evolved
    rules alone have the smaller leave-one-out error. Why the additive model alone: where each
    label shifts many features a little and the evolved rules add no signal to it, fitting them
    on its residual adds their noise (the sparse-label stand-ins: ``docs/field.md``, "The
    additive model alone")."""
    basis = Basis(A)
    truth = Y[rows].astype(np.float64)
    alone, loo = _fit(basis, truth)
    if base is None:
        return alone, loo, False
    first = additive_fit(base, Y, ramps)
    both, loo_both = fit_in_two_stages(basis, Y, base, rows, first)
    additive = WeightScorer(np.vstack([np.zeros((A.shape[1], Y.shape[1])), first[0].coef]),
                            first[0].intercept, first[0].alpha)

    def error(candidate):
        return np.mean((np.clip(candidate[1], 0.0, 1.0) - truth) ** 2)
    return min([(alone, loo, False), (both, loo_both, True), (additive, first[1][rows], True)],
               key=error)


class Basis:
    """A rows x rules matrix, centred, in the eigenbasis of its covariance (more rows than
    rules) or of its Gram matrix (fewer), decomposed when first needed: what every ridge fit
    on it, for any penalty and any targets, is computed from. Dense or sparse; a sparse matrix
    is never densified.

    Why not scikit-learn's ``RidgeCV``: it decomposes the matrix on every call, and
    `fit_weights` fits the same evolved rules twice (alone, and on what the words leave); on
    sparse rows its covariance path multiplies the rows by a rules x rules matrix once per
    penalty. Here one decomposition serves both fits, and each penalty costs a product with
    the n x r eigen-coordinates. `fit_weights` on fold 0 of the shared folds, one thread, CPU
    seconds on a busy machine: slashdot 2.50 -> 0.70, ohsumed 6.23 -> 1.54. The same
    penalties as ``RidgeCV``, weights and scores within 1e-12 (rounding), and every measure
    of ``benchmarks/field.py`` the same on the five and mediamill_small, all folds."""

    def __init__(self, A):
        self.matrix, self.shape = A, A.shape

    @functools.cached_property
    def parts(self):
        """(column means, eigenvalues (>= 0), the centred rows' eigen-coordinates G (n x r),
        what multiplies the shrinkage 1 / (eig + alpha) in the fit G diag(.) G' (1 in the
        covariance's basis, eig in the Gram's), the map from r x targets shrunken
        eigen-coefficients to rules x targets weights)."""
        A = self.matrix
        n, p = A.shape
        mean = np.asarray(A.mean(axis=0), dtype=np.float64).ravel()
        with one_blas_thread():
            if n >= p:  # A_c' A_c = V diag(eig) V'; G = A_c V
                eig, V = np.linalg.eigh(_dense(A.T @ A) - n * np.outer(mean, mean))
                eig = eig.clip(0.0, None)
                coords = A @ V
                coords -= mean @ V
                return mean, eig, coords, np.ones_like(eig), lambda C: V @ C
            # A_c A_c' = Q diag(eig) Q'; G = Q, and the weights are A_c' Q C
            shift = A @ mean
            eig, Q = np.linalg.eigh(_dense(A @ A.T) - shift[:, None] - shift[None, :]
                                    + mean @ mean)

        def to_coef(C):
            QC = Q @ C
            return A.T @ QC - np.outer(mean, QC.sum(axis=0))
        return mean, eig.clip(0.0, None), Q, eig.clip(0.0, None), to_coef


def _dense(M) -> np.ndarray:
    return M.toarray() if sp.issparse(M) else M


def _fit(A, Yf: np.ndarray) -> tuple[WeightScorer, np.ndarray]:
    """A ridge fit on ``A`` (a matrix, dense or sparse, or its `Basis`) with the penalty of
    `ALPHAS` that has the smallest leave-one-out squared error over all labels, and its exact
    leave-one-out predictions, unclipped. With an intercept the hat matrix is
    11'/n + G diag(f) G' (f = gain / (eig + alpha), see `Basis.parts`), and a row's
    leave-one-out residual is its residual over 1 - its diagonal entry (the identity
    scikit-learn's ``RidgeCV`` uses)."""
    n, n_rules = A.shape
    if n_rules == 0 or n < 3:  # nothing to weigh, or no leave-one-out to choose with
        mean = Yf.mean(axis=0)
        weights = WeightScorer(np.zeros((n_rules, Yf.shape[1])), mean, 0.0)
        return weights, np.tile(mean, (n, 1))
    mean_x, eig, G, gain, to_coef = (A if isinstance(A, Basis) else Basis(A)).parts
    mean_y = Yf.mean(axis=0)
    centred = Yf - mean_y
    best = None
    with one_blas_thread():
        GY = G.T @ centred
        shrink = 1.0 / (eig[:, None] + ALPHAS[None, :])  # r x penalties
        fit = gain[:, None] * shrink
        # n x penalties, in blocks of rows: G itself is the fit's largest array
        leverage = 1.0 / n + np.vstack([np.square(G[i:i + BLOCK]) @ fit
                                        for i in range(0, n, BLOCK)])
        for k in range(len(ALPHAS)):
            residual = (centred - G @ (GY * fit[:, k:k + 1])) / (1.0 - leverage[:, k:k + 1])
            error = float(np.mean(np.square(residual)))
            if best is None or error < best[0]:
                best = (error, k, residual)
        _, k, residual = best
        coef = to_coef(GY * shrink[:, k:k + 1])
    weights = WeightScorer(coef, mean_y - mean_x @ coef, float(ALPHAS[k]))
    return weights, Yf - residual
