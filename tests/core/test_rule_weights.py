"""Fitted rule weights (``weighting="fitted"``): what they are fitted on, what they promise, and
that they never silently go stale."""

import json

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import Ridge

from mlr_core import InputError, MLRClassifier, ModelFormatError, TrainingSession
from mlr_core._engine.matching import match_matrix, match_set
from mlr_core.rule_weights import additive_fit, fit_in_two_stages, fit_rule_weights


def data(seed=0, n=200, d=4, m=3):
    r = np.random.default_rng(seed)
    X = r.random((n, d))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] + X[:, 2] > 1, X[:, 3] < 0.3]).astype(int)
    return X, Y[:, :m]


@pytest.fixture(scope="module")
def fitted():
    X, Y = data()
    return MLRClassifier(n_rules=150, n_iter=4000, random_state=0).fit(X, Y), X, Y


def test_match_matrix_agrees_with_match_set(fitted):
    model, X, _ = fitted
    scaled = model.rule_set_.scaled(X)
    A = match_matrix(model.population_, scaled)
    assert A.shape == (len(X), int(model.population_.size[0]))
    slots = np.empty(model.population_.nspec.shape[0], dtype=np.int64)
    for r in range(len(X)):
        count = match_set(model.population_, scaled[r], slots)
        assert set(np.flatnonzero(A[r])) == set(slots[:count])


def test_leave_one_out_scores_are_refits_without_the_row():
    """The bipartition is tuned on scores for rows the weights did not see: check the free
    leave-one-out scores against refitting without each row."""
    r = np.random.default_rng(1)
    A = (r.random((40, 12)) < 0.3).astype(float)
    Y = (r.random((40, 2)) < 0.4).astype(np.uint8)
    weights, loo = fit_rule_weights(A, Y)
    for i in (0, 7, 39):
        keep = np.arange(40) != i
        refit = Ridge(alpha=weights.alpha).fit(A[keep], Y[keep])
        assert np.allclose(np.clip(refit.predict(A[i:i + 1])[0], 0, 1), loo[i], atol=1e-6)


@pytest.mark.parametrize("n, p, sparse", [(120, 30, False), (40, 90, False), (120, 30, True),
                                          (40, 90, True)])
def test_the_weights_are_ridge_cvs_on_every_shape(n, p, sparse):
    """More rows than rules and fewer, dense and sparse: the penalty, weights and leave-one-out
    predictions of scikit-learn's RidgeCV over the same penalties."""
    import scipy.sparse as sp
    from sklearn.linear_model import RidgeCV

    from mlr_core.rule_weights import ALPHAS, Basis, _fit

    r = np.random.default_rng(n + p)
    A = (r.random((n, p)) < 0.2).astype(float)
    Y = (A[:, :3] + r.random((n, 3)) > 0.8).astype(float)
    matrix = sp.csr_matrix(A) if sparse else A
    ridge = RidgeCV(alphas=ALPHAS, scoring="neg_mean_squared_error",
                    store_cv_results=True).fit(A, Y)
    weights, loo = _fit(matrix, Y)
    assert weights.alpha == ridge.alpha_
    assert np.allclose(weights.coef, ridge.coef_.T, atol=1e-10)
    assert np.allclose(weights.intercept, ridge.intercept_, atol=1e-10)
    chosen = int(np.flatnonzero(ALPHAS == ridge.alpha_)[0])
    assert np.allclose(loo, ridge.cv_results_.reshape(n, 3, len(ALPHAS))[:, :, chosen],
                       atol=1e-10)
    again, _ = _fit(Basis(matrix), 1 - Y)  # a decomposition serves any targets
    assert np.allclose(again.coef, -weights.coef, atol=1e-10)


def test_scores_are_the_link_of_the_intercept_plus_the_matching_rules_weights(fitted):
    """The link (clipped or logistic, whichever the second stage chose) of the matching rules'
    weights plus the intercept."""
    model, X, _ = fitted
    w = model.rule_weights_
    A = match_matrix(model.rule_set_.rules, model.rule_set_.scaled(X))
    assert np.allclose(model.predict_proba(X), w.squash.apply(A @ w.coef + w.intercept))
    frame = model.rule_set_.rule_weights_frame()
    assert np.array_equal(frame.filter(like="weight: ").to_numpy(), w.coef)


