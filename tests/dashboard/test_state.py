"""The training session without Streamlit: budgets, bounded curves, failures that change nothing."""

import numpy as np
import pytest

from dashboard import state
from mlr_core.data.loaders import Dataset
from mlr_core.data.synthetic import make_hypercube_dataset
from mlr_core.errors import InputError, MLRError


@pytest.fixture(scope="module")
def data() -> Dataset:
    return make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)


@pytest.fixture
def session(data) -> state.Session:
    return state.Session(data, params={**state.DEFAULT_PARAMS, "n_rules": 200})


def test_split_is_disjoint_complete_and_sized(session, data):
    train, test = session.train_idx, session.test_idx
    assert len(test) == round(0.2 * len(data.X))
    assert sorted(np.concatenate([train, test])) == list(range(len(data.X)))


def test_advance_trains_within_budget_and_respects_the_cap(session):
    done = session.advance(0.05)
    assert done > 0 and session.model.summary()["iteration"] == done
    session.tick_cap = 7
    assert session.advance(1.0) == 7


def test_step_always_records_and_curves_stay_bounded(session):
    log = state.CurveLog(max_points=8, min_seconds=0.0)
    session.curves = log
    for _ in range(30):
        session.step(5)
    assert len(log.points) <= 8
    iterations = [p["iteration"] for p in log.points]
    assert iterations == sorted(iterations) and iterations[0] <= 20 and iterations[-1] > 100
    frame = log.frame()
    assert set(frame["split"]) == {"training", "held-out"}
    assert frame[["hamming_loss", "accuracy", "f1"]].stack().between(0, 1).all()


def test_live_ticks_record_at_most_every_min_seconds(session):
    session.curves = state.CurveLog(min_seconds=3600)
    session.advance(0.01)
    session.advance(0.01)
    assert len(session.curves.points) == 1


def test_reset_with_bad_parameters_keeps_the_old_model(session):
    session.step(50)
    model, params = session.model, session.params
    with pytest.raises(ValueError):
        session.reset({**params, "n_rules": 0})
    assert session.model is model and session.params is params


def test_switching_to_data_the_engine_refuses_keeps_everything(session, data, monkeypatch):
    session.step(50)
    model, labelsets = session.model, session.labelsets
    other = make_hypercube_dataset(n_samples=50, n_relevant=3, n_labels=2, random_state=1)

    def refuse(self, *args, **kwargs):
        raise InputError("refused")

    monkeypatch.setattr(state.MLRClassifier, "start", refuse)
    with pytest.raises(MLRError, match="refused"):
        session.set_dataset(other)
    assert session.dataset is data and session.model is model
    assert session.labelsets is labelsets


def test_load_model_continues_training_the_loaded_rules(session):
    session.step(300)
    text = session.model.to_json()
    session.reset()
    session.load_model(text)
    assert len(session.model.rules_frame()) > 0
    before = session.model.summary()["iteration"]
    session.step(10)
    assert session.model.summary()["iteration"] == before + 10
