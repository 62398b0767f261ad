"""Tabs sharing one server: a click is answered before other tabs' ticks, a click ends its own
tab's tick, and curve points are spaced out by the tabs training together."""

import threading
import time

import pytest

from dashboard import choices, sharing, state
from dashboard.curves import CURVE_EVERY_S, CurveLog
from dashboard.data_split import DataSplit
from mlr_core import make_hypercube_dataset


def test_a_click_holds_other_tabs_ticks_until_it_is_answered():
    tab, other = {}, {}
    began, answered = threading.Event(), threading.Event()
    waited = []

    def click_in_other_tab():
        with sharing.click(other):
            began.set()
            time.sleep(0.3)
        answered.set()

    thread = threading.Thread(target=click_in_other_tab)
    thread.start()
    began.wait()
    start = time.monotonic()
    keep_going = sharing.take_turn(tab, lambda: True)
    waited.append(time.monotonic() - start)
    assert answered.is_set() and waited[0] >= 0.2  # the tick began once the click was answered
    assert keep_going()
    thread.join()
    assert not sharing.clicks_waiting()


def test_a_click_keeps_priority_for_a_while_only():
    with sharing.click({}):
        assert sharing.clicks_waiting()
        assert not sharing.clicks_waiting(time.monotonic() + sharing.PRIORITY_S + 0.1)


def test_an_answered_click_lets_other_tabs_tick_at_once():
    with sharing.click({}):
        pass
    assert not sharing.clicks_waiting()


def test_a_click_s_own_tick_does_not_wait_for_itself():
    tab = {}
    with sharing.click(tab):
        start = time.monotonic()
        keep_going = sharing.take_turn(tab, lambda: True)
        assert time.monotonic() - start < 0.1 and keep_going()


def test_a_click_in_the_tab_ends_its_tick():
    tab, running = {}, [True]
    with sharing.click(tab):
        pass
    keep_going = sharing.take_turn(tab, lambda: running[0])
    assert keep_going()
    with sharing.click(tab):  # the user clicks while the tick trains: a newer run
        assert not keep_going()
    keep_going = sharing.take_turn(tab, lambda: running[0])
    running[0] = False  # Pause
    assert not keep_going()


def test_a_tab_s_share_counts_the_tabs_training_recently():
    tabs = [object() for _ in range(3)]
    now = time.monotonic() + 3600  # after any tick of another test
    assert sharing.share(tabs[0], now) == 1
    assert sharing.share(tabs[1], now + 1) == pytest.approx(1 / 2)
    assert sharing.share(tabs[2], now + 2) == pytest.approx(1 / 3)
    later = now + 2 + sharing.TRAINING_WINDOW_S + 0.5  # the first two stopped training
    assert sharing.share(tabs[2], later) == 1


def test_curve_points_are_spaced_out_by_the_tabs_training():
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 200})
    session.pacing.share = 1 / 6
    session.step(50)
    curves = session.points.curves
    assert curves.min_seconds >= 6 * CURVE_EVERY_S
    assert not curves.due(session.iteration + 100, curves.last_time + 5.0)


def test_the_curves_frame_stays_the_same_object_until_a_point_is_added():
    log = CurveLog(min_seconds=0.0)
    point = {split: {"hamming_loss": 0.1, "accuracy": 0.5, "f1": 0.6}
             for split in ("training", "held-out")}
    log.add(1, 0.0, point)
    frame = log.frame()
    assert log.frame() is frame and len(frame) == 2
    log.add(2, 1.0, point)
    assert log.frame() is not frame and len(log.frame()) == 4


def test_a_live_page_keeps_its_charts_between_redraws_while_training():
    tab, made = {}, []

    def make():
        made.append(object())
        return made[-1]

    first, second = object(), object()  # two snapshots of a model in training
    assert sharing.kept_while_training(tab, "page", "opts", first, make, 3600) == (first,
                                                                                   made[0])
    # the model moved on, the charts were made less than `every` ago: sent again unchanged
    assert sharing.kept_while_training(tab, "page", "opts", second, make, 3600) == (first,
                                                                                    made[0])
    # what the user set changed: made at once
    assert sharing.kept_while_training(tab, "page", "other", second, make, 3600) == (second,
                                                                                     made[1])
    # `every` elapsed (0: paused), or a click's run: made from the snapshot given
    third = object()
    assert sharing.kept_while_training(tab, "page", "other", third, make, 0) == (third, made[2])
    with sharing.click(tab):
        assert sharing.kept_while_training(tab, "page", "other", third, make, 3600) == (
            third, made[3])
    assert len(made) == 4


def test_a_tab_redraws_less_often_the_more_tabs_train():
    assert sharing.redraw_every(False, 1 / 6) == 0
    assert sharing.redraw_every(True, 1) == sharing.REDRAW_EVERY_S
    assert sharing.redraw_every(True, 1 / 6) == pytest.approx(6 * sharing.REDRAW_EVERY_S)