def test_before_evolution_the_answer_is_the_linear_part():
    """No evolved rule yet: the one-condition rules alone answer, as fitted on their own; with
    no feature to cut either (constant columns), the training label frequency."""
    import mlr_core.rule_weights as rw

    X, Y = data(2)
    X = np.column_stack([X[:, 0] > 0.5, X[:, 1] > 0.3]).astype(float)  # two 0/1 features
    model = MLRClassifier(n_rules=50, random_state=0)
    TrainingSession(model).start(X, Y)  # no evolved rule yet
    assert int(model.run_.population.size[0]) == 0
    rules = model.rule_set_.rules
    A = match_matrix(rules, model.rule_set_.scaled(X))
    alone, _ = rw.fit_rule_weights(A, Y)
    assert np.allclose(model.predict_proba(X[:3]), np.clip(alone.intercept + A[:3] @ alone.coef,
                                                           0, 1))
    flat = MLRClassifier(n_rules=50, random_state=0)
    TrainingSession(flat).start(np.ones((len(X), 2)), Y)
    assert np.allclose(flat.predict_proba(X[:3]), Y.mean(axis=0))
    e = flat.rule_set_.explain(X[0])
    assert e.fallback and len(e.rule_ids) == 0
    assert np.allclose(e.baseline.to_numpy(), Y.mean(axis=0))


def test_stale_weights_are_refused_until_refitted(fitted):
    model, X, Y = fitted
    again = MLRClassifier.from_json(model.to_json())
    TrainingSession(again).start(X, Y, warm_start=True).learn(10)
    with pytest.raises(InputError, match="tune_bipartition"):
        again.predict(X)
    TrainingSession(again).tune_bipartition()
    assert again.predict(X).shape == Y.shape
    assert again.predict(X, prediction="max").shape == Y.shape  # MLR_max votes: never stale


def test_json_keeps_the_weights_and_refuses_mismatched_ones(fitted):
    model, X, _ = fitted
    text = model.to_json()
    assert np.array_equal(MLRClassifier.from_json(text).predict_proba(X), model.predict_proba(X))
    data_ = json.loads(text)
    scorer = data_["rule_set"]["scorer"]
    scorer["coef"] = scorer["coef"][:-1]
    with pytest.raises(ModelFormatError, match="weights"):
        MLRClassifier.from_json(json.dumps(data_))
    rows, m = np.shape(json.loads(text)["rule_set"]["scorer"]["coef"])
    flat = json.loads(text)  # the right count of numbers in rows of the wrong length
    flat["rule_set"]["scorer"]["coef"] = np.zeros((m, rows)).tolist()
    with pytest.raises(ModelFormatError, match="weights"):
        MLRClassifier.from_json(json.dumps(flat))


def test_fitted_weights_beat_the_vote_on_sparse_words():
    """Word-like data (sparse 0/1 features, each label signalled by its own words): the vote of
    rules that mostly say "these words are absent" is near useless; weighting the same rules
    recovers the labels."""
    r = np.random.default_rng(3)
    n, d, m = 500, 150, 5
    Y = (r.random((n, m)) < 0.25).astype(int)
    p = np.full((n, d), 0.02)
    for j in range(m):
        p[np.ix_(Y[:, j] == 1, np.arange(j * 10, j * 10 + 10))] = 0.4
    X = (r.random((n, d)) < p).astype(float)
    train, test = slice(0, 400), slice(400, None)
    kw = dict(n_rules=600, n_iter=20_000, random_state=0)
    accuracy = {}
    for weighting in ("fitted", "vote"):
        model = MLRClassifier(weighting=weighting, **kw).fit(X[train], Y[train])
        accuracy[weighting] = (model.predict(X[test]) == Y[test]).mean()
    assert accuracy["fitted"] > accuracy["vote"] + 0.05, accuracy


def test_large_data_fits_the_weights_on_a_seeded_sample(monkeypatch):
    import mlr_core.rule_weights as rw

    monkeypatch.setattr(rw, "MAX_ROWS", 60)
    rows = rw.fitting_rows(200, seed=5)
    assert len(rows) == 60 and np.all(np.diff(rows) > 0)
    assert np.array_equal(rows, rw.fitting_rows(200, seed=5))
    X, Y = data(4)
    a = MLRClassifier(n_rules=100, n_iter=2000, random_state=0).fit(X, Y)
    b = MLRClassifier(n_rules=100, n_iter=2000, random_state=0).fit(X, Y)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    assert a.predict(X).shape == Y.shape


