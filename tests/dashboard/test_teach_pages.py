"""The teaching pages through AppTest: Microscope, pacing controls, earlier runs on the Train
page, Time travel. Each ``run()`` is one tick of the live fragments."""

import json
import time

import numpy as np
from apptest import started
from stepping import step
from streamlit.testing.v1 import AppTest

from dashboard import pages
from dashboard.pacing import DEFAULT_TICK_CAP
from mlr_core.rules import rule_lines


def _app() -> AppTest:
    at = started()
    assert not at.exception
    return at


def _titles(at: AppTest) -> list[str]:
    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def test_microscope_steps_through_one_traced_iteration():
    at = _app()
    step(at)
    at = at.switch_page("views/microscope.py").run()
    assert at.info and not at.get("plotly_chart")
    session = at.session_state["session"]
    at.button(key="trace").click().run()
    assert not at.exception
    assert session.snapshot().iteration == 201
    trace = session.traced.trace
    assert at.subheader[0].value == "1. An instance is drawn"
    assert f"instance #{session.traced.index}" in at.markdown[0].value
    assert at.button(key="micro_prev").disabled
    seen = [at.subheader[0].value]
    while not at.button(key="micro_next").disabled:
        at.button(key="micro_next").click().run()
        assert not at.exception
        seen.append(at.subheader[0].value)
        if seen[-1] == "2. The match set [M]":  # its table cuts long rules: the first is whole
            first = trace.rules_before.iloc[trace.match_set[0]]
            assert rule_lines(first["conditions"], first["labelset"]) in [c.value
                                                                           for c in at.code]
    assert seen[1:3] == ["2. The match set [M]", "3. The correct set [C]"]
    assert ("5. GA: two parents" in seen) == (trace.ga is not None)
    assert seen[-1].endswith("Done") and len(seen) == (10 if trace.ga else 8)
    assert len(trace.rules_before) < 300
    assert _titles(at) == [f"The population before iteration 200 ({len(trace.rules_before)} "
                           "rules)"]
    at.button(key="trace").click().run()  # the next iteration starts its story at step 1
    assert at.subheader[0].value == "1. An instance is drawn"
    assert session.traced.trace.iteration == 201


def test_training_is_watchable_and_pauses_at_the_target():
    at = _app()
    session = at.session_state["session"]
    assert at.select_slider(key="speed").value == DEFAULT_TICK_CAP
    at.number_input(key="stop_at").set_value(250).run()
    at.button(key="start").click().run()
    at.run()
    at.run()
    assert session.snapshot().iteration == 250 and not session.pacing.running
    assert at.button(key="start").disabled is False


def test_earlier_runs_stay_on_the_train_page_after_new_parameters():
    at = _app()
    step(at)
    assert "Held-out curves" not in " ".join(_titles(at))
    next(w for w in at.radio if w.label == "Fitness").set_value("em")
    at.button(key="apply").click().run()
    step(at)
    runs = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
                if "Held-out curves" in c.proto.spec)
    names = {t["name"] for t in runs["data"]}
    assert any(n.startswith("run 1: fitted weights, HL") for n in names)
    assert any(n.startswith("run 2: fitted weights, EM") and n.endswith("(this run)")
               for n in names)


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def _sidebar_text(at: AppTest) -> str:
    return " ".join(e.value for e in [*at.sidebar.markdown, *at.sidebar.caption])


def test_apply_and_reset_redraws_at_once_and_names_every_run():
    at = _app()
    for _ in range(3):
        step(at)
        assert _metric(at, "Iteration") == "200"
        at.button(key="apply").click().run()  # the same parameters
        assert _metric(at, "Iteration") == "0"  # the new model, in this very run
        assert "not started" in _sidebar_text(at)
    step(at)
    runs = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
                if "Held-out curves" in c.proto.spec)
    names = [t["name"] for t in runs["data"] if t.get("showlegend") is not False]
    numbers = [name.split(":")[0] for name in names]
    assert numbers == ["run 1", "run 2", "run 3", "run 4"] and len(set(names)) == 4
    assert names[-1].endswith("(this run)")
    assert not at.exception


