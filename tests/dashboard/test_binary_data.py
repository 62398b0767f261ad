"""0/1 features (words present or absent) read as values, not as intervals."""

import re

import numpy as np

from dashboard import choices, state
from dashboard.data_split import DataSplit
from mlr_core import Dataset
from mlr_core.rules import binary_features, condition_terms, condition_text


def test_binary_features_are_the_columns_of_zeros_and_ones_only():
    X = np.array([[0.0, 0.5, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    assert binary_features(X).tolist() == [True, False, True]
    assert binary_features(np.empty((0, 2))).tolist() == [False, False]


def test_a_condition_on_a_binary_feature_names_the_values_it_accepts():
    lower = np.array([0.0, 0.6, -0.2, 0.3, 0.2])
    upper = np.array([0.29, 1.0, 1.3, 0.5, 0.8])
    scaled_lower, scaled_upper = np.clip(lower, 0, 1), np.clip(upper, 0, 1)
    names = ["absent", "present", "either", "neither", "number"]
    binary = np.array([True, True, True, True, False])
    assert condition_text(condition_terms(lower, upper, scaled_lower, scaled_upper, names,
                                         binary)) == (
        "absent = 0 AND present = 1 AND either = 0 or 1 AND 0.3 <= neither <= 0.5 "
        "AND 0.2 <= number <= 0.8")
    assert condition_text(condition_terms(lower, upper, scaled_lower, scaled_upper, names)) == (
        "absent <= 0.29 AND present >= 0.6 AND either <= 1.3 AND 0.3 <= neither <= 0.5 "
        "AND 0.2 <= number <= 0.8")  # without the mask: the intervals, as before


def test_the_dashboard_shows_binary_conditions_as_values():
    rng = np.random.default_rng(0)
    X = (rng.random((200, 30)) < 0.2).astype(float)
    X[:, 0] = rng.random(200)  # one numeric feature among the words
    Y = np.column_stack([X[:, 1], X[:, 2], 1 - X[:, 1]]).astype(np.uint8)
    data = Dataset(X, Y, [f"w{j}" for j in range(30)], ["a", "b", "c"], name="words")
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 200})
    session.step(300)
    conditions = [c for rule in session.snapshot().rules["rule"]
                  for c in rule.removeprefix("IF ").split(" THEN ")[0].split(" AND ")]
    words = [c for c in conditions if re.search(r"\bw(?!0\b)\d+\b", c)]
    numeric = [c for c in conditions if re.search(r"\bw0\b", c)]
    assert words and numeric
    assert all(" = " not in c for c in numeric)
    assert sum(" = " in c for c in words) >= 0.9 * len(words)  # the rest accept neither value