def test_one_condition_rules_are_the_features_additive_terms():
    """A 0/1 feature gets the rule ``x = 1``; a numeric one ``x >= cut`` at its deciles; a
    constant one and one with a single 1 none. Each predicts its rows' most common labelset,
    and each matches the rows the kernels' own test says it does."""
    import mlr_core.rule_weights as rw

    r = np.random.default_rng(2)
    n = 50
    words = (r.random((n, 2)) < 0.3).astype(float)
    numbers = r.random(n)
    X = np.column_stack([words, numbers, np.zeros(n), np.eye(n)[0]])
    binary = np.array([True, True, False, True, True])
    numeric = np.array([False, False, True, False, False])
    y_ids = (words[:, 0] == 1).astype(np.int64) * 2  # rows with word 0 have labelset 2
    labelsets = np.array([[0, 1], [1, 1], [1, 0]], dtype=np.uint8)
    pop, matched = rw.feature_rules(X, binary, numeric, np.zeros(5), y_ids, labelsets, width=3,
                                    iteration=7)
    assert int(pop.size[0]) == 11 and pop.feat[:, 0].tolist() == [0, 1] + [2] * 9
    A = match_matrix(pop, X)
    assert np.array_equal(matched.toarray(), A)
    assert np.array_equal(rw.feature_matches(pop, X).toarray(), A)
    assert np.array_equal(A[:, :2], words)
    cuts = np.sort(numbers)[5:50:5]  # distinct values: 5, 10, ..., 45 rows below
    assert np.array_equal(A[:, 2:], (numbers[:, None] >= cuts).astype(float))
    assert pop.ls[0] == 2 and list(pop.exp) == list(A.sum(axis=0).astype(int))
    assert (pop.nspec == 1).all() and (pop.fit == 0).all() and (pop.birth == 7).all()


def one_column_rules(column: np.ndarray):
    """`feature_rules` of one numeric column (its 0 at 0), and their matches."""
    import mlr_core.rule_weights as rw

    return rw.feature_rules(column[:, None], np.array([False]), np.array([True]), np.zeros(1),
                            np.zeros(len(column), dtype=np.int64), np.array([[1]], np.uint8),
                            width=1, iteration=0)


def test_a_step_sits_between_training_values_and_keeps_the_rows_at_its_quantile():
    """A step lies halfway between two training values, so the rows at the value above pass
    it. These values are ones where a bound placed on the value itself is failed by the value,
    in the kernels' test ``|x - center| <= spread``."""
    values = np.array([0.1, 0.124, 0.183, 0.227, 0.5])
    centre = (values[1:4] + 1.0) / 2.0
    assert (np.abs(values[1:4] - centre) > 1.0 - centre).all()  # a bound there drops them
    column = np.repeat(values, 10)
    pop, matched = one_column_rules(column)
    assert np.array_equal(matched.toarray(), (column[:, None] >= values[1:]).astype(float))
    assert np.array_equal(matched.toarray(), match_matrix(pop, column[:, None]))
    lower = pop.center[:, 0] - pop.spread[:, 0]
    assert np.allclose(lower, (values[:-1] + values[1:]) / 2.0)


def test_a_count_mostly_zero_gets_the_step_at_its_zeros_edge():
    """A word count with 0 in 90% of rows: every decile falls on the 0, and the gap nearest
    them is the 0's edge, so the count gets ``count >= 1`` (as a 0/1 word gets ``word = 1``);
    with a third of the rows at 0, steps at the gaps nearest each decile (two deciles sharing
    a gap make one step)."""
    counts = np.repeat([0.0, 0.1, 0.3, 0.6], [90, 6, 3, 1])
    pop, matched = one_column_rules(counts)
    assert int(pop.size[0]) == 1
    assert np.array_equal(matched.toarray()[:, 0], (counts > 0).astype(float))
    spread = np.repeat([0.0, 0.1, 0.2, 0.3, 0.6], [30, 12, 28, 10, 20])
    pop, matched = one_column_rules(spread)
    assert np.array_equal(np.asarray(matched.sum(axis=0)).ravel(), [70, 58, 30, 20])


