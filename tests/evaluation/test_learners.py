"""The field's learners: each one's contract, and agreement with ``../shared/field/peers.csv`` on
the shared folds (exact for the deterministic ones, close for the randomised ones)."""

import math
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from mlr_core import make_hypercube_dataset
from mlr_core.errors import InputError
from mlr_core.evaluation import learners
from mlr_core.evaluation.experiments import run_experiment
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.evaluation.learners import (
    EnsembleOfClassifierChains,
    LabelPowerset,
    MLkNN,
    RAkEL,
    SafeBinary,
    label_scores,
    make_learner,
)
from mlr_core.evaluation.tables import REPORTED


@pytest.fixture(scope="module")
def cube():
    data = make_hypercube_dataset(n_samples=200, n_labels=5, random_state=3)
    return data.X, data.Y


def test_safe_binary_fits_a_label_with_one_value():
    X = np.arange(10.0)[:, None]
    model = SafeBinary(DecisionTreeClassifier()).fit(X, np.ones(10))
    assert model.predict(X).tolist() == [1] * 10
    assert model.predict_proba(X).tolist() == [[0.0, 1.0]] * 10
    assert model.classes_.tolist() == [0, 1]
    two = SafeBinary(DecisionTreeClassifier()).fit(X, X.ravel() > 4)
    assert two.predict(X).tolist() == [0] * 5 + [1] * 5


def test_label_powerset_predicts_training_labelsets_and_marginals(cube):
    X, Y = cube
    model = LabelPowerset(DecisionTreeClassifier(max_depth=3, random_state=0)).fit(X, Y)
    predicted = model.predict(X)
    seen = {tuple(row) for row in Y}
    assert {tuple(row) for row in predicted} <= seen
    scores = model.predict_proba(X)
    assert scores.shape == Y.shape and scores.min() >= 0 and scores.max() <= 1 + 1e-12
    # a labelset predicted with probability p gives its labels scores of at least p
    proba = np.repeat(model.estimator_.predict_proba(X).max(axis=1),
                      predicted.sum(axis=1).astype(int))
    assert (scores[predicted == 1] >= proba - 1e-12).all()


@pytest.mark.parametrize(("m", "expected"), [(5, 10), (4, 4), (60, 100)])
def test_rakel_overlapping_draws_distinct_labelsets_as_mulan(m, expected):
    model = RAkEL(random_state=0)
    subsets = model._draw_subsets(m, np.random.RandomState(0))
    assert len(subsets) == min(expected, math.comb(m, 3))  # min(2m, 100), at most C(m, 3)
    assert len({tuple(s) for s in subsets}) == len(subsets)
    assert all(len(s) == 3 and len(set(s)) == 3 for s in subsets)


def test_rakel_disjoint_partitions_the_labels(cube):
    X, Y = cube
    model = RAkEL(disjoint=True, random_state=1).fit(X, Y)
    flat = np.concatenate(model.subsets_)
    assert sorted(flat) == list(range(Y.shape[1]))
    assert [len(s) for s in model.subsets_] == [3, 2]


def test_rakel_predicts_where_the_vote_share_reaches_the_threshold(cube):
    X, Y = cube
    model = RAkEL(random_state=2).fit(X, Y)
    votes = np.zeros(Y.shape)
    for subset, lp in zip(model.subsets_, model.models_, strict=True):
        votes[:, subset] += lp.predict(X)
    share = votes / model.counts_
    assert (model.predict(X) == (share >= 0.5)).all()
    again = RAkEL(random_state=2).fit(X, Y)
    assert [s.tolist() for s in again.subsets_] == [s.tolist() for s in model.subsets_]
    assert (again.predict_proba(X) == model.predict_proba(X)).all()


def test_ecc_averages_its_chains_and_is_reproducible(cube):
    X, Y = cube
    model = EnsembleOfClassifierChains(n_chains=4, random_state=5).fit(X, Y)
    assert len(model.chains_) == 4
    orders = {tuple(chain.order_) for chain in model.chains_}
    assert len(orders) > 1  # random label orders
    proba = model.predict_proba(X)
    expected = np.mean([c.predict_proba(X) for c in model.chains_], axis=0)
    assert np.allclose(proba, expected)
    assert (model.predict(X) == (proba >= 0.5)).all()
    again = EnsembleOfClassifierChains(n_chains=4, random_state=5).fit(X, Y)
    assert np.array_equal(again.predict_proba(X), proba)


def test_mlknn_answers_dense(cube):
    X, Y = cube
    model = MLkNN(k=5).fit(X, Y)
    assert isinstance(model.predict(X), np.ndarray) and model.predict(X).shape == Y.shape
    assert label_scores(model, X).shape == Y.shape


def test_every_learner_fits_and_scores(cube):
    X, Y = cube
    for name in learners.available_learners():
        if name.startswith("MLR"):
            continue  # the engine has its own tests; the runner's tests run it too
        model = make_learner(name, random_state=0).fit(X, Y)
        assert np.asarray(model.predict(X)).shape == Y.shape, name
        assert label_scores(model, X).shape == Y.shape, name


def test_unknown_learner_and_missing_boomer_are_explained(monkeypatch):
    with pytest.raises(InputError, match="unknown learner 'J48'"):
        make_learner("J48")
    for module in learners.BOOMER_MODULES:  # as if mlrl-boomer were missing
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ImportError, match="pip install mlrl-boomer"):
        make_learner("BOOMER")
    monkeypatch.setattr(learners, "_importable", lambda module: False)
    assert "BOOMER" not in learners.available_learners()
    assert "MLR_agg" in learners.available_learners()


DETERMINISTIC = ["BR-LR", "LP-DT", "MLkNN"]
RANDOMISED = ["RAkELo-DT", "RAkELd-DT", "ECC-LR", "ECC-DT"]


@pytest.fixture(scope="module")
def flags_run(real_datasets, shared_datasets_dir):
    data = real_datasets["flags"]
    folds = read_fold_file(shared_datasets_dir.parent / "field" / "folds" / "flags.json", data.Y)
    results = run_experiment(DETERMINISTIC + RANDOMISED, {"flags": data}, {"flags": folds})
    peers = pd.read_csv(shared_datasets_dir.parent / "field" / "peers.csv")
    peers = peers.rename(columns={"algorithm": "learner", "rank_loss": "ranking_loss"})
    ours = results.groupby("learner")[list(REPORTED)].mean()
    theirs = peers[peers.dataset == "flags"].set_index("learner")[list(REPORTED)]
    return ours - theirs.loc[ours.index]


def test_deterministic_learners_reproduce_peers_exactly(flags_run):
    assert flags_run.loc[DETERMINISTIC].abs().to_numpy().max() < 1e-5


def test_randomised_learners_land_near_peers(flags_run):
    # other random labelsets, orders and bags than the peers' run: close, not equal
    assert flags_run.loc[RANDOMISED].abs().to_numpy().max() < 0.06
    assert flags_run.loc[RANDOMISED, "hamming_loss"].abs().max() < 0.015
