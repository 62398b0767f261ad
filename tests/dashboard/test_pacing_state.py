"""Pacing, run history and time travel in the session: a target that stops training by itself,
earlier runs kept when the parameters change, and bounded snapshots spanning the run."""

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from dashboard import choices, curve_points, state
from dashboard.curves import RUN_HISTORY
from dashboard.data_split import DataSplit
from dashboard.pacing import DEFAULT_TICK_CAP, Pacing
from dashboard.snapshots import SnapshotStore
from mlr_core import make_hypercube_dataset


@pytest.fixture
def session():
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)
    return state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 200})


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
    session.points.snapshots = SnapshotStore(max_points=6)
    for _ in range(20):
        session.step(10)
    past = session.points.past_snapshots()
    iterations = [snap.iteration for snap in past]
    assert len(past) <= 7 and iterations == sorted(iterations)  # 6 kept, then the model now
    assert iterations[0] <= 30 and iterations[-1] == 200
    assert past[0].summary["iteration"] == iterations[0]
    assert len(past[0].rules) == past[0].bounds.n_rules  # each one as it was, not the current model
    assert past[-1] is session.snapshot()


def test_the_snapshots_kept_share_the_models_scaling(session):
    """Each curve point's refitted copy becomes the model: a copied scaling (the rank axis's
    knots, 8 MB on yeast) was kept with every snapshot, outside the snapshots' budget."""
    for _ in range(5):
        session.step(20)
    past = session.points.past_snapshots()
    assert len(past) >= 5
    assert all(snap.scaling is past[-1].scaling for snap in past)


def test_a_reset_keeps_the_earlier_runs_curves_a_new_dataset_drops_them(session):
    session.step(50)
    session.reset({**session.params, "fitness": "em"})
    session.step(30)
    session.reset()
    names = [run.name for run in session.runs]
    assert len(names) == 2 and names[0].startswith("run 1: fitted weights, HL")
    assert names[1].startswith("run 2: fitted weights, EM")
    assert session.runs[0].curves["iteration"].max() == 50
    assert session.runs[1].curves["iteration"].max() == 30
    for _ in range(RUN_HISTORY + 2):
        session.step(5)
        session.reset()
    assert len(session.runs) == RUN_HISTORY
    session.set_dataset(make_hypercube_dataset(n_samples=100, random_state=3))
    assert not session.runs


class CountingSession:
    """What ``Pacing.advance`` needs of a session, logging chunks and curve points in order;
    ``on_chunk`` runs inside a chunk (where a click's callback can land, on Streamlit's other
    thread)."""

    def __init__(self, on_chunk) -> None:
        self.iteration, self.events, self.on_chunk = 0, [], on_chunk
        self.points = SimpleNamespace(record=lambda **_: self.events.append("point"))

    def learn(self, n: int) -> None:
        self.events.append(n)
        self.iteration += n
        self.on_chunk(sum(1 for e in self.events if e != "point"))


def test_a_pause_during_a_tick_starts_no_further_chunk_and_scores_nothing():
    pace = Pacing(running=True, tick_cap=None, speed=1e6)  # chunks of about 60 ms each

    def click_pause_during_the_third(chunk: int) -> None:
        if chunk == 3:
            pace.running = False

    session = CountingSession(click_pause_during_the_third)
    done = pace.advance(session, 5.0, keep_going=lambda: pace.running)
    # the tick's curve point (a refit) comes first, while the page shows this very model; after
    # the click, the chunk under way ends and nothing else runs
    assert session.events[0] == "point" and len(session.events) == 4
    assert done == sum(session.events[1:]) == session.iteration


def test_a_race_paused_mid_tick_keeps_its_lanes_level(session):
    race = state.Race(session.split, dict(session.params), iterations_per_tick=1000)
    calls = []

    def keep_going() -> bool:
        calls.append(race.iteration)
        return len(calls) <= 3

    assert race.advance(keep_going=keep_going) == 3 * 1000 // state.RACE_CHUNKS
    assert race.lanes["em"].iteration == race.lanes["hl"].iteration == 300
    assert calls == [0, 100, 200, 300]  # asked before every chunk of both lanes
    assert not race.lanes["em"].points.curves.points  # stopped: no curve point


def test_the_curves_are_the_library_default_model_at_each_point(session):
    """Held-out curves of the model ``MLRClassifier()`` fits: fitted weights, 3-condition rules,
    refitted at the point's iteration (what ``tune_bipartition`` gives, bit for bit)."""
    from mlr_core import MLRClassifier, TrainingSession
    from mlr_core.evaluation.measures import hamming_loss

    assert session.params["weighting"] == "fitted"
    session.step(400)
    model = session._started().model
    assert model.weighting == "fitted" and model.max_specified == "auto"
    X, Y = session.split.training()
    library = MLRClassifier(**session.params)
    TrainingSession(library).start(X, Y).learn(400).tune_bipartition()
    data = session.split.dataset
    expected = hamming_loss(data.Y[session.split.test_idx],
                            library.predict(data.X[session.split.test_idx]))
    curves = session.snapshot().curves
    held_out = curves[curves["split"] == "held-out"]
    assert held_out["hamming_loss"].iloc[-1] == expected
    assert "fitted rule weights" in session.model_words()