def test_the_cap_on_one_condition_rules_applies_before_any_rows_are_matched(monkeypatch):
    """Wide numeric data makes nine tests per feature: the cap keeps those that split the rows
    most evenly, and only they are matched (a rows x tests matrix of all of them would not fit
    in memory)."""
    import mlr_core.rule_weights as rw

    r = np.random.default_rng(5)
    X = np.column_stack([r.random((60, 3)), (r.random(60) < 0.5).astype(float)])
    matched_sizes = []
    spy = rw.feature_matches

    def counting(pop, Xs):
        matched_sizes.append(int(pop.size[0]))
        return spy(pop, Xs)

    monkeypatch.setattr(rw, "feature_matches", counting)
    monkeypatch.setattr(rw, "MAX_FEATURE_RULES", 5)
    kinds = (np.array([False, False, False, True]), np.array([True, True, True, False]),
             np.zeros(4))
    pop, matched = rw.feature_rules(X, *kinds, np.zeros(60, dtype=np.int64),
                                    np.array([[1]], np.uint8), width=1, iteration=0)
    assert matched_sizes == [5] and int(pop.size[0]) == 5 and matched.shape == (60, 5)
    support = np.asarray(matched.sum(axis=0)).ravel()
    assert np.array_equal(pop.exp, support)
    feat, lower, upper, every = rw._tests(X, *kinds)  # all 28 candidates, counted
    assert len(every) == 28
    candidates = list(zip(feat, rw._one_condition(feat, lower, upper, 1).center[:, 0],
                          strict=True))
    kept = [candidates.index(test) for test in zip(pop.feat[:, 0], pop.center[:, 0],
                                                   strict=True)]
    balance = np.minimum(every, 60 - every)
    assert balance[kept].min() >= np.delete(balance, kept).max()


def test_the_cap_on_ramps_keeps_a_feature_s_steps_together(monkeypatch):
    """The fit sees a column per feature (its ramp): the cap on them keeps the features whose
    steps split the rows most evenly, with all their steps, and the words that do; the cap on
    rules then keeps the most even of those. Words alone are kept as one cap on rules kept
    them, the most even first."""
    import mlr_core.rule_weights as rw

    r = np.random.default_rng(8)
    n = 100
    skewed = np.where(r.random(n) < 0.8, 0.0, r.random(n))  # its most even step splits 20 rows
    words = (r.random((n, 3)) < np.array([0.45, 0.05, 0.3])).astype(float)
    X = np.column_stack([skewed, r.random(n), words])
    kinds = (np.array([False, False, True, True, True]), np.array([True, True, False, False,
                                                                   False]), np.zeros(5))
    labels = np.zeros(n, dtype=np.int64), np.array([[1]], np.uint8)
    monkeypatch.setattr(rw, "MAX_FEATURE_RAMPS", 2)
    pop, _ = rw.feature_rules(X, *kinds, *labels, width=1, iteration=0)
    assert sorted(set(pop.feat[:int(pop.size[0]), 0].tolist())) == [1, 2]  # uniform, word 0.45
    assert np.count_nonzero(pop.feat[:int(pop.size[0]), 0] == 1) == 9  # every decile's step
    monkeypatch.setattr(rw, "MAX_FEATURE_RULES", 4)
    pop, _ = rw.feature_rules(X, *kinds, *labels, width=1, iteration=0)
    assert int(pop.size[0]) == 4 and 2 in pop.feat[:4, 0]
    monkeypatch.setattr(rw, "MAX_FEATURE_RULES", 4096)
    pop, _ = rw.feature_rules(X[:, 2:], *(kind[2:] for kind in kinds), *labels, width=1,
                              iteration=0)
    assert pop.feat[:int(pop.size[0]), 0].tolist() == [0, 2]  # the two most even words, in order


