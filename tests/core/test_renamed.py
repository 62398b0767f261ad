"""Names that said two things, renamed (issue 35): each former name a user's code or a saved model
file holds still works, code with a FutureWarning, a file as it is."""

import json
import warnings

import numpy as np
import pytest
from sklearn.base import clone

from mlr_core import MLRClassifier, audit


@pytest.fixture(scope="module")
def fitted():
    r = np.random.default_rng(0)
    X = r.normal(size=(80, 3))
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] > 0]).astype(int)
    return MLRClassifier(n_rules=100, n_iter=1000, weighting="vote", max_by="fittest",
                         random_state=0).fit(X, Y), X


def test_max_rule_is_taken_as_max_by_with_a_warning():
    with pytest.warns(FutureWarning, match="max_rule is now max_by"):
        model = MLRClassifier(max_rule="fittest")
    assert model.get_params()["max_by"] == "fittest" and "max_rule" not in model.get_params()
    assert clone(model).max_by == "fittest"
    with pytest.warns(FutureWarning, match="max_rule is now max_by"):
        model.set_params(max_rule="vote")
    assert model.max_by == "vote"
    with pytest.raises(TypeError, match="give max_by alone"):
        MLRClassifier(max_rule="vote", max_by="vote")


def test_a_model_file_with_the_former_key_loads_as_it_was_saved(fitted):
    model, X = fitted
    data = json.loads(model.to_json())
    data["params"]["max_rule"] = data["params"].pop("max_by")
    voting = data["rule_set"]["voting"]
    voting["max_rule"] = voting.pop("max_by")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a file is read as it is, without a warning
        loaded = MLRClassifier.from_json(json.dumps(data))
    assert loaded.max_by == "fittest" and loaded.rule_set_.voting.max_by == "fittest"
    np.testing.assert_array_equal(loaded.predict(X, prediction="max"),
                                  model.predict(X, prediction="max"))
    assert loaded.to_json() == model.to_json()  # written again under the names of now


def test_rule_set_n_rules_is_rule_count_with_a_warning(fitted):
    rule_set = fitted[0].rule_set_
    with pytest.warns(FutureWarning, match="rule_count"):
        assert rule_set.n_rules == rule_set.rule_count == len(rule_set.rules_frame())


def test_the_audit_s_compact_is_trim_with_a_warning():
    with pytest.warns(FutureWarning, match="audit.trim"):
        from mlr_core.audit import compact
    assert compact is audit.trim
    with pytest.warns(FutureWarning, match="audit.Trimmed"):
        assert audit.Compaction is audit.Trimmed
    with pytest.raises(AttributeError):
        audit.no_such_name  # noqa: B018
