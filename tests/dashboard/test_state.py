"""The training session without Streamlit: budgets, bounded curves, failures that change nothing,
and one model read and trained from two threads at once."""

import functools
import json
import math
import threading
import time

import numpy as np
import pytest

from dashboard import choices, figures, pages, state
from dashboard.curves import MEASURES, CurveLog
from dashboard.data_split import DEFAULT_HOLDOUT, DataSplit
from mlr_core import Dataset, MLRClassifier, TrainingSession, make_hypercube_dataset
from mlr_core.errors import DatasetError, InputError, MLRError


@pytest.fixture(scope="module")
def data() -> Dataset:
    return make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)


@pytest.fixture
def session(data) -> state.Session:
    return state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 200})


def _saved(session: state.Session) -> str:
    """The model as the Rules page saves it (weights refitted to the rules first)."""
    return session.read_model(session.snapshot(), lambda model: model.to_json())


def test_split_is_disjoint_complete_and_sized(session, data):
    train, test = session.split.train_idx, session.split.test_idx
    assert len(test) == round(0.2 * len(data.X))
    assert sorted(np.concatenate([train, test])) == list(range(len(data.X)))


def test_advance_trains_within_budget_and_respects_the_cap(session):
    done = session.pacing.advance(session, 0.05)
    assert done > 0 and session.snapshot().iteration == done
    session.pacing.tick_cap = 7
    assert session.pacing.advance(session, 1.0) == 7


def test_step_always_records_and_curves_stay_bounded(session):
    log = CurveLog(max_points=8, min_seconds=0.0)
    session.points.curves = log
    for _ in range(30):
        session.step(5)
    assert len(log.points) <= 8
    iterations = [p["iteration"] for p in log.points]
    assert iterations == sorted(iterations) and iterations[0] <= 20 and iterations[-1] > 100
    frame = session.snapshot().curves
    assert set(frame["split"]) == {"training", "held-out"}
    assert list(frame.columns[2:]) == list(MEASURES)
    assert frame[list(MEASURES)].stack().between(0, 1).all()


def test_live_ticks_record_at_most_every_min_seconds(session):
    session.points.curves = CurveLog(min_seconds=3600)
    session.pacing.advance(session, 0.01)
    session.pacing.advance(session, 0.01)
    assert session.points.settled(30)  # a live point is made beside the tick
    assert len(session.points.curves.points) == 1


def _is_nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)


def test_a_new_session_shows_what_the_engine_would_without_starting_it(data):
    """A tab's first page is drawn before the engine is imported: it must show the same."""
    fresh = state.Session(DataSplit.of(data))
    assert fresh._training is None
    before = fresh.snapshot()
    fresh._started()  # what Start, Step or any engine read would do
    fresh._changed()
    after = fresh.snapshot()
    assert before.summary.keys() == after.summary.keys()
    for key, value in after.summary.items():  # NaN (no rule yet) must stay NaN
        assert value == before.summary[key] or (_is_nan(value) and _is_nan(before.summary[key]))
    assert list(before.rules.columns) == list(after.rules.columns)
    numbers = after.rules.columns.drop(["rule", "labelset", "conditions"])  # float64 when empty
    assert before.rules[numbers].dtypes.to_dict() == after.rules[numbers].dtypes.to_dict()
    assert before.rules.index.name == after.rules.index.name
    assert before.bounds.n_features == after.bounds.n_features
    assert before.history.empty == after.history.empty


def test_one_snapshot_per_iteration_shared_by_every_read(session):
    session.step(100)
    first = session.snapshot()
    assert session.snapshot() is first  # no training in between: the same object
    rules = first.rules
    assert len(rules) == first.bounds.n_rules >= first.summary["macro_size"]
    # beyond the evolved rules, the weights' one-condition rules, where the fit kept them
    assert (rules["n_specified"].iloc[first.summary["macro_size"]:] == 1).all()
    named = [session.split.labelsets.name(i) for i in rules["labelset_id"]]
    assert named == rules["labelset"].tolist()  # ids join the rules to the data's labelsets
    session.step(1)
    assert session.snapshot() is not first and session.snapshot().iteration == 101


def test_reads_while_another_thread_trains_are_always_consistent(data):
    """Streamlit reruns read while a live tick trains: every read must see one iteration."""
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 150})
    stop, errors = threading.Event(), []

    def train():
        try:
            while not stop.is_set():
                session.pacing.advance(session, 0.02)
                time.sleep(0.001)  # live ticks are spaced out too; lets the reader in
        except Exception as err:  # reported below, not lost in the thread
            errors.append(err)

    trainer = threading.Thread(target=train)
    trainer.start()
    seen = set()
    try:
        while len(seen) < 50 and trainer.is_alive():
            snap = session.snapshot()
            rules = snap.rules
            assert len(rules) == snap.bounds.n_rules == snap.summary["macro_size"]
            assert rules["numerosity"].sum() == snap.summary["micro_size"]
            assert (rules["labelset_id"] >= 0).all()
            session.model_cache().explain(len(seen) % len(data.X))
            seen.add(snap.iteration)
    finally:
        stop.set()
        trainer.join()
    assert not errors, errors
    assert len(seen) == 50  # fifty reads, each at a different iteration, while training ran