def test_the_cap_on_matches_is_kept_before_the_matrix_is_made(monkeypatch):
    """The one-condition rules' matches (a sparse rows x rules matrix) are bounded before it is
    made: the most even rules are kept while their supports add up to `MAX_FEATURE_MATCHES`,
    and the matrix is made for those alone."""
    import mlr_core.rule_weights as rw

    r = np.random.default_rng(3)
    n, p = 200, 6
    X = r.random((n, p))
    kinds = np.zeros(p, bool), np.ones(p, bool), np.zeros(p)
    labels = np.zeros(n, dtype=np.int64), np.array([[1]], np.uint8)
    pop, full = rw.feature_rules(X, *kinds, *labels, width=1, iteration=0)
    assert int(pop.size[0]) == 9 * p and full.nnz == pop.exp[:9 * p].sum()

    def rules(pop):
        k = int(pop.size[0])
        return {(int(f), float(c), float(s)): int(e) for f, c, s, e in zip(
            pop.feat[:k, 0], pop.center[:k, 0], pop.spread[:k, 0], pop.exp[:k], strict=True)}

    made = []
    matches = rw.feature_matches
    monkeypatch.setattr(rw, "feature_matches",
                        lambda pop, Xs: made.append(int(pop.size[0])) or matches(pop, Xs))
    monkeypatch.setattr(rw, "MAX_FEATURE_MATCHES", full.nnz // 3)
    capped, matrix = rw.feature_rules(X, *kinds, *labels, width=1, iteration=0)
    kept, every = rules(capped), rules(pop)
    assert made == [len(kept)] and 0 < len(kept) < len(every)
    assert matrix.shape == (n, len(kept)) and matrix.nnz == sum(kept.values()) <= full.nnz // 3
    even = {rule: min(support, n - support) for rule, support in every.items()}
    assert min(even[rule] for rule in kept) >= max(even[rule] for rule in every if rule not in kept)
    dropped = max((rule for rule in every if rule not in kept), key=even.get)
    assert matrix.nnz + every[dropped] > full.nnz // 3  # the next most even would not fit


def test_sparse_rows_cut_and_match_as_their_dense_columns():
    """Sparse rows get the one-condition rules their dense twin gets, the values not stored
    counted at the feature's 0 and missing ones skipped; a step the 0 would pass is tested from
    its other side (``x <= cut``), so every test leaves the 0s out."""
    import scipy.sparse as sp

    import mlr_core.rule_weights as rw
    from mlr_core.sparse_rows import SparseRows

    r = np.random.default_rng(4)
    n = 40
    raw = np.where(r.random((n, 4)) < [0.1, 0.5, 0.9, 0.6], r.normal(0, 0.5, (n, 4)), 0.0)
    raw[3, 2] = np.nan
    stored = (raw != 0.0) | np.isnan(raw)
    stored[5, 1] = True  # an explicit zero
    at = np.nonzero(stored)
    rows = SparseRows.scaled(sp.csr_matrix((raw[at], at), shape=raw.shape),
                             lambda v, j: np.clip((v + 2.0) / 4.0, 0.0, 1.0))  # 0 at 0.5
    dense = rows.dense()
    args = (np.zeros(4, dtype=bool), np.ones(4, dtype=bool), rows.zero,
            np.zeros(n, dtype=np.int64), np.array([[1]], dtype=np.uint8))
    pops = [rw.feature_rules(x, *args, width=1, iteration=0)[0] for x in (rows, dense)]
    for field in ("feat", "center", "spread", "exp"):
        assert np.array_equal(getattr(pops[0], field), getattr(pops[1], field))
    pop = pops[0]
    center, spread = pop.center[:, 0], pop.spread[:, 0]
    assert not (np.abs(rows.zero[pop.feat[:, 0]] - center) <= spread).any()
    assert (center == spread).any() and (center + spread == 1.0).any()  # x <= v and x >= v
    A = rw.feature_matches(pop, rows).toarray()
    assert np.array_equal(A, rw.feature_matches(pops[1], dense).toarray())
    assert np.array_equal(A, match_matrix(pop, dense))


def test_a_one_condition_rule_s_labelset_does_not_depend_on_the_labelsets_numbering():
    """A tie between two labelsets goes to the one first by its bits, however they are
    numbered: a loaded model numbers its labelsets otherwise than the run that saved it, and
    its refitted rules must be the same (a loaded ohsumed model's words' rules changed
    labelsets)."""
    import mlr_core.rule_weights as rw

    X = np.array([[1.0], [1.0], [0.0], [0.0]])  # the word's rule matches one row of each set
    chosen = []
    for labelsets, y_ids in (([[0, 1], [1, 0], [0, 0]], [0, 1, 2, 2]),
                             ([[1, 0], [0, 1], [0, 0]], [1, 0, 2, 2])):  # the same rows
        labelsets = np.array(labelsets, dtype=np.uint8)
        pop, _ = rw.feature_rules(X, np.array([True]), np.array([False]), np.zeros(1),
                                  np.array(y_ids), labelsets, width=1, iteration=0)
        chosen.append(labelsets[pop.ls[0]].tolist())
    assert chosen == [[0, 1], [0, 1]]


def test_two_stages_fit_the_linear_part_first():
    """The one-condition rules' weights are theirs fitted alone (on every row), the evolved
    rules' are fitted on what they leave on the fitting rows: evolved rules that carry no
    signal hardly move the scores."""
    import scipy.sparse as sp

    r = np.random.default_rng(5)
    n = 160
    base = (r.random((n, 6)) < 0.4).astype(float)
    Y = (base[:, :2] + 0.1 * r.random((n, 2)) > 0.5).astype(np.uint8)
    rows = np.arange(0, n, 2)
    noise = (r.random((len(rows), 30)) < 0.5).astype(float)
    words = sp.csr_matrix(base)
    weights, loo = fit_in_two_stages(noise, Y, words, rows, additive_fit(words, Y))
    alone, _ = fit_rule_weights(base, Y)
    assert weights.coef.shape == (36, 2)
    assert np.allclose(weights.coef[30:], alone.coef)
    scores = np.clip(weights.intercept + np.hstack([noise, base[rows]]) @ weights.coef, 0, 1)
    assert np.abs(scores - np.clip(alone.intercept + base[rows] @ alone.coef, 0, 1)).max() < 0.1
    assert loo.shape == (len(rows), 2) and np.isfinite(loo).all()  # totals, unclipped


def test_a_feature_s_steps_share_one_weight_a_ramp_in_its_order():
    """A numeric feature whose 0 lies inside its range gets steps ``x <= cut`` below the 0 and
    ``x >= cut`` above it; tied into its ramp (their signed sum over their number), the first
    stage weighs each step as the ramp's weight over nine, with the step's sign: a ridge fit of
    the ramp itself. A word's rule is its own ramp."""
    import mlr_core.rule_weights as rw

    r = np.random.default_rng(3)
    n = 200
    X = np.column_stack([r.random(n), r.random(n) < 0.3])
    pop, matched = rw.feature_rules(X, np.array([False, True]), np.array([True, False]),
                                    np.array([0.5, 0.0]), np.zeros(n, dtype=np.int64),
                                    np.array([[1, 0]], np.uint8), width=1, iteration=0)
    ramps = rw.feature_ramps(pop).toarray()
    falling = pop.center[:9, 0] + pop.spread[:9, 0] < 1.0  # x <= cut: below the feature's 0
    assert int(pop.size[0]) == 10 and 0 < falling.sum() < 9
    sign = np.where(falling, -1.0, 1.0)
    assert np.array_equal(ramps, np.column_stack([np.r_[sign / 9, 0], np.r_[np.zeros(9), 1]]))
    ramp = matched.toarray() @ ramps
    assert np.allclose(np.unique(ramp[:, 0]), (np.arange(10) - falling.sum()) / 9)  # a span of 1
    Y = np.column_stack([X[:, 0] + 0.3 * r.random(n) > 0.7, X[:, 1]]).astype(np.uint8)
    rows = np.arange(n)
    evolved = (r.random((n, 3)) < 0.5).astype(float)
    weights, _ = fit_in_two_stages(evolved, Y, matched, rows,
                                   additive_fit(matched, Y, sp.csr_matrix(ramps)))
    steps = weights.coef[3:]
    by_ramp, _ = fit_rule_weights(ramp, Y)
    assert np.allclose(steps, ramps @ by_ramp.coef)
    assert steps[8, 0] > 0 and np.allclose(steps[:9, 0], sign * steps[8, 0])
    untied, _ = fit_in_two_stages(evolved, Y, matched, rows, additive_fit(matched, Y))
    assert not np.allclose(np.abs(untied.coef[3:12]), np.abs(untied.coef[3:4]))  # free steps
    words_only, _ = rw.feature_rules(X[:, 1:], np.array([True]), np.array([False]),
                                     np.zeros(1), np.zeros(n, dtype=np.int64),
                                     np.array([[1, 0]], np.uint8), width=1, iteration=0)
    assert rw.feature_ramps(words_only) is None  # nothing to tie: the fit as before


def test_a_fitted_model_round_trips_with_its_one_condition_rules():
    """The rule set holds the evolved rules and then the one-condition rules; saved and loaded
    it predicts the same, and training can go on from it."""
    r = np.random.default_rng(6)
    words = (r.random((300, 40)) < 0.3).astype(float)
    X = np.column_stack([r.random((300, 2)), words])
    # each label a noisy count of its 20 words: a sum no rule of 3 conditions spells
    Y = (words.reshape(300, 2, 20).sum(axis=2) + r.normal(0, 1, (300, 2)) > 6).astype(int)
    model = MLRClassifier(n_rules=50, n_iter=1500, random_state=0).fit(X, Y)
    rules = model.rule_set_.rules
    evolved = int(model.run_.population.size[0])
    assert rules.size[0] > evolved and (rules.nspec[evolved:] == 1).all()
    assert len(model.rules_frame()) == len(model.rule_bounds()[0]) == rules.size[0]
    assert model.population_.size[0] == rules.size[0]
    loaded = MLRClassifier.from_json(model.to_json())
    assert np.array_equal(loaded.predict_proba(X), model.predict_proba(X))
    TrainingSession(loaded).start(X, Y, warm_start=True).learn(200)
    assert int(loaded.population_.micro[0]) <= 50
    TrainingSession(loaded).tune_bipartition()


def test_a_loaded_vote_model_refitted_with_weights_numbers_the_words_rules_after_its_own():
    """The dashboard's fitted copy of a model: loaded from JSON (its rules keep their ids),
    then tuned with fitted weights, which adds the words' rules; they get ids of their own
    (the explanation and the rules table failed: 90 rules, 50 ids)."""
    r = np.random.default_rng(6)
    words = (r.random((300, 40)) < 0.3).astype(float)
    X = np.column_stack([r.random((300, 2)), words])
    Y = (words.reshape(300, 2, 20).sum(axis=2) + r.normal(0, 1, (300, 2)) > 6).astype(int)
    vote = MLRClassifier(n_rules=50, n_iter=1500, random_state=0, weighting="vote").fit(X, Y)
    copy = MLRClassifier.from_json(vote.to_json())
    copy.set_params(weighting="fitted", max_specified=copy.max_specified_)
    TrainingSession(copy).start(X, Y, warm_start=True)
    rule_set = copy.rule_set_
    evolved = vote.rule_set_.rule_ids
    assert rule_set.rule_count > len(evolved)  # the words' rules were kept
    assert np.array_equal(rule_set.rule_ids[:len(evolved)], evolved)
    assert (np.diff(rule_set.rule_ids) > 0).all()
    assert len(copy.rules_frame()) == rule_set.rule_count
    assert np.allclose(copy.rule_set_.explain(X[0]).scores.to_numpy(), copy.predict_proba(X[:1])[0])
    assert np.array_equal(MLRClassifier.from_json(copy.to_json()).predict(X), copy.predict(X))


def test_the_linear_part_is_kept_when_it_lowers_the_leave_one_out_error():
    """Labels made of words: the words' rules win, alone where the evolved rules carry nothing
    more, first where the labels need a rule the words do not spell; labels the evolved rules
    already tell exactly: they answer alone."""
    import scipy.sparse as sp

    from mlr_core.rule_weights import fit_weights

    r = np.random.default_rng(8)
    n = 200
    words = (r.random((n, 40)) < 0.2).astype(float)
    rows = np.arange(n)
    by_words = (words[:, :3].sum(axis=1, keepdims=True) > 0).astype(np.uint8)
    vague = (r.random((n, 15)) < 0.5).astype(float)  # evolved rules unrelated to the label
    _, loo, used = fit_weights(vague, by_words, sp.csr_matrix(words), rows)
    alone, alone_loo = fit_rule_weights(vague, by_words)
    assert used and np.mean((loo - by_words) ** 2) < np.mean((alone_loo - by_words) ** 2)
    weights, _, _ = fit_weights(vague, by_words, sp.csr_matrix(words), rows)
    assert not weights.coef[:15].any()  # the vague rules add only noise: the words alone
    either = by_words[:, 0] | (vague[:, 0] == 1)  # a rule the words do not spell
    weights, _, used = fit_weights(vague, either[:, None], sp.csr_matrix(words), rows)
    assert used and weights.coef[0, 0] > 0.3  # the words, refined by the rules
    exact = np.column_stack([by_words[:, 0], 1 - by_words[:, 0]]).astype(float)
    weights, loo, used = fit_weights(exact, by_words, sp.csr_matrix(words), rows)
    assert not used and weights.coef.shape == (2, 1)
    assert fit_weights(exact, by_words, None, rows)[2] is False


def test_numeric_cuts_answer_where_labels_add_up_many_small_shifts(monkeypatch):
    """Labels that each shift many numeric features a little (the sparse-label stand-ins of
    ``benchmarks/field.py``): the leave-one-out error keeps the cuts ``x >= cut`` first, they
    rank the held-out labels better than the evolved rules alone, and the model keeps them
    through its file and its exports."""
    from test_export import assert_exports_predict

    from mlr_core import rule_weights as rw
    from mlr_core.data.synthetic import make_sparse_label_dataset
    from mlr_core.evaluation.measures import label_ranking_loss

    d = make_sparse_label_dataset(n_samples=900, n_features=200, n_labels=12, cardinality=1.5,
                                  random_state=0)
    train, test = slice(0, 600), slice(600, None)

    def fitted():
        return MLRClassifier(random_state=0).fit(d.X[train], d.Y[train])

    model = fitted()
    rules = model.rule_set_
    assert rules.n_feature_rules > 0
    assert rules.rules_frame().rule.iloc[-1].count(" >= ") == 1
    with monkeypatch.context() as patch:
        patch.setattr(rw, "CUT_QUANTILES", ())
        alone = fitted()
    with monkeypatch.context() as patch:  # each step its own weight
        patch.setattr("mlr_core.training_session.feature_ramps", lambda pop: None)
        untied = fitted()
    assert alone.rule_set_.n_feature_rules == 0
    loss = [label_ranking_loss(d.Y[test], m.predict_proba(d.X[test]))
            for m in (model, alone, untied)]
    assert loss[0] < loss[1] - 0.02 and loss[0] < loss[2] - 0.004
    text = model.to_json()
    loaded = MLRClassifier.from_json(text)
    assert loaded.to_json() == text
    assert np.array_equal(loaded.predict_proba(d.X[test]), model.predict_proba(d.X[test]))
    assert_exports_predict(rules, d.X[test][:60])


def test_a_rule_set_says_when_its_one_condition_rules_answer_alone():
    """Labels unrelated to the features: the leave-one-out error keeps the additive model
    alone, every evolved rule weighs 0, and the rule set says so; labels the evolved rules
    tell: they weigh in."""
    r = np.random.default_rng(0)
    X = r.random((150, 4))
    noise = MLRClassifier(n_rules=50, n_iter=2000, random_state=0).fit(
        X, (r.random((150, 3)) < 0.4).astype(int)).rule_set_
    assert noise.n_feature_rules > 0 and noise.n_evolved > 0
    assert noise.feature_rules_alone and not noise.scorer.coef[:noise.n_evolved].any()
    told = MLRClassifier(n_iter=2000, random_state=0).fit(X, (X[:, :3] > 0.5).astype(int))
    assert not told.rule_set_.feature_rules_alone
    assert not MLRClassifier(weighting="vote", n_iter=500, random_state=0).fit(
        X, (X[:, :3] > 0.5).astype(int)).rule_set_.feature_rules_alone


def test_one_blas_thread_holds_while_any_thread_is_inside(monkeypatch):
    """BLAS's thread count is the process's: a thread leaving `one_blas_thread` must not give
    back the cores while another is still inside (a dashboard fits, and compacts, in threads of
    their own); the first in limits it, the last out restores it."""
    import threading

    import mlr_core.rule_weights as rw

    calls = []

    class Limiter:
        def restore_original_limits(self):
            calls.append("restore")

    class Controller:
        def limit(self, limits, user_api):
            calls.append(("limit", limits, user_api))
            return Limiter()

    monkeypatch.setattr(rw, "_blas_controller", Controller)
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = []

    def first():
        with rw.one_blas_thread():
            first_in.set()
            assert second_in.wait(60)
        first_out.set()

    def second():
        assert first_in.wait(60)
        with rw.one_blas_thread():
            second_in.set()
            assert first_out.wait(60)
            seen.append(list(calls))  # the first has left: still limited
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [[("limit", 1, "blas")]]
    assert calls == [("limit", 1, "blas"), "restore"]
