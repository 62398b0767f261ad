"""The pure helpers that shape engine output for figures and tables."""

import numpy as np
import pandas as pd

from dashboard import frames


def test_labelset_texts_name_rows_like_rules_do():
    Y = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1], [0, 1, 0]])
    texts = frames.labelset_texts(Y, ["a", "b", "c"])
    assert list(texts) == ["{a, c}", "{}", "{a, c}", "{b}"]
    assert len(frames.labelset_texts(np.zeros((0, 3)), ["a", "b", "c"])) == 0


def test_frequent_labelsets_orders_by_count_then_name():
    assert frames.frequent_labelsets(["{b}", "{a}", "{b}", "{c}", "{a}"], 2) == ["{a}", "{b}"]


def test_axis_range_pads_and_survives_constant_or_empty():
    low, high = frames.axis_range(np.array([0.0, 10.0]))
    assert low < 0 < 10 < high
    low, high = frames.axis_range(np.array([3.0, 3.0]))
    assert low < 3 < high
    assert frames.axis_range(np.array([np.nan])) == (0.0, 1.0)


def test_project_rules_spans_axis_for_wildcards_and_clips():
    lower = np.array([[0.2, np.nan, 5.0], [np.nan, 1.0, -99.0]])
    upper = np.array([[0.4, np.nan, 6.0], [np.nan, 2.0, 99.0]])
    rects = frames.project_rules(lower, upper, (0, 2), ((0.0, 1.0), (0.0, 10.0)))
    assert rects.to_dict("list") == {
        "x0": [0.2, 0.0], "x1": [0.4, 1.0], "y0": [5.0, 0.0], "y1": [6.0, 10.0]
    }


def test_select_rules_filters_sorts_and_caps():
    rules = pd.DataFrame({
        "fitness": [0.1, 0.9, 0.5, 0.9], "numerosity": [1, 2, 5, 4],
        "experience": [0, 10, 30, 3], "labelset": ["{a}", "{a}", "{b}", "{b}"],
    })
    chosen, n = frames.select_rules(rules, min_fitness=0.2, cap=2)
    assert n == 3 and list(chosen.index) == [3, 1]
    chosen, n = frames.select_rules(rules, labelsets=["{b}"], min_experience=5)
    assert n == 1 and list(chosen.index) == [2]
    chosen, n = frames.select_rules(rules, min_numerosity=3)
    assert list(chosen.index) == [3, 2]  # both fitness >= 0.5: fittest first


def test_specified_matrix_is_not_nan():
    assert frames.specified_matrix(np.array([[np.nan, 0.0]])).tolist() == [[False, True]]
