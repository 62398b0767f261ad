"""The pure helpers that shape engine output for figures and tables."""

import numpy as np
import pandas as pd

from dashboard import frames


def test_labelsets_number_the_distinct_rows_and_name_them_like_rules_do():
    Y = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1], [0, 1, 0]])
    table = frames.Labelsets.of(Y, ["a", "b", "c"])
    assert [table.names[i] for i in table.of_instance] == ["{a, c}", "{}", "{a, c}", "{b}"]
    assert (table.bits[table.of_instance] == Y).all()
    # joined by bits, not by text; a labelset the data never has gets -1
    assert table.ids_of(np.array([[0, 1, 0], [1, 1, 1]])).tolist() == [
        table.of_instance[3], -1]
    assert table.name(-1) == "(not in the data)"


def test_frequent_labelsets_orders_by_count_then_name():
    Y = np.array([[0, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    table = frames.Labelsets.of(Y, ["a", "b", "c"])
    assert [table.names[i] for i in table.frequent(2)] == ["{a}", "{b}"]


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
        "experience": [0, 10, 30, 3], "labelset_id": [0, 0, 1, 1],
    })
    chosen, n = frames.select_rules(rules, min_fitness=0.2, cap=2)
    assert n == 3 and list(chosen.index) == [3, 1]
    chosen, n = frames.select_rules(rules, labelset_ids=[1], min_experience=5)
    assert n == 1 and list(chosen.index) == [2]
    chosen, n = frames.select_rules(rules, min_numerosity=3)
    assert list(chosen.index) == [3, 2]  # both fitness >= 0.5: fittest first


def test_specified_matrix_is_not_nan():
    assert frames.specified_matrix(np.array([[np.nan, 0.0]])).tolist() == [[False, True]]


def test_projection_joins_rectangles_to_the_chosen_rules():
    rules = pd.DataFrame({"fitness": [0.2, 0.9], "numerosity": [1, 1], "experience": [5, 5],
                          "labelset_id": [0, 1]}, index=[10, 11])
    lower = np.array([[0.1, np.nan], [0.5, 0.2]])
    upper = np.array([[0.3, np.nan], [0.7, 0.4]])
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    chosen, n_passed, ranges = frames.projection(rules, lower, upper, X, (0, 1), cap=1)
    assert n_passed == 2 and list(chosen.index) == [11]
    assert chosen.loc[11, ["x0", "x1", "y0", "y1"]].tolist() == [0.5, 0.7, 0.2, 0.4]
    assert ranges[0][0] < 0.0 and ranges[1][1] > 1.0


def test_instance_points_keep_indices_and_sample_when_many():
    X = np.arange(20, dtype=float).reshape(10, 2)
    labelset_ids = np.arange(10) % 3
    points = frames.instance_points(X, labelset_ids, (1, 0))
    assert points["index"].tolist() == list(range(10))
    assert points.loc[4, ["x", "y", "labelset_id"]].tolist() == [9.0, 8.0, 1]
    sample = frames.instance_points(X, labelset_ids, (0, 1), limit=4)
    assert len(sample) == 4 and (sample["x"] == X[sample["index"], 0]).all()


def test_most_specified_weights_by_numerosity_and_falls_back_to_the_first():
    lower = np.array([[np.nan, 0.1, 0.2], [np.nan, np.nan, 0.3], [0.0, np.nan, np.nan]])
    assert frames.most_specified(lower, np.array([1, 1, 5])) == [0, 2]
    assert frames.most_specified(np.full((2, 3), np.nan), np.array([1, 1])) == [0, 1]
    assert frames.most_specified(np.empty((0, 1)), np.empty(0)) == [0]


def test_features_ranked_by_how_many_rules_use_them():
    lower = np.array([[np.nan, 0.0, 1.0], [np.nan, np.nan, 2.0], [0.5, np.nan, 0.1]])
    numerosity = np.array([1, 4, 2])
    assert frames.feature_usage(lower, numerosity).tolist() == [2, 1, 7]
    assert frames.features_by_usage(lower, numerosity) == [2, 0, 1]
    assert frames.most_specified(lower, numerosity) == [2, 0]


def test_projection_can_keep_only_rules_specifying_both_features():
    lower = np.array([[0.1, 0.1, np.nan], [np.nan, 0.2, 0.2], [0.3, np.nan, 0.3]])
    upper = lower + 0.1
    rules = pd.DataFrame({"fitness": [0.9, 0.8, 0.7], "numerosity": [1, 1, 1],
                          "experience": [5, 5, 5], "labelset_id": [0, 0, 0]})
    X = np.random.default_rng(0).uniform(0, 1, (10, 3))
    chosen, n_passed, _ = frames.projection(rules, lower, upper, X, (0, 1), only_specified=True)
    assert chosen.index.tolist() == [0] and n_passed == 1
    chosen, n_passed, _ = frames.projection(rules, lower, upper, X, (2, 2), only_specified=True)
    assert sorted(chosen.index) == [1, 2]
    _, n_passed, _ = frames.projection(rules, lower, upper, X, (0, 1))
    assert n_passed == 3
