"""Rules read as people write them; bounds come back in the data's own units."""

import json

import numpy as np
import pytest

from mlr_core import MLRClassifier


@pytest.fixture(scope="module")
def model():
    """A fitted model whose rules are replaced by three hand-written ones."""
    r = np.random.default_rng(0)
    X = np.column_stack([r.uniform(0, 10, 50), r.uniform(-1, 1, 50), r.uniform(100, 200, 50)])
    Y = (r.random((50, 3)) < 0.5).astype(int)
    data = json.loads(MLRClassifier(n_rules=40, n_iter=200, random_state=0, weighting="vote").fit(
        X, Y, feature_names=["sepal_len", "x1", "temp"], label_names=["happy", "calm", "sad"]
    ).to_json())
    rule_set = data["rule_set"]
    rule_set["data_min"], rule_set["data_max"] = [0.0, -1.0, 100.0], [10.0, 1.0, 200.0]
    template = rule_set["rules"][0]

    def rule(center, spread, labelset):
        return {**template, "condition": {"type": "hyperrectangle_csr", "center": center,
                                          "spread": spread}, "labelset": labelset}

    rule_set["rules"] = [
        rule([0.26, None, 0.5], [0.14, None, 0.1], [1, 1, 0]),  # two closed intervals
        rule([0.1, 0.9, None], [0.2, 0.3, None], [0, 0, 1]),  # open below / above
        rule([None, None, None], [None, None, None], [0, 0, 0]),  # all wildcards, empty set
    ]
    return MLRClassifier.from_json(json.dumps(data))


def test_rule_text_orders_bounds_and_omits_wildcards(model):
    texts = model.rules_frame()["rule"].tolist()
    assert texts[0] == "IF 1.2 <= sepal_len <= 4 AND 140 <= temp <= 160 THEN {happy, calm}"
    assert texts[1] == "IF sepal_len <= 3 AND x1 >= 0.2 THEN {sad}"
    assert texts[2] == "IF TRUE THEN {}"


def test_frame_has_one_row_per_rule_with_readable_columns(model):
    frame = model.rules_frame()
    assert len(frame) == 3
    assert frame["labelset"].tolist() == ["{happy, calm}", "{sad}", "{}"]
    assert frame["n_specified"].tolist() == [2, 2, 0]
    assert np.allclose(frame["generality"], [(0.28 + 1 + 0.2) / 3, (0.3 + 0.4 + 1) / 3, 1.0])


def test_rule_bounds_are_in_original_units_with_nan_wildcards(model):
    lower, upper = model.rule_bounds()
    assert np.allclose(lower[0], [1.2, np.nan, 140], equal_nan=True)
    assert np.allclose(upper[0], [4.0, np.nan, 160], equal_nan=True)
    assert np.allclose(lower[1, :2], [0.0, 0.2]) and np.allclose(upper[1, :2], [3.0, 1.0])
    assert np.isnan(lower[2]).all() and np.isnan(upper[2]).all()


def test_explanation_lists_matching_rules_and_their_votes(model):
    e = model.explain(np.array([2.0, 0.5, 150.0]))  # inside rules 0, 1 and 2
    assert sorted(e.rule_ids.tolist()) == [0, 1, 2]
    assert set(e.union) == {"happy", "calm", "sad"}
    assert "IF 1.2 <= sepal_len <= 4" in e.text()