def test_a_costly_refit_spaces_the_curve_points_out(session, monkeypatch):
    from mlr_core import TrainingSession

    session.step(50)
    tune = TrainingSession.tune_bipartition

    def slow_tune(self):
        threading.Event().wait(0.4)  # a refit as slow as yeast's on a busy machine, scaled
        return tune(self)

    monkeypatch.setattr(TrainingSession, "tune_bipartition", slow_tune)
    session.step(10)
    curves = session.points.curves
    assert curves.min_seconds >= 0.4 / curve_points.REFIT_SHARE
    assert not curves.due(session.iteration + 1000, curves.last_time + 1.0)


def _read_while_held(session, read, moved_on=lambda: None, patience: float = 10.0):
    """``read()`` in a thread while another thread holds the session's lock, having called
    ``moved_on()`` under it: whether the read ended within ``patience`` seconds while the lock
    was held, and what it read."""
    holding, release, got = threading.Event(), threading.Event(), []

    def hold():
        with session._lock:
            moved_on()
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(30)
    reader = threading.Thread(target=lambda: got.append(read()))
    reader.start()
    reader.join(patience)
    finished = not reader.is_alive()
    release.set()
    holder.join()
    reader.join()
    return finished, got[0]


def test_a_snapshot_is_read_while_a_refit_holds_the_lock(session):
    """A page redrawn after a click (Pause) reads the snapshot taken before a refit began."""
    session.step(20)
    taken = session.snapshot()
    finished, read = _read_while_held(session, session.snapshot)
    assert finished and read is taken


def test_a_click_draws_the_last_snapshot_while_a_tick_holds_the_model(session):
    """A click's live page draws first: while another thread holds the model (a tick training
    a chunk), ``snapshot(wait=False)`` gives at once the last snapshot taken; once the model is
    free, a snapshot of the model as it is. Never one of a model since replaced."""
    session.step(20)
    taken = session.snapshot()

    def at_hand():
        return session.snapshot(wait=False)

    def a_chunk():
        session.learn(10)  # the model moves on while a page opens

    finished, read = _read_while_held(session, at_hand, a_chunk)
    assert finished and read is taken
    now = at_hand()  # the model free: as it is
    assert now.iteration == 30 and now is session.snapshot()
    session.reset()
    finished, fresh = _read_while_held(session, at_hand, a_chunk, patience=0.2)
    assert not finished  # nothing taken of the new model yet: it waits for its first
    assert fresh.iteration == 10


def test_pages_read_a_model_ready_to_predict_after_training_went_on(session):
    """Live training refits the weights only for curve points; exports and explanations of the
    model in between get it refitted, never the engine's 'weights are stale' refusal."""
    session.step(50)
    session.learn(30)  # a live chunk: no curve point, weights now older than the rules
    snap = session.snapshot()
    assert session.read_model(snap, lambda model: model.to_json())
    assert session._started().model.rule_set_.iteration == 80  # refitted to the rules as they are
    explanation = session.model_cache().explain(0)  # the Explain page's lesson: the vote's
    assert not explanation.baseline.any() and explanation.scores.sum() > 0
    vote = session.model_cache().vote_model()
    assert vote.weighting == "vote" and vote is not session._started().model
    assert vote.max_specified_ == session._started().model.max_specified_


@pytest.fixture
def held_refit(monkeypatch):
    """Weight fits wait until ``release`` is set (``began`` is set when one starts); ``fits``
    counts them."""
    from mlr_core import TrainingSession

    tune = TrainingSession.tune_bipartition
    began, release, fits = threading.Event(), threading.Event(), []

    def held(self):
        if not self.answers_by_vote("agg"):
            fits.append(self)
            began.set()
            release.wait(30)
        return tune(self)

    monkeypatch.setattr(TrainingSession, "tune_bipartition", held)
    return began, release, fits


def _point_begun(session, began) -> threading.Thread:
    """A forced curve point recorded in a thread of its own, once its weight fit has begun."""
    point = threading.Thread(target=session.points.record, kwargs={"force": True})
    point.start()
    assert began.wait(30)
    return point


def test_a_curve_points_refit_leaves_the_model_to_the_pages(session, held_refit):
    """While a curve point refits the weights (on a copy, outside the lock), a page reads the
    model at once (the vote's copy, the match counts); the point then lands, with the model
    refitted at its iteration; a page that needs those weights waits for that refit rather
    than fit them again."""
    began, release, fits = held_refit
    session.learn(60)
    snap = session.snapshot()
    point = _point_begun(session, began)
    assert session.busy()
    assert len(session.match_counts(snap)) == len(snap.rules)
    assert session.model_cache().vote_model().weighting == "vote"
    ready = []
    reader = threading.Thread(target=lambda: ready.append(session.model_cache().ready()))
    reader.start()
    reader.join(0.3)
    assert reader.is_alive()  # waiting for the refit under way, not fitting its own
    release.set()
    point.join(30)
    reader.join(30)
    assert len(fits) == 1 and not session.busy()
    assert ready == [session._started().model] and ready[0].rule_set_.iteration == 60
    assert session.points.curves.points[-1]["iteration"] == 60