def test_the_sidebar_and_the_train_page_say_which_model_trains_and_whether_it_has():
    at = _app()
    text = _sidebar_text(at)
    assert "Training:** not started" in text and "trained" not in text.lower()
    assert "Model: the library's default (fitted rule weights)" in text
    step(at)
    text = _sidebar_text(at)
    assert "paused at iteration 200" in text
    assert "rules of at most 2 conditions" in text  # the sample has 2 features (auto: min(3, d))
    assert any(c.value.startswith("**Curves of:** the library's default (fitted rule weights)")
               for c in at.caption)


def test_the_papers_vote_is_one_click_away_on_train_race_and_theory():
    at = _app()
    next(w for w in at.radio if w.label == "Model").set_value("vote")
    at.button(key="apply").click().run()
    session = at.session_state["session"]
    step(at)
    assert session._started().model.weighting == "vote"
    assert any(c.value.startswith("**Curves of:** the paper's vote (MLR_agg)") for c in at.caption)
    at = at.switch_page("views/theory.py").run()
    assert not [b for b in at.button if b.key == "theory_vote"]  # already the vote
    at = at.switch_page("views/train.py").run()
    next(w for w in at.radio if w.label == "Model").set_value("fitted")
    at.button(key="apply").click().run()
    assert session._started().model.weighting == "fitted"
    at = at.switch_page("views/theory.py").run()
    at.button(key="theory_vote").click().run()
    assert session.params["weighting"] == "vote" and session.iteration == 0
    at = at.switch_page("views/race.py").run()
    race = at.session_state["race"]
    assert {lane.params["weighting"] for lane in race.lanes.values()} == {"vote"}
    at.segmented_control(key="race_model").set_value("fitted").run()
    race = at.session_state["race"]
    assert {lane.params["weighting"] for lane in race.lanes.values()} == {"fitted"}
    assert not at.exception


def test_time_travel_scrubs_and_replays_the_snapshots():
    at = _app()
    at = at.switch_page("views/time_travel.py").run()
    assert at.info  # nothing to travel to yet
    for _ in range(3):
        step(at)
    at.run()
    slider = at.select_slider(key="tt_at")
    assert slider.options == ["200", "400", "600"] and slider.value == 600
    assert "**Iteration 600**" in at.markdown[0].value
    slider.set_value(400).run()
    assert "**Iteration 400**" in at.markdown[0].value
    title = next(t for t in _titles(at) if "distinct rules, iteration" in t)
    assert title.endswith("distinct rules, iteration 400")
    at.button(key="tt_play").click().run()  # from the first snapshot: each run is one frame
    assert at.session_state["tt_playing"] and at.button(key="tt_stop")
    shown = [at.select_slider(key="tt_at").value]
    while at.session_state["tt_playing"] and len(shown) < 6:
        at.run()
        shown.append(at.select_slider(key="tt_at").value)
    assert shown == [200, 400, 600, 600] and not at.session_state["tt_playing"]
    assert at.button(key="tt_play")  # the button is back
    assert not at.exception


def test_a_replay_keeps_its_stated_pace_when_frames_draw_slowly():
    from dashboard.views.time_travel import REPLAY_EVERY_S

    at = _app().switch_page("views/time_travel.py").run()
    for _ in range(5):
        step(at)
    at.run()
    at.button(key="tt_play").click().run()
    assert at.select_slider(key="tt_at").value == 200
    at.session_state["tt_started"] -= 3.2 * REPLAY_EVERY_S  # three frames' time went to drawing
    started = at.session_state["tt_started"]
    before = time.monotonic()
    at.run()
    after = time.monotonic()
    # the snapshot the clock reached during the run (the fourth at the earliest), not the next
    # one after the first: which one depends on how long the run took, so the bounds are read
    # from the clock around it, never assumed (a loaded machine took more than 0.6 s)
    iterations = [snap.iteration for snap in at.session_state["session"].points.past_snapshots()]
    reached = {iterations[min(k, len(iterations) - 1)] for k in range(
        int((before - started) / REPLAY_EVERY_S), int((after - started) / REPLAY_EVERY_S) + 1)}
    assert at.select_slider(key="tt_at").value in reached
    # at least three snapshots skipped while they drew: the fourth (800) or, if the machine
    # spent more than another frame between the two runs, a later one (never assume a speed)
    assert at.select_slider(key="tt_at").value >= 800
    caption = next(c.value for c in at.caption if c.value.startswith("Replay plays"))
    assert f"one every {REPLAY_EVERY_S:g} s" in caption


