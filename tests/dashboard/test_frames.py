"""The pure helpers that shape engine output for figures and tables."""

import numpy as np
import pandas as pd

from dashboard import frames, plot_axes
from dashboard.bounds import RuleBounds


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
    low, high = plot_axes.linear_range(np.array([0.0, 10.0]))
    assert low < 0 < 10 < high
    low, high = plot_axes.linear_range(np.array([3.0, 3.0]))
    assert low < 3 < high
    assert plot_axes.linear_range(np.array([np.nan])) == (0.0, 1.0)


def _linear(low, high):
    return plot_axes.PlotAxis("linear", (low, high))


def test_project_rules_spans_axis_for_wildcards_and_clips():
    lower = np.array([[0.2, 5.0], [np.nan, -99.0]])
    upper = np.array([[0.4, 6.0], [np.nan, 99.0]])
    rects = frames.project_rules(lower, upper, (_linear(0.0, 1.0), _linear(0.0, 10.0)))
    assert rects.to_dict("list") == {
        "rule": [0, 1], "x0": [0.2, 0.0], "x1": [0.4, 1.0], "y0": [5.0, 0.0], "y1": [6.0, 10.0]
    }


def test_on_a_binary_axis_a_rule_covers_the_cells_of_the_values_it_accepts():
    lower = np.array([[np.nan], [-0.2], [0.6], [0.3]])
    upper = np.array([[np.nan], [0.29], [1.2], [0.5]])
    binary = plot_axes.axis_of(np.array([0.0, 1.0]))
    assert binary.kind == "binary"
    half = plot_axes.SLOT_HALF
    rects = frames.project_rules(np.hstack([lower, lower]), np.hstack([upper, upper]),
                                 (binary, _linear(*binary.range)))
    assert rects["x0"].tolist()[:3] == [-half, -half, 1 - half]  # both values, 0, 1
    assert rects["x1"].tolist()[:3] == [1 + half, half, 1 + half]
    assert rects["x0"][3] == binary.range[0] and rects["x1"][3] == binary.range[1]  # none
    assert rects["y0"][1] == -0.2  # the numeric axis keeps the interval


def test_binary_points_are_jittered_around_their_value_and_the_selection_follows():
    X = np.array([[0.0, 0.5], [1.0, 0.7], [1.0, 0.2], [0.0, 0.9]])
    points = frames.instance_points(X, np.zeros(4, dtype=int), (0, 1))
    assert (abs(points["x"] - X[:, 0]) <= plot_axes.JITTER).all()
    assert (points["x"] != X[:, 0]).all()
    assert points["y"].tolist() == X[:, 1].tolist()
    ringed = frames.point_of(points, X, np.zeros(4, dtype=int), (0, 1), 2)
    assert ringed["x"].item() == points.loc[2, "x"]


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
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]])
    chosen, n_passed, axes = frames.projection(rules, RuleBounds.of(lower, upper), X, (0, 1),
                                               cap=1)
    assert n_passed == 2 and list(chosen.index) == [11]
    assert chosen.loc[11, ["x0", "x1", "y0", "y1"]].tolist() == [0.5, 0.7, 0.2, 0.4]
    assert axes[0].range[0] < 0.0 and axes[1].range[1] > 1.0


def test_instance_points_keep_indices_and_sample_when_many():
    X = np.arange(20, dtype=float).reshape(10, 2)
    labelset_ids = np.arange(10) % 3
    points = frames.instance_points(X, labelset_ids, (1, 0))
    assert points["index"].tolist() == list(range(10))
    assert points.loc[4, ["x", "y", "labelset_id"]].tolist() == [9.0, 8.0, 1]
    sample = frames.instance_points(X, labelset_ids, (0, 1), limit=4)
    assert len(sample) == 4 and (sample["x"] == X[sample["index"], 0]).all()


def test_sparse_bounds_answer_columns_rows_and_usage_as_the_dense_ones():
    rng = np.random.default_rng(0)
    lower = np.where(rng.random((30, 50)) < 0.1, rng.random((30, 50)), np.nan)
    lower[3, 7] = 0.0  # a bound of zero is a bound, not a wildcard
    upper = lower + 0.25
    bounds = RuleBounds.of(lower, upper)
    assert bounds.nbytes < lower.nbytes / 2
    got = bounds.columns([7, 2])
    np.testing.assert_array_equal(got[0], lower[:, [7, 2]])
    np.testing.assert_array_equal(got[1], upper[:, [7, 2]])
    rows = bounds.rows([5, 3])
    np.testing.assert_array_equal(rows[0], lower[[5, 3]])
    numerosity = rng.integers(1, 4, 30)
    dense_usage = (~np.isnan(lower)).T.astype(int) @ numerosity
    assert bounds.usage(numerosity).tolist() == dense_usage.tolist()
    both = (~np.isnan(lower[:, 7]) & ~np.isnan(lower[:, 2])) @ numerosity
    assert bounds.shared_usage([7, 2], numerosity)[0, 1] == both


def test_the_default_pair_is_the_one_most_rules_specify_together():
    # features 0 and 1 are each used most, but never by the same rule; 2 and 3 go together
    lower = np.full((6, 4), np.nan)
    lower[[0, 1], 0] = lower[[2, 3], 1] = 0.1
    lower[[4, 5], 2] = lower[[4, 5], 3] = 0.2
    numerosity = np.array([5, 5, 5, 5, 1, 1])
    assert frames.features_by_usage(RuleBounds.of(lower, lower).usage(numerosity))[:2] == [0, 1]
    assert frames.shared_pair(RuleBounds.of(lower, lower), numerosity) == ((2, 3), 2)
    apart = lower[:4]
    assert frames.shared_pair(RuleBounds.of(apart, apart), numerosity[:4]) == ((0, 1), 0)


def test_projection_can_keep_only_rules_specifying_both_features():
    lower = np.array([[0.1, 0.1, np.nan], [np.nan, 0.2, 0.2], [0.3, np.nan, 0.3]])
    upper = lower + 0.1
    bounds = RuleBounds.of(lower, upper)
    rules = pd.DataFrame({"fitness": [0.9, 0.8, 0.7], "numerosity": [1, 1, 1],
                          "experience": [5, 5, 5], "labelset_id": [0, 0, 0]})
    X = np.random.default_rng(0).uniform(0, 1, (10, 3))
    chosen, n_passed, _ = frames.projection(rules, bounds, X, (0, 1), only_specified=True)
    assert chosen.index.tolist() == [0] and n_passed == 1
    chosen, n_passed, _ = frames.projection(rules, bounds, X, (2, 2), only_specified=True)
    assert sorted(chosen.index) == [1, 2]
    _, n_passed, _ = frames.projection(rules, bounds, X, (0, 1))
    assert n_passed == 3
