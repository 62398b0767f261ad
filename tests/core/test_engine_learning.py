"""The engine learns: a rectangle-separable problem, EM vs HL fitness, the prediction modes."""

import numpy as np
import pytest

from mlr_core import MLRClassifier, TrainingSession
from mlr_core._engine.covering import cover
from mlr_core._engine.matching import match_set
from mlr_core._engine.population import new_population
from mlr_core._engine.rng import new_state
from mlr_core._engine.update import label_scores, labelset_score, update_sets
from mlr_core.params import engine_config

# labelset by region of the unit square: three labelsets, each a union of rectangles
LABELSETS = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]])


def rectangles(n, seed):
    X = np.random.default_rng(seed).random((n, 2))
    region = np.where(X[:, 0] < 0.4, 0, np.where(X[:, 1] < 0.5, 1, 2))
    return X, LABELSETS[region]


def test_learns_a_rectangle_separable_problem():
    X, Y = rectangles(600, 0)
    X_test, Y_test = rectangles(400, 1)
    model = MLRClassifier(n_rules=400, n_iter=30_000, random_state=0).fit(X, Y)
    for prediction in ("agg", "max"):
        exact = (model.predict(X_test, prediction=prediction) == Y_test).all(axis=1).mean()
        assert exact >= 0.95, (prediction, exact)
    assert model.score(X_test, Y_test) >= 0.95
    assert model.coverage(X_test) >= 0.98


def test_hl_fitness_is_at_least_em_fitness_for_the_same_history():
    """Per match, 1 - Hamming loss >= exact match, so after the same matches F_hl >= F_em."""
    r = np.random.default_rng(2)
    X = r.random((40, 3))
    labelsets = np.array([[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
    y_ids = r.integers(0, 4, 40).astype(np.int32)
    pops = {mode: new_population(103, 3) for mode in ("em", "hl")}
    cfg = engine_config(MLRClassifier(p_hash=0.5, r0=0.9).get_params(), 3, 1000, 3)
    for mode, pop in pops.items():
        scores = label_scores(labelsets, mode)
        state = new_state(0)
        for i in range(10):  # the same rules in both populations
            cover(pop, X[i], y_ids[i], cfg, state, 0)
        mset = np.empty(103, dtype=np.int64)
        for x, y_id in zip(X, y_ids, strict=True):
            n = match_set(pop, x, mset)
            update_sets(pop, mset, n, mset[:0], 0, y_id, scores, cfg)
    em, hl = pops["em"], pops["hl"]
    size = em.size[0]
    assert np.array_equal(em.exp[:size], hl.exp[:size]) and em.exp[:size].sum() > 0
    assert (hl.fit[:size] >= em.fit[:size]).all()
    assert (hl.fit[:size] > em.fit[:size]).any()


def test_em_rewards_only_exact_labelsets():
    sets = np.array([[1, 0, 0], [1, 1, 0]], dtype=np.uint8)
    em, hl = label_scores(sets, "em"), label_scores(sets, "hl")
    assert [[labelset_score(em, a, b) for b in (0, 1)] for a in (0, 1)] == [[1, 0], [0, 1]]
    assert [[labelset_score(hl, a, b) for b in (0, 1)] for a in (0, 1)] == [
        [1.0, 1 - 1 / 3], [1 - 1 / 3, 1.0]]


def test_hamming_score_counts_labels_across_64_bit_words():
    """Labels beyond the first word of the packed labelsets count too, each exactly once, and
    the score is exactly 1 - (Hamming loss) as numpy computes it."""
    r = np.random.default_rng(9)
    sets = (r.random((6, 150)) < 0.5).astype(np.uint8)
    scores = label_scores(sets, "hl")
    for a in range(6):
        for b in range(6):
            assert labelset_score(scores, a, b) == 1.0 - (sets[a] != sets[b]).mean()


@pytest.mark.parametrize("fitness", ["em", "hl"])
@pytest.mark.parametrize("bipartition", ["threshold", "rcut", "auto"])
def test_prediction_modes_give_valid_labels(fitness, bipartition):
    X, Y = rectangles(200, 3)
    model = MLRClassifier(n_rules=200, n_iter=5000, fitness=fitness, bipartition=bipartition,
                          random_state=0).fit(X, Y)
    scores = model.predict_proba(X)
    assert scores.shape == Y.shape and ((scores >= 0) & (scores <= 1 + 1e-12)).all()
    method, value = model.bipartition_
    assert method == bipartition or bipartition == "auto"
    if method == "rcut":
        assert value == round(Y.sum(axis=1).mean())
    labels = model.predict(X)
    assert set(np.unique(labels)) <= {0, 1}
    assert (model.predict(X, prediction="max") == model.labelsets_[:, None, :]).all(-1).any(0).all()


def test_fixed_threshold_is_used_as_given():
    X, Y = rectangles(200, 4)
    model = MLRClassifier(n_rules=100, n_iter=2000, bipartition="threshold", threshold=0.7,
                          random_state=0).fit(X, Y)
    assert model.bipartition_ == ("threshold", 0.7)
    assert np.array_equal(model.predict(X), (model.predict_proba(X) >= 0.7).astype(int))


@pytest.mark.parametrize("weighting", ["fitted", "vote"])
def test_explain_agrees_with_predict(weighting):
    X, Y = rectangles(300, 6)
    model = MLRClassifier(n_rules=200, n_iter=8000, random_state=0, weighting=weighting)
    model.fit(X, Y)
    names = np.array(model.label_names_)
    for x in X[:10]:
        e = model.rule_set_.explain(x)
        assert np.allclose(e.scores.values, model.predict_proba(x[None])[0])
        assert e.agg_labels == list(names[model.predict(x[None])[0].astype(bool)])
        assert e.max_labels == list(names[model.predict(x[None], prediction="max")[0] == 1])
        share = e.match_set.filter(like="contribution: ").sum().to_numpy()
        assert np.allclose(np.clip(e.baseline.values + share, 0, 1), e.scores.values)
        assert set(e.union) == set(names[model.labelsets_[
            model.population_.ls[e.rule_ids]].any(axis=0)])
        assert not e.fallback


def test_an_untrained_model_answers_with_the_empty_labelset():
    X, Y = rectangles(50, 7)
    model = MLRClassifier(n_rules=50, random_state=0, weighting="vote")
    TrainingSession(model).start(X, Y)  # no rule
    for mode in ("agg", "max"):
        assert not model.predict(X[:5], prediction=mode).any()
    e = model.rule_set_.explain(X[0])
    assert e.fallback and e.max_labels == [] and e.agg_labels == [] and len(e.rule_ids) == 0
