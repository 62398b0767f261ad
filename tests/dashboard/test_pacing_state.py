"""Pacing, run history and time travel in the session: a target that stops training by itself,
earlier runs kept when the parameters change, and bounded snapshots spanning the run."""

import pytest

from dashboard import state
from dashboard.curves import RUN_HISTORY
from dashboard.data_split import DataSplit
from dashboard.pacing import DEFAULT_TICK_CAP
from dashboard.snapshots import SnapshotStore
from mlr_core import make_hypercube_dataset


@pytest.fixture
def session():
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)
    return state.Session(DataSplit.of(data), params={**state.DEFAULT_PARAMS, "n_rules": 200})


def test_the_default_speed_is_slow_enough_to_watch(session):
    assert session.pacing.tick_cap == DEFAULT_TICK_CAP
    assert session.pacing.advance(session, 5.0) == DEFAULT_TICK_CAP


def test_training_pauses_by_itself_at_the_target(session):
    pace = session.pacing
    pace.stop_at, pace.tick_cap, pace.running = 250, 100, True
    done = [pace.advance(session, 5.0) for _ in range(4)]
    assert done == [100, 100, 50, 0]
    assert session.iteration == 250 and not pace.running
    assert session.snapshot().curves["iteration"].max() == 250  # the last point is the target


def test_snapshots_are_bounded_thinned_and_frozen(session):
    session.snapshots = SnapshotStore(max_points=6)
    for _ in range(20):
        session.step(10)
    past = session.past_snapshots()
    iterations = [snap.iteration for snap in past]
    assert len(past) <= 7 and iterations == sorted(iterations)  # 6 kept, then the model now
    assert iterations[0] <= 30 and iterations[-1] == 200
    assert past[0].summary["iteration"] == iterations[0]
    assert len(past[0].rules) == past[0].bounds.n_rules  # each one as it was, not the current model
    assert past[-1] is session.snapshot()


def test_a_reset_keeps_the_earlier_runs_curves_a_new_dataset_drops_them(session):
    session.step(50)
    session.reset({**session.params, "fitness": "em"})
    session.step(30)
    session.reset()
    names = [run.name for run in session.runs]
    assert len(names) == 2 and names[0].startswith("run 1: HL") and names[1].startswith("run 2: EM")
    assert session.runs[0].curves["iteration"].max() == 50
    assert session.runs[1].curves["iteration"].max() == 30
    for _ in range(RUN_HISTORY + 2):
        session.step(5)
        session.reset()
    assert len(session.runs) == RUN_HISTORY
    session.set_dataset(make_hypercube_dataset(n_samples=100, random_state=3))
    assert not session.runs