def test_race_trains_em_and_hl_in_step_with_theory_columns():
    at = _app()
    at = at.switch_page("views/race.py").run()
    assert not at.exception
    at.select_slider(key="race_speed").set_value(1000).run()
    at.button(key="race_start").click().run()
    race = at.session_state["race"]
    # a click's run draws the race as it stands, then races its tick (as the live pages do)
    assert at.markdown[0].value.startswith("**Iteration 0**") and race.iteration == 1000
    at.run()
    assert at.markdown[0].value.startswith("**Iteration 1,000**") and race.iteration == 2000
    at.button(key="race_pause").click().run()  # paused: drawn as it stands, nothing raced
    assert not at.exception
    em, hl = race.lanes["em"], race.lanes["hl"]
    assert em.params["fitness"] == "em" and hl.params["fitness"] == "hl"
    assert em.iteration == hl.iteration == 2000 and not race.running
    # no time travel in the race
    assert not em.points.snapshots.points and not hl.points.snapshots.points
    session = at.session_state["session"]
    assert em.split is hl.split is session.split  # the Train page's rows, one split for both
    shown = at.dataframe[0].value  # quantities down, lanes across: it fits beside the sidebar
    assert list(shown.columns) == ["EM (exact match)", "HL (1 − Hamming loss)"]
    assert list(shown.loc["iteration"]) == ["2,000", "2,000"]
    table = pages.race_table(race)
    assert table[["Accuracy", "measured F (ν = 1)", "random rule E[F] ≥"]].stack().between(
        0, 1).all()
    low, high = table["random rule E[F] ≥"], table["random rule E[F] ≤"]
    assert low.iloc[0] == high.iloc[0]  # EM: the expected fitness itself
    assert low.iloc[1] < high.iloc[1] or np.isnan(high.iloc[1])  # HL: bounds
    # a learned population beats a rule placed at random
    assert (table["measured F (ν = 1)"] > low).all()
    chart, theory = (json.loads(c.proto.spec) for c in at.get("plotly_chart"))
    assert {t["name"] for t in chart["data"]} == set(table.index)
    random_rule, measured = theory["data"]
    assert measured["y"] == list(table["measured F (ν = 1)"])
    assert random_rule["y"][:2] == [table["random rule E[F] ≥"].iloc[0]] * 2  # EM: a point
    assert theory["layout"]["yaxis"]["type"] == "log"
    at.run()
    assert em.iteration == 2000 and not race.running


def test_microscope_on_a_fresh_model_shows_covering_make_the_first_rule():
    at = _app().switch_page("views/microscope.py").run()
    at.button(key="trace").click().run()
    told = {}
    while True:
        told[at.subheader[0].value] = at.markdown[0].value
        if at.button(key="micro_next").disabled:
            break
        at.button(key="micro_next").click().run()
    assert not at.exception
    assert told["2. The match set [M]"].startswith("[M] is empty")
    assert told["4. Covering"].startswith("[C] is empty, so covering makes a new rule")
    assert "the population has 1 rule." in told["8. Done"]


def test_theory_states_a_huge_bound_by_its_order_of_magnitude():
    """2^m/(m+1) for mediamill's 101 labels was printed in 32 digits."""
    import re

    from mlr_core import make_hypercube_dataset

    at = started()
    data = make_hypercube_dataset(n_samples=200, n_relevant=2, n_labels=40, random_state=0)
    at.session_state["session"].set_dataset(data)
    at = at.switch_page("views/theory.py").run()
    assert not at.exception
    bound = next(c.value for c in at.caption if "the upper bound is not meaningful" in c.value)
    assert "2^m/(m+1) = about 2.7 × 10^10" in bound  # 2^40 / 41
    assert not re.search(r"\d(,\d{3}){3}", bound)  # not 26,817,356,775
