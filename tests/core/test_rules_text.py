"""Rules read as people write them; bounds come back in the data's own units."""

import json

import numpy as np
import pandas as pd
import pytest

from mlr_core import MLRClassifier
from mlr_core.data.loaders import load_dataset
from mlr_core.rules import rule_lines


@pytest.fixture(scope="module")
def model():
    """A fitted model whose rules are replaced by three hand-written ones (on the min-max axis,
    where a rule's bounds are its centre and spread in the data's units)."""
    r = np.random.default_rng(0)
    X = np.column_stack([r.uniform(0, 10, 50), r.uniform(-1, 1, 50), r.uniform(100, 200, 50)])
    Y = (r.random((50, 3)) < 0.5).astype(int)
    data = json.loads(MLRClassifier(n_rules=40, n_iter=200, random_state=0, weighting="vote",
                                    axis="minmax").fit(
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
    del rule_set["rule_ids"]  # new rules: numbered 0, 1, 2 as in a file without ids
    return MLRClassifier.from_json(json.dumps(data))


def test_rule_text_orders_bounds_and_omits_wildcards(model):
    texts = model.rules_frame()["rule"].tolist()
    assert texts[0] == "IF 1.2 <= sepal_len <= 4 AND 140 <= temp <= 160 THEN {happy, calm}"
    assert texts[1] == "IF sepal_len <= 3 AND x1 >= 0.2 THEN {sad}"
    assert texts[2] == "IF TRUE THEN {}"


def test_a_rule_is_laid_out_a_condition_a_line_from_its_conditions(model):
    frame = model.rules_frame()
    assert frame["conditions"].tolist() == [("1.2 <= sepal_len <= 4", "140 <= temp <= 160"),
                                            ("sepal_len <= 3", "x1 >= 0.2"), ()]
    assert rule_lines(*frame.loc[0, ["conditions", "labelset"]]).splitlines() == [
        "IF   1.2 <= sepal_len <= 4", "AND  140 <= temp <= 160", "THEN {happy, calm}"]
    assert rule_lines(*frame.loc[2, ["conditions", "labelset"]]) == "IF   TRUE\nTHEN {}"
    assert rule_lines(("x1 >= 0.2",)) == "IF   x1 >= 0.2"  # a scorecard's rule: no labelset


def test_a_name_holding_and_or_then_stays_on_its_line():
    """Names are the data's (a CSV's header, its categories): the lines come from the rule's
    conditions, not from its text split on AND and THEN."""
    r = np.random.default_rng(0)
    taste = r.choice(["salt THEN pepper", "sweet AND sour", "plain"], 300)
    loud = r.uniform(0, 10, 300)
    X = pd.DataFrame({"rock AND roll": loud, "taste THEN": pd.Categorical(taste)})
    Y = np.column_stack([loud > 5, taste == "plain", taste != "plain"]).astype(int)
    model = MLRClassifier(n_rules=200, n_iter=3000, random_state=0).fit(
        X, Y, label_names=["a AND b", "c", "THEN d"])
    frame = model.rules_frame()
    specified = frame[frame["n_specified"] > 0]
    assert len(specified) and frame["rule"].str.contains(" THEN ").all()
    for rule in specified.itertuples():
        lines = rule_lines(rule.conditions, rule.labelset).splitlines()
        assert len(lines) == rule.n_specified + 1  # one a condition, then THEN
        assert rule.rule == "IF " + " AND ".join(line[5:] for line in lines[:-1]) + " " + lines[-1]
        assert all(term.startswith(("rock AND roll", "taste THEN")) or " <= rock AND roll" in term
                   for term in rule.conditions)


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
    e = model.rule_set_.explain(np.array([2.0, 0.5, 150.0]))  # inside rules 0, 1 and 2
    assert sorted(e.rule_ids.tolist()) == [0, 1, 2]
    assert set(e.union) == {"happy", "calm", "sad"}
    assert "IF 1.2 <= sepal_len <= 4" in e.text()


# ------------------------------------------------------------ 0/1 features (words)

WORDS = ["w0", "w1", "w2", "w3", "w4", "num"]  # five 0/1 words and one number


@pytest.fixture(scope="module")
def words():
    """A model with fitted weights on five 0/1 words and one numeric feature."""
    r = np.random.default_rng(1)
    X = np.column_stack([(r.random((120, 5)) < 0.4).astype(float), r.uniform(0, 10, 120)])
    Y = np.column_stack([X[:, 0], X[:, 1] * (X[:, 5] > 5), 1 - X[:, 2]]).astype(int)
    model = MLRClassifier(n_rules=150, n_iter=3000, random_state=0, weighting="fitted",
                          max_specified=6).fit(
        X, Y, feature_names=WORDS, label_names=["a", "b", "c"])
    return model, X


def _check_terms(condition, lower, upper, names, binary):
    """Each term of one rule's condition against the rule's bounds in the data's units: a 0/1
    feature reads the values of {0, 1} its interval accepts (an interval only when it accepts
    neither), any other feature its interval. Returns how many terms read as values."""
    column = {name: j for j, name in enumerate(names)}
    as_values = 0
    terms = [] if condition == "TRUE" else condition.split(" AND ")
    assert len(terms) == (~np.isnan(lower)).sum()
    for term in terms:
        j = column[next(word for word in term.split() if word in column)]
        accepted = [str(v) for v in (0, 1) if lower[j] <= v <= upper[j]]
        if binary[j] and accepted:
            assert term == f"{names[j]} = {' or '.join(accepted)}"
            as_values += 1
        else:
            assert " = " not in term and ("<=" in term or ">=" in term), term
    return as_values


def test_conditions_on_0_1_features_read_as_values_in_every_rule_text(words):
    model, X = words
    binary = np.array([True] * 5 + [False])
    lower, upper = model.rule_bounds()
    rules = model.rules_frame()
    conditions = [text.removeprefix("IF ").split(" THEN ")[0] for text in rules["rule"]]
    as_values = [_check_terms(c, lo, hi, WORDS, binary)
                 for c, lo, hi in zip(conditions, lower, upper, strict=True)]
    assert sum(as_values) > 0 and any("num" in c for c in conditions)

    card = model.rule_set_.scorecard(X)
    assert card["condition"].tolist() == conditions  # the same words as the rules' texts

    explanation = model.rule_set_.explain(X[0])
    ids = explanation.rule_ids
    assert len(ids) > 0
    text = explanation.text()
    for i in ids[:20]:
        assert rules["rule"].iloc[i] in text


def test_hand_written_rules_on_0_1_features_read_word_equals_value(words):
    model, _ = words
    data = json.loads(model.to_json())
    rule_set = data["rule_set"]
    assert rule_set["binary"] == [True] * 5 + [False]
    rule_set["data_min"][5], rule_set["data_max"][5] = 0.0, 10.0
    rule_set.pop("knots", None)  # num's range set by hand: the min-max axis
    template = rule_set["rules"][0]
    rule_set["rules"] = [{**template, "condition": {
        "type": "hyperrectangle_csr",
        "center": [0.8, 0.2, 0.5, 0.4, None, 0.5],
        "spread": [0.3, 0.2, 0.5, 0.1, None, 0.1]}, "labelset": [1, 0, 0]}]
    rule_set["rule_ids"] = [7]
    rule_set["scorer"].update(coef=[[0.5, 0.0, -0.25]])
    loaded = MLRClassifier.from_json(json.dumps(data))
    condition = "w0 = 1 AND w1 = 0 AND w2 = 0 or 1 AND 0.3 <= w3 <= 0.5 AND 4 <= num <= 6"
    assert loaded.rules_frame()["rule"].to_dict() == {7: f"IF {condition} THEN {{a}}"}
    assert loaded.rule_set_.scorecard(np.array([[1, 0, 1, 0.4, 0, 5.0]]))["condition"].tolist() == [
        condition]
    explanation = loaded.rule_set_.explain(np.array([1, 0, 0, 0.4, 1, 5]))
    assert f"IF {condition} THEN {{a}}" in explanation.text()


def test_a_saved_model_keeps_which_features_are_0_1(words):
    model, X = words
    loaded = MLRClassifier.from_json(model.to_json())
    assert loaded.rule_set_.scaling.binary.tolist() == [True] * 5 + [False]
    assert loaded.rules_frame()["rule"].tolist() == model.rules_frame()["rule"].tolist()
    assert loaded.to_json() == model.to_json()


def test_genbase_rules_read_as_present_or_absent(shared_datasets_dir):
    """genbase: 1,185 0/1 motif features; every condition the rules print names a value."""
    data = load_dataset(shared_datasets_dir / "genbase.arff")
    model = MLRClassifier(n_rules=300, n_iter=2000, random_state=0, weighting="vote").fit(
        data.X, data.Y, feature_names=data.feature_names, label_names=data.label_names)
    binary = np.ones(data.X.shape[1], dtype=bool)
    lower, upper = model.rule_bounds()
    conditions = [text.removeprefix("IF ").split(" THEN ")[0]
                  for text in model.rules_frame()["rule"]]
    as_values = sum(_check_terms(c, lo, hi, data.feature_names, binary)
                    for c, lo, hi in zip(conditions, lower, upper, strict=True))
    assert as_values >= 0.9 * (~np.isnan(lower)).sum() > 0
    assert " = " in model.rule_set_.explain(data.X[0]).text()