def test_what_is_computed_from_the_model_is_kept_until_it_changes(session):
    session.step(50)
    cache = session.model_cache()
    assert session.model_cache() is cache and cache.explain(3) is cache.explain(3)
    session.step(1)
    assert session.model_cache() is not cache
    assert session.model_cache().explain(3) is not cache.explain(3)


def test_reset_with_bad_parameters_keeps_the_old_model(session):
    session.step(50)
    before, params, split = session.snapshot(), session.params, session.split
    with pytest.raises(ValueError):
        session.reset({**params, "n_rules": 0}, holdout=0.5)
    assert session.snapshot() is before and session.params is params and session.split is split


def test_a_new_split_of_the_same_data_keeps_its_labelsets_and_the_selection(session, data):
    before = session.split
    session.selection.select(7)
    session.reset(holdout=0.5)
    after = session.split
    assert after is not before and after.dataset is data and after.holdout == 0.5
    assert len(after.test_idx) == len(data.X) // 2
    assert after.labelsets is before.labelsets and after.palette_ids == before.palette_ids
    assert session.selection.index == 7  # the same data: the selected instance stays
    with pytest.raises(ValueError, match="read-only"):
        after.train_idx[0] = 0  # pages share the split: nobody may reorder its rows


def test_switching_to_data_the_engine_refuses_keeps_everything(session, data, monkeypatch):
    session.step(50)
    before, split = session.snapshot(), session.split
    other = make_hypercube_dataset(n_samples=50, n_relevant=3, n_labels=2, random_state=1)

    def refuse(self, *args, **kwargs):
        raise InputError("refused")

    # the engine's checks: see _start_model
    monkeypatch.setattr(TrainingSession, "start_untuned", refuse)
    with pytest.raises(MLRError, match="refused"):
        session.set_dataset(other)
    assert session.split is split and session.snapshot() is before


def test_new_data_brings_its_own_split_labelsets_and_selection(session):
    session.selection.select(7)
    other = make_hypercube_dataset(n_samples=50, n_relevant=3, n_labels=2, random_state=1)
    session.set_dataset(other)
    assert session.split.dataset is other and session.split.holdout == DEFAULT_HOLDOUT
    assert len(session.split.train_idx) + len(session.split.test_idx) == 50
    assert session.split.labelsets.of_instance.shape == (50,)
    assert session.selection.index == 0 and session.selection.n_rows == 50


def test_one_label_data_is_refused_with_what_to_do(session, data):
    one = Dataset(data.X, data.Y[:, :1], data.feature_names, data.label_names[:1], name="one")
    with pytest.raises(DatasetError, match="at least two labels"):
        session.set_dataset(one)
    assert session.split.dataset is data


def test_select_owns_the_instance_and_refuses_out_of_range(session, data):
    session.selection.select(7)
    assert session.selection.index == 7
    with pytest.raises(IndexError):
        session.selection.select(len(data.X))
    assert session.selection.index == 7


def test_load_model_continues_training_the_loaded_rules(session):
    session.step(300)
    text = _saved(session)
    session.reset()
    session.read_model_file(text)()
    assert len(session.snapshot().rules) > 0
    before = session.snapshot().iteration
    session.step(10)
    assert session.snapshot().iteration == before + 10


def test_reading_a_model_file_changes_nothing_until_the_switch(session):
    """The Rules page asks before a loaded rule set replaces a model that has trained: reading
    the file changes nothing, and a switch made after the data changed is refused."""
    session.step(100)
    text = _saved(session)
    session.step(50)
    before = session.snapshot()
    switch = session.read_model_file(text)
    assert session.snapshot() is before
    session.reset(holdout=0.3)
    with pytest.raises(InputError, match="data changed since the rule set was read"):
        switch()
    assert session.iteration == 0
    session.read_model_file(text)()
    assert session.iteration == 100


@pytest.mark.parametrize(("key", "value"), [("n_rules", 1_000_000), ("nu", 0.1), ("r0", 3.0)])
def test_load_model_refuses_parameters_the_train_page_cannot_show(session, key, value):
    """A file whose n_rules is within the library's memory budget but beyond the Train form's
    range loaded, then broke every run of the Train page: refused, the session kept."""
    session.step(50)
    saved = json.loads(_saved(session))
    saved["params"][key] = value
    before = session.snapshot()
    with pytest.raises(InputError, match=f"model's {key} = .* is outside what this dashboard "
                                         "offers"):
        session.read_model_file(json.dumps(saved))
    assert session.snapshot() is before


