"""The Microscope's story of one iteration: drawn from the engine's trace, its rules with the
bounds the engine holds, and every event the trace records told in a step."""

import numpy as np
import pytest

from dashboard import choices, frames, microscope, state
from dashboard.bounds import RuleBounds
from dashboard.data_split import DataSplit
from mlr_core import make_hypercube_dataset

PARAMS = {**choices.DEFAULT_PARAMS, "n_rules": 40, "theta_ga": 0, "correct_set_subsumption": True,
          "theta_sub": 5, "acc0": 0.5}  # small and busy: every event happens


@pytest.fixture(scope="module")
def session():
    data = make_hypercube_dataset(n_samples=200, n_relevant=2, n_irrelevant=2, n_labels=3,
                                  random_state=1)
    return state.Session(DataSplit.of(data), params=dict(PARAMS))


def test_traced_rules_are_drawn_with_the_engines_bounds(session):
    """The trace holds its rules as data: a parent (a rule of the population before) has the
    very bounds the Population page draws it with, and every event's rules are as
    many as its texts."""
    session.step(300)
    checked = 0
    for _ in range(40):
        traced = session.trace_step()
        t = traced.trace
        story = microscope.steps(traced, session.params)
        events = {"covering": [t.covering] if t.covering else [], "subsumed": t.subsumed,
                  "deleted": t.deleted}
        if t.ga:
            events |= {"parents": t.ga.parents, "after_crossover": t.ga.after_crossover,
                       "after_mutation": t.ga.after_mutation}
            parents = RuleBounds.of_pairs(traced.bounds.n_features, *t.bounds["parents"])
            for k, rule in enumerate(t.ga.parent_ids):
                if rule < len(t.rules_before):  # not the rule covering made just now
                    for mine, engine in zip(parents.rows([k]), traced.bounds.rows([rule]),
                                            strict=True):
                        np.testing.assert_array_equal(mine, engine)
                    checked += 1
        assert {event: t.bounds[event].n_rules for event in events if events[event]} == {
            event: len(texts) for event, texts in events.items() if texts}
        X = session.split.dataset.X  # in the data's units: within each feature's range
        low, high = X.min(axis=0) - 1e-12, X.max(axis=0) + 1e-12
        for m in (m for step in story for m in step.marks if not m.name.startswith("[")):
            on = ~np.isnan(m.lower)  # the features a rule specifies, NaN elsewhere
            features = np.nonzero(on)[1]
            assert (on == ~np.isnan(m.upper)).all()
            assert (low[features] <= m.lower[on]).all() and (m.upper[on] <= high[features]).all()
            assert (m.lower[on] <= m.upper[on]).all()
    assert checked


def test_every_event_of_a_traced_iteration_gets_its_step_and_marks(session):
    start = session.snapshot().iteration
    seen = set()
    for _ in range(150):
        traced = session.trace_step()
        t = traced.trace
        story = microscope.steps(traced, session.params)
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
        fig, n_drawn = microscope.step_figure(traced, story[2], split.dataset.X,
                                              split.labelsets.of_instance, (0, 1),
                                              split.dataset.feature_names, {},
                                              split.labelsets.names)
        assert n_drawn == min(len(split.dataset.X), frames.MAX_POINTS)
        names = [trace.name for trace in fig.data]
        assert f"[C] ({len(t.correct_set)})" in names or not t.correct_set
        assert f"selected: instance #{traced.index}" in names
    assert seen == {"covering", "ga", "deleted", "subsumed"}, seen
    assert session.snapshot().iteration == start + 150  # tracing trains as learn does