def test_training_during_a_refit_keeps_the_point_and_the_model_trained_on(session,
                                                                           held_refit):
    """A Step clicked while a live point refits: the point is still that of the iteration it
    was due at (scored on the copy), and the session keeps its model, trained on."""
    from mlr_core import MLRClassifier, TrainingSession
    from mlr_core.evaluation.measures import hamming_loss

    began, release, _ = held_refit
    session.learn(40)
    model = session._started().model
    point = _point_begun(session, began)
    session.learn(10)
    release.set()
    point.join(30)
    assert session._started().model is model and session.iteration == 50
    assert [p["iteration"] for p in session.points.curves.points] == [40]
    assert session.points.last_fitted().iteration == 40  # what Explain shows while training
    library = MLRClassifier(**session.params)
    TrainingSession(library).start(*session.split.training()).learn(40).tune_bipartition()
    data, test = session.split.dataset, session.split.test_idx
    assert session.points.curves.points[0]["held-out"]["hamming_loss"] == hamming_loss(
        data.Y[test], library.predict(data.X[test]))


def test_a_live_point_is_made_beside_the_tick(session, held_refit):
    """A live tick starts the point's refit and trains on without waiting for it (a click in
    the tab waits for the tick's script to end); the tab counts as busy until the point is
    made, then the point is the iteration it was due at."""
    began, release, _ = held_refit
    session.learn(30)
    done = session.pacing.advance(session, 0.05)
    assert began.is_set() and done > 0 and session.busy()
    release.set()
    assert session.points.settled(30) and not session.busy()
    assert [p["iteration"] for p in session.points.curves.points] == [30]


def test_after_a_pause_the_weights_are_refitted_behind_the_pages(session, held_refit):
    """Paused with weights older than the rules: they are refitted in a thread of their own,
    the model read meanwhile; a page that needs them waits for that refit, then finds the
    model refitted to the paused rules (as tune_bipartition gives them)."""
    from mlr_core import MLRClassifier, TrainingSession

    began, release, fits = held_refit
    release.set()
    session.step(40)
    session.learn(25)
    release.clear()
    session.points.refit_behind()
    assert began.wait(30) and session.busy()
    assert session.model_cache().vote_model().weighting == "vote"  # read meanwhile
    release.set()
    model = session.model_cache().ready()  # waits for that refit, does not fit again
    assert len(fits) == 2 and model.rule_set_.iteration == 65 and session.points.settled(30)
    session.points.refit_behind()  # current: nothing to do
    time.sleep(0.2)
    assert len(fits) == 2 and not session.busy()
    library = MLRClassifier(**session.params)
    TrainingSession(library).start(*session.split.training()).learn(40)
    TrainingSession(library).learn(25).tune_bipartition()
    X = session.split.dataset.X
    np.testing.assert_array_equal(model.predict_proba(X), library.predict_proba(X))


def test_a_pause_during_a_points_refit_refits_after_it(session, held_refit):
    """Pause while a live point refits a copy of an iteration the tick trained past: the
    weights are then refitted to the paused rules all the same."""
    began, release, fits = held_refit
    session.learn(30)
    session.pacing.advance(session, 0.05)  # the point of iteration 30, then training on
    assert began.wait(30)
    paused_at = session.iteration
    assert paused_at > 30
    session.points.refit_behind()
    release.set()
    assert session.points.settled(30)
    deadline = time.monotonic() + 30
    while len(fits) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.points.settled(30) and len(fits) == 2
    assert session._started().model.rule_set_.iteration == paused_at


def test_a_reset_during_a_points_refit_leaves_the_new_model_free(session, held_refit):
    """New parameters (a reset) while a live point refits: the new model is not busy, and the
    old model's point never lands in the new run's curves."""
    began, release, _ = held_refit
    session.learn(30)
    session.pacing.advance(session, 0.05)
    assert began.wait(30) and session.busy()
    session.reset()
    assert not session.busy() and session.points.settled(1)
    release.set()
    time.sleep(0.3)  # the old refit ends, its point is dropped
    assert session.iteration == 0 and not session.points.curves.points


def test_new_data_during_a_points_refit_is_not_scored_with_the_old_model(session,
                                                                         held_refit):
    """Other data loaded while a live point refits: the old model's point is scored on its
    own data (nothing goes wrong in its thread) and dropped; the new data's curves stay empty."""
    import logging

    began, release, _ = held_refit
    session.learn(30)
    session.pacing.advance(session, 0.05)
    assert began.wait(30)
    errors = []
    handler = logging.Handler()
    handler.emit = errors.append
    logging.getLogger("dashboard").addHandler(handler)
    try:
        session.set_dataset(make_hypercube_dataset(n_samples=120, n_relevant=3, n_labels=4,
                                                   n_irrelevant=2, random_state=2))
        release.set()
        time.sleep(0.5)
    finally:
        logging.getLogger("dashboard").removeHandler(handler)
    assert not errors and not session.points.curves.points and session.iteration == 0