def test_a_model_saved_with_the_library_defaults_loads(session):
    """n_rules="auto", random_state=None and fitted weights (max_specified 3, where the vote's
    "auto" would resolve to more): the session adopts what the file holds."""
    model = MLRClassifier(n_iter=300).fit(*session.split.training())
    session.read_model_file(model.to_json())()
    params = session.params
    assert params["n_rules"] == model.n_rules_ and params["random_state"] == 0
    assert all(low <= params[key] <= high for key, (low, high) in choices.PARAM_RANGES.items())
    session.step(10)
    assert session.snapshot().iteration == model.n_iter_ + 10


def test_the_rules_shown_follow_a_refit_that_adds_the_words_rules():
    """On 0/1 data a refit may add the fit's one-condition rules to the rules the model shows:
    a page reading the model after that (the Theory page's match counts) must get a snapshot of
    the same rules (it got 976 rules against 1,972 counts on a word-bag dataset)."""
    r = np.random.default_rng(6)
    words = (r.random((300, 40)) < 0.3).astype(float)
    Y = (words.reshape(300, 2, 20).sum(axis=2) + r.normal(0, 1, (300, 2)) > 6).astype(np.uint8)
    names = [f"w{j}" for j in range(40)]
    bag = Dataset(X=words, Y=Y, feature_names=names, label_names=["a", "b"], name="bag")
    session = state.Session(DataSplit.of(bag), params={**choices.DEFAULT_PARAMS, "n_rules": 50})
    session.step(1500)
    session.learn(30)  # weights older than the rules: the model shows its population alone
    before = session.snapshot()
    session.read_model(before, lambda model: model.to_json())  # a download: weights refitted
    snap = session.snapshot()
    shown = int(session._started().model.population_.size[0])
    assert shown > len(before.rules)  # the words' rules joined
    assert len(snap.rules) == shown == len(session.match_counts(snap))


def _word_bag(n_rows: int = 300) -> Dataset:
    r = np.random.default_rng(6)
    words = (r.random((n_rows, 40)) < 0.3).astype(float)
    Y = (words.reshape(n_rows, 2, 20).sum(axis=2) + r.normal(0, 1, (n_rows, 2)) > 6)
    return Dataset(X=words, Y=Y.astype(np.uint8), feature_names=[f"w{j}" for j in range(40)],
                   label_names=["a", "b"], name="bag")


def test_new_data_is_checked_at_once_and_weighted_when_first_needed(monkeypatch):
    """Loading binds the data (the engine's checks) but fits no weights (a weight fit at
    iteration 0 took 3-4 s of ohsumed's load); the first page that needs scores fits them,
    and the scores are those of a model started the library's way."""
    fits = []
    tune = TrainingSession.tune_bipartition
    monkeypatch.setattr(TrainingSession, "tune_bipartition",
                        lambda self: fits.append(self) or tune(self))
    session = state.Session(DataSplit.of(_word_bag()), params={**choices.DEFAULT_PARAMS,
                                                                 "n_rules": 50})
    session.set_dataset(_word_bag(200))
    assert session.iteration == 0 and session.snapshot().rules.empty and not fits
    assert "at most 3 conditions" in session.model_words()  # bound: the limit is known
    X = session.split.dataset.X
    scores = session.model_cache().fitted_model().predict_proba(X)
    assert len(fits) == 1
    library = MLRClassifier(**{**choices.DEFAULT_PARAMS, "n_rules": 50})
    TrainingSession(library).start(*session.split.training())
    np.testing.assert_array_equal(scores, library.predict_proba(X))


def test_match_counts_before_any_refit_and_on_the_bound_rows():
    """The Theory page's counts need no weights but a model tuned once; they are counted on the
    rows the model has bound, as the engine's row-by-row matching counts them."""
    from mlr_core.audit import row_rules

    session = state.Session(DataSplit.of(_word_bag()), params={**choices.DEFAULT_PARAMS,
                                                                 "n_rules": 50})
    session.learn(400)  # never tuned
    snap = session.snapshot()
    counts = session.match_counts(snap)
    assert session.snapshot() is snap  # no refit brought the words' rules in
    vote = session.model_cache().vote_model()  # the same rules, tuned (by the vote)
    rows = row_rules(vote, session.split.training()[0], prediction="max")
    np.testing.assert_array_equal(counts, rows.counts(rows.match_ids))
    assert len(counts) == len(snap.rules) and counts.sum() > 0


