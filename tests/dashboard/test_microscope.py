"""The Microscope's story of one iteration: drawn from the engine's trace, rule texts read back
to the bounds the engine holds, and every event the trace records told in a step."""

import numpy as np
import pytest

from dashboard import choices, microscope, state
from dashboard.data_split import DataSplit
from mlr_core import make_hypercube_dataset

PARAMS = {**choices.DEFAULT_PARAMS, "n_rules": 40, "theta_ga": 0, "correct_set_subsumption": True,
          "theta_sub": 5, "acc0": 0.5}  # small and busy: every event happens


@pytest.fixture(scope="module")
def session():
    data = make_hypercube_dataset(n_samples=200, n_relevant=2, n_irrelevant=2, n_labels=3,
                                  random_state=1)
    return state.Session(DataSplit.of(data), params=dict(PARAMS))


def test_rule_texts_read_back_to_the_engines_bounds(session):
    session.step(300)
    snap = session.snapshot()
    names = session.split.dataset.feature_names
    lower, upper = microscope.text_bounds(list(snap.rules["rule"]), names)
    # a one-sided interval reads back open on its side; the engine's bound there is the data edge
    for mine, engine in zip((lower, upper), snap.bounds.rows(range(len(snap.rules))),
                            strict=True):
        given = ~np.isnan(mine)
        assert (given <= ~np.isnan(engine)).all()
        np.testing.assert_allclose(mine[given], engine[given], rtol=1e-3, atol=1e-3)
    assert np.isnan(lower).any() and (~np.isnan(lower)).any()


def test_every_event_of_a_traced_iteration_gets_its_step_and_marks(session):
    seen = set()
    for _ in range(150):
        traced = session.trace_step()
        t = traced.trace
        story = microscope.steps(traced, session.split.dataset.feature_names, session.params)
        by_title = {s.title.split(". ", 1)[1]: s for s in story}
        assert f"instance #{traced.index}" in story[0].sentence
        assert session.split.dataset.Y[traced.index].sum() == len(t.labelset)
        assert len(by_title["The match set [M]"].marks[0].lower) == len(t.match_set)
        assert len(by_title["The correct set [C]"].marks[1].lower) == len(t.correct_set)
        assert bool(by_title["Covering"].marks) == (t.covering is not None)
        told = by_title["The correct set [C]"].sentence
        assert told.startswith("[C] is empty" if not t.correct_set else
                               f"[C]: {len(t.correct_set)} rule")
        assert ("GA: mutation" in by_title) == (t.ga is not None)
        if t.ga:
            mutated = by_title["GA: mutation"].marks[1]
            assert len(mutated.lower) == 2
            told = by_title["GA: mutation"].sentence
            assert ("Both join" in told) == (t.ga.fates == ["inserted", "inserted"])
            assert all(fate in told for fate in t.ga.fates if fate != "inserted")
        assert bool(by_title["Subsumption"].marks) == bool(t.subsumed)
        assert bool(by_title["Deletion"].marks) == bool(t.deleted)
        if t.deleted:
            assert len(by_title["Deletion"].marks[0].lower) == len(t.deleted)
        features = microscope.story_features(traced, story)
        key = [m for s in story for m in s.marks if not m.name.startswith("[M]")]
        if features is not None and key:  # the pair is what the story's rules specify most
            used = (~np.isnan(np.vstack([m.lower for m in key]))).sum(axis=0)
            assert used[list(features)].min() >= np.sort(used)[-2]
        seen |= {k for k, v in (("covering", t.covering), ("ga", t.ga),
                                ("deleted", t.deleted), ("subsumed", t.subsumed)) if v}
        split = session.split
        fig = microscope.step_figure(traced, story[2], split.dataset.X,
                                     split.labelsets.of_instance, (0, 1),
                                     split.dataset.feature_names, {}, split.labelsets.names)
        names = [trace.name for trace in fig.data]
        assert f"[C] ({len(t.correct_set)})" in names or not t.correct_set
        assert f"selected: instance #{traced.index}" in names
    assert seen == {"covering", "ga", "deleted", "subsumed"}, seen
    assert session.snapshot().iteration == 450  # tracing trains as learn does