def test_the_other_scoring_shares_the_models_training_rows(session):
    """The vote's copy (Explain) reads the model's bound rows where they are (a second copy
    was 89 MB on ohsumed) and predicts as a copy bound to the split's rows anew."""
    session.step(300)
    cache = session.model_cache()
    vote, model = cache.vote_model(), session._started().model
    assert vote.run_.X is model.run_.X and vote is not model
    again = MLRClassifier.from_json(_saved(session))
    again.set_params(weighting="vote", max_specified=model.max_specified_)
    TrainingSession(again).start(*session.split.training(), warm_start=True)
    X = session.split.dataset.X
    np.testing.assert_array_equal(vote.predict(X), again.predict(X))


def test_last_fitted_weights_are_those_of_the_last_refit_and_none_for_the_vote(data):
    fitted = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 100})
    assert fitted.points.last_fitted() is None  # none tuned yet
    fitted.step(100)
    fitted.learn(20)
    assert fitted.points.last_fitted().iteration == 100
    vote = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 100,
                                                     "weighting": "vote"})
    vote.step(100)
    assert vote.points.last_fitted() is None


def test_a_step_shows_its_iteration_at_once_and_its_point_when_made(session, monkeypatch):
    """The Step button's curve point is made in a thread of its own (its refit took 1.8 s of a
    2.3 s Step on ohsumed): the step's iteration can be read at once, the point comes when the
    refit ends, and a Step taken meanwhile ends on a point of its own iteration."""
    release = threading.Event()
    tune = TrainingSession.tune_bipartition

    def held(self):
        assert release.wait(30)
        return tune(self)

    monkeypatch.setattr(TrainingSession, "tune_bipartition", held)
    session.step(50, wait=False)
    assert session.points.point_owed()
    assert session.snapshot().iteration == 50 and not session.points.curves.points
    curves, _ = pages.train_charts(session.snapshot(), session.points.point_owed())
    assert curves.layout.annotations[-1].text.startswith("Fitting the rule weights")
    session.step(50, wait=False)  # while the first point is still owed
    assert session.iteration == 100 and session.points.point_owed()
    release.set()
    assert session.points.settled(60) and not session.points.point_owed()
    assert session.points.curves.points[-1]["iteration"] == 100
    assert session.points.last_fitted().iteration == 100


@pytest.mark.parametrize("weighting", ["fitted", "vote"])
def test_the_specificity_limit_is_known_before_the_model_starts(data, weighting):
    """The Theory page and the race read it on a fresh model (their tau before any rule)."""
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS,
                                                         "weighting": weighting})
    before = session.max_specified()
    assert session._training is None  # asking did not start the model
    session.learn(1)
    assert before == session.max_specified() == session._training.model.max_specified_


def test_a_new_models_train_charts_are_made_once_per_server_and_are_the_charts_of_its_snapshot(
        session):
    """Before training every tab draws the same two charts, kept from the first (the server
    makes them as it starts): they are what the snapshot's own (empty) curves give."""
    snap = session.snapshot()
    assert snap.curves.empty and snap.history.empty
    for owed, words in ((False, "Press Start or Step to train"),
                        (True, "Fitting the rule weights for the first point…")):
        kept = pages.train_charts(snap, owed)
        assert [id(chart) for chart in pages.train_charts(snap, owed)] == [id(c) for c in kept]
        made = [figures.learning_curves(snap.curves, MEASURES, words),
                figures.population_curves(snap.history)]
        assert [c.to_json() for c in kept] == [c.to_json() for c in made]
    session.step(50)  # trained: the charts follow the model
    assert pages.train_charts(session.snapshot())[0] is not pages.blank_train_charts(False)[0]


def test_a_first_run_asking_for_the_blank_charts_while_the_startup_makes_them_waits_for_those(
        monkeypatch):
    """A new server's first run asks for the blank charts while its startup thread is making
    them (streamlit_app.py): it gets that thread's charts, and nothing is made twice."""
    monkeypatch.setattr(pages, "_blank_train_charts",
                        functools.cache(pages._blank_train_charts.__wrapped__))
    made, second_made = [], threading.Event()
    make = pages._train_charts

    def slow_make(*args):
        made.append(threading.current_thread().name)
        if len(made) == 1:  # the startup thread, still making them: the tab's run asks
            tab_run.start()
            second_made.wait(timeout=1)  # a run that makes its own makes it meanwhile
        else:
            second_made.set()
        return make(*args)

    monkeypatch.setattr(pages, "_train_charts", slow_make)
    got = {}
    tab_run = threading.Thread(target=lambda: got.update(tab=pages.blank_train_charts(False)),
                               name="tab")
    startup = pages.blank_train_charts(False)
    tab_run.join()
    assert made == [threading.current_thread().name]
    assert got["tab"] is startup
