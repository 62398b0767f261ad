"""The rule audit: which rule decides each prediction (checked against ``explain``), the coverage
curve, compaction (same predictions on the compacted data; removed rules never decided) and the
exports of a filtered rules table."""

import html
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from mlr_core import MLRClassifier, compaction, load_dataset
from mlr_core.audit import (
    audit,
    coverage_curve,
    deciding_rules,
    export_rules,
    filter_rules,
    order_rules,
    row_rules,
    rows_matched,
    rule_decisions,
    rules_needed,
    trim,
    trusted_accuracy,
)
from mlr_core.errors import InputError
from mlr_core.rules import labelset_text

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "hypercube_2d.csv"

# name -> (data, MLRClassifier parameters; the vote unless said); between them they exercise
# both predictions, both MLR_max rules, voting restricted to experienced rules, rows no rule
# matches and MLR_agg with fitted rule weights
CASES = {
    "sample-fitted": ("sample", dict(n_iter=20_000, weighting="fitted")),
    "emotions-fitted": ("emotions", dict(n_iter=20_000, weighting="fitted")),
    "sample-agg": ("sample", dict(n_iter=20_000)),
    "sample-max": ("sample", dict(n_iter=20_000, prediction="max")),
    "emotions-agg": ("emotions", dict(n_iter=20_000)),
    "emotions-fittest": ("emotions", dict(n_iter=20_000, prediction="max", max_by="fittest")),
    "emotions-experienced": ("emotions", dict(n_iter=20_000, min_vote_experience=10)),
    # on the min-max axis, where some of these 300 narrow rules never decide (on the rank axis
    # each training row's own rule is its nearest, and every rule decides)
    "emotions-uncovered": ("emotions", dict(n_iter=300, p_hash=0.0, max_specified=20, r0=0.3,
                                            axis="minmax")),
}


@pytest.fixture(scope="module")
def datasets(shared_datasets_dir):
    return {"sample": load_dataset(SAMPLE),
            "emotions": load_dataset(shared_datasets_dir / "emotions.arff")}


@pytest.fixture(scope="module")
def fitted(datasets):
    """``fitted(name, **params)``: ``MLRClassifier(random_state=0, **params)`` fitted on all of
    dataset ``name``, once per module (tests that ask for the same model share it; none
    changes it)."""
    models = {}

    def fit(name: str, **params) -> MLRClassifier:
        key = (name, tuple(sorted(params.items())))
        if key not in models:
            data = datasets[name]
            models[key] = MLRClassifier(random_state=0, **params).fit(
                data.X, data.Y, feature_names=data.feature_names, label_names=data.label_names)
        return models[key]

    return fit


@pytest.fixture(scope="module", params=list(CASES))
def case(request, datasets, fitted):
    name, params = CASES[request.param]
    return request.param, fitted(name, **{"weighting": "vote", **params}), datasets[name]


def contribution_to_prediction(explanation, predicted, model, label_names):
    """Each voter's weight and contribution to the predicted labels, from ``explain``'s table."""
    voters, mode = explanation.match_set, model.prediction
    share = voters[[f"contribution: {n}" for n in label_names]].to_numpy()
    if model.weighting == "fitted" and mode == "agg":  # the rules' label weights
        return share @ (2.0 * predicted - 1.0), np.abs(share).sum(axis=1)
    weight = (voters["fitness"] * voters["numerosity"]).to_numpy()
    if mode == "max":
        return weight * (voters["labelset"] == labelset_text(predicted, label_names)), weight
    return weight * ((share > 0) & (predicted > 0)).sum(axis=1), weight


def test_each_row_is_decided_by_its_voter_of_largest_contribution(case):
    name, model, data = case
    decided = deciding_rules(model, data.X)
    assert decided.shape == (len(data.X),) and (decided >= 0).all()
    predicted = model.predict(data.X)
    for r in np.random.default_rng(0).choice(len(data.X), 25, replace=False):
        explanation = model.rule_set_.explain(data.X[r])
        assert decided[r] in explanation.rule_ids
        contribution, weight = contribution_to_prediction(
            explanation, predicted[r], model, data.label_names)
        if not contribution.any():
            contribution = weight
        best = contribution.max()
        winners = explanation.rule_ids[np.isclose(contribution, best, rtol=1e-9, atol=0)]
        assert decided[r] in winners, name


def test_compaction_keeps_predictions_and_drops_only_rules_that_never_decide(case):
    name, model, data = case
    decided = deciding_rules(model, data.X)
    result = trim(model, data.X)
    np.testing.assert_array_equal(result.model.predict(data.X), model.predict(data.X))
    removed = np.setdiff1d(np.arange(len(model.rules_frame())), result.kept)
    assert not np.isin(removed, decided).any()
    np.testing.assert_array_equal(result.deciding, np.unique(decided))
    assert len(result.kept) < len(model.rules_frame()), name
    full_rules = model.rules_frame()
    kept_rules = result.model.rules_frame()
    assert kept_rules["rule"].tolist() == full_rules["rule"].iloc[result.kept].tolist()
    np.testing.assert_array_equal(kept_rules["numerosity"], full_rules["numerosity"].iloc[
        result.kept])


def test_fitted_compaction_drops_light_rules_that_putting_back_would_keep(datasets, fitted):
    """With fitted weights, dropping the lightest rules while predictions hold keeps far fewer
    rules than growing from the deciding ones (measured: 45 against 192 of 289, README)."""
    data = datasets["sample"]
    model = fitted("sample", n_iter=20_000, weighting="fitted")
    result = trim(model, data.X)
    np.testing.assert_array_equal(result.model.predict(data.X), model.predict(data.X))
    assert len(result.kept) < 0.4 * len(model.rules_frame())


def test_deciding_rules_alone_are_exactly_the_deciders(case):
    _, model, data = case
    decided = deciding_rules(model, data.X)
    alone = trim(model, data.X, keep_predictions=False)
    np.testing.assert_array_equal(alone.kept, np.unique(decided))
    assert len(alone.restored) == 0
    assert len(alone.model.rules_frame()) == len(np.unique(decided))


def test_put_back_rules_are_needed_somewhere(datasets, fitted):
    # on emotions with MLR_agg the deciding rules alone change predictions; compaction must
    # then have put rules back, or the identical-predictions check above would be vacuous
    data = datasets["emotions"]
    model = fitted("emotions", n_iter=20_000, weighting="vote")
    alone = trim(model, data.X, keep_predictions=False)
    assert (alone.model.predict(data.X) != model.predict(data.X)).any(axis=1).sum() >= 10
    assert len(trim(model, data.X).restored) > 0


def test_rule_counts_agree_with_explain(case):
    name, model, data = case
    rows = row_rules(model, data.X)
    table = rule_decisions(model, data.X, rows=rows)
    assert table["n_decided"].sum() == len(data.X)
    assert (table["n_decided"] <= table["n_voted"]).all()
    assert table["n_decided"].is_monotonic_decreasing
    voted = np.zeros(len(table), dtype=np.int64)
    for x in data.X[:25]:
        voted[model.rule_set_.explain(x).rule_ids] += 1
    partial = rule_decisions(model, data.X[:25])
    np.testing.assert_array_equal(partial.sort_index()["n_voted"], voted)
    if model.min_vote_experience == 0:
        covered = rows.covered
        # a covered row's voters are its match set
        assert all(np.array_equal(rows.voters(r), rows.match_ids[rows.match_start[r]:
                                                                 rows.match_start[r + 1]])
                   for r in np.flatnonzero(covered))
    assert rows.covered.mean() == pytest.approx(model.coverage(data.X))
    if name == "emotions-uncovered":
        assert not rows.covered.all()


def test_coverage_curve(case):
    _, model, data = case
    rows = row_rules(model, data.X)
    decided = deciding_rules(model, data.X, rows=rows)
    table = rule_decisions(model, data.X, rows=rows, decided=decided)
    curve = coverage_curve(table, rows, decided)
    assert len(curve) == len(table)
    assert curve["covered"].is_monotonic_increasing and curve["decided"].is_monotonic_increasing
    np.testing.assert_allclose(curve["decided"], table["n_decided"].cumsum() / len(data.X))
    assert curve["covered"].iloc[-1] == pytest.approx(rows.covered.mean())
    assert curve["decided"].iloc[-1] == 1.0
    k = rules_needed(curve, "decided", 0.8)
    assert curve["decided"].iloc[k - 1] >= 0.8 and (k == 1 or curve["decided"].iloc[k - 2] < 0.8)
    # the first k rules match what the curve says
    top = table.index[:k].to_numpy()
    matched = np.zeros(len(data.X), dtype=bool)
    for r in range(len(data.X)):
        ids = rows.match_ids[rows.match_start[r]:rows.match_start[r + 1]]
        matched[r] = np.isin(ids, top).any()
    assert curve["covered"].iloc[k - 1] == pytest.approx(matched.mean())


def test_audit_puts_it_together(datasets):
    data = datasets["emotions"]
    train, test = slice(0, 400), slice(400, None)
    model = MLRClassifier(random_state=1, n_iter=20_000, weighting="vote")
    model.fit(data.X[train], data.Y[train])
    result = audit(model, data.X[train], data.Y[train], data.X[test], data.Y[test])
    s = result.summary
    assert s["n_rows"] == 400 and s["n_rules"] == len(model.rules_frame())
    assert s["n_compact"] == len(result.compaction.kept) == int(result.rules["kept"].sum())
    assert s["n_deciding"] == len(result.deciding.kept) == int((result.rules["n_decided"] > 0)
                                                               .sum())
    assert s["rules_for_50"] <= s["rules_for_80"] <= s["rules_for_90"] <= s["n_deciding"]
    assert 0 < s["deciding_agreement"] < 1
    m = result.measures
    assert list(m.columns.get_level_values(0).unique()) == ["audited", "held-out"]
    # identical predictions on the audited rows give identical measures there
    pd.testing.assert_series_equal(m[("audited", "full")], m[("audited", "compact")],
                                   check_names=False)
    assert m.loc["hamming_loss", ("held-out", "full")] == pytest.approx(
        np.mean(model.predict(data.X[test]) != data.Y[test]))
    # the training rows the model has bound, read where they are: the same audit
    bound = audit(model, X_test=data.X[test], Y_test=data.Y[test])
    assert bound.summary == s
    pd.testing.assert_frame_equal(bound.rules, result.rules)
    pd.testing.assert_frame_equal(bound.measures, result.measures)
    with pytest.raises(InputError, match="No training rows are bound"):
        audit(MLRClassifier.from_json(model.to_json()))


def test_the_audit_says_why_macro_f1_reads_higher_where_labels_are_absent(datasets):
    """Macro-F1 counts a label no row holds and none is predicted as 1: on mediamill_small's
    held-out rows the dashboard's audit read 0.291 against 0.064 on the training rows, and said
    nothing of why."""
    from mlr_core.audit_report import report_html

    data = datasets["emotions"]
    train, test = slice(0, 400), slice(400, None)
    model = MLRClassifier(random_state=1, n_iter=5_000).fit(data.X[train], data.Y[train])
    result = audit(model, data.X[train], data.Y[train], data.X[test], data.Y[test])
    assert result.absent_labels == {"audited": 0, "held-out": 0} and result.n_labels == 6
    assert result.macro_f1_note() == ""
    held = data.Y[test].copy()
    held[:, [1, 4]] = 0  # two labels no held-out row holds
    result = audit(model, data.X[train], data.Y[train], data.X[test], held)
    assert result.absent_labels == {"audited": 0, "held-out": 2}
    note = result.macro_f1_note({"audited": "training"})
    assert "each of the 6 labels" in note
    assert "0 from the training rows and 2 from the held-out rows" in note
    assert html.escape(result.macro_f1_note()) in report_html(result)


def test_the_audit_of_a_compact_model_names_rules_by_the_full_models_ids(datasets, fitted):
    data = datasets["sample"]
    small = compaction.compact(fitted("sample", n_iter=20_000, weighting="fitted"), 20)
    ids = small.rule_set_.rule_ids
    assert ids.max() >= len(ids)  # not 0..k-1, so a mix-up of ids and positions shows
    result = audit(small, data.X)
    assert sorted(result.rules.index) == ids.tolist()
    assert set(result.curve["rule_id"]) == set(ids)
    assert set(result.compaction.kept) <= set(ids) and set(result.deciding.kept) <= set(ids)
    assert small.subset(result.compaction.kept).rules_frame().index.tolist() == \
        result.compaction.kept.tolist()
    np.testing.assert_array_equal(result.compaction.model.predict(data.X), small.predict(data.X))
    matched = rows_matched(small, data.X)
    np.testing.assert_array_equal(matched, result.rules.sort_index()["n_matched"])
    np.testing.assert_array_equal(matched, small.rule_set_.scorecard(data.X)["support"])
    decided = deciding_rules(small, data.X)
    assert set(decided) <= {-1, *ids}
    for r in np.flatnonzero(decided >= 0)[::50]:
        assert decided[r] in small.rule_set_.explain(data.X[r]).rule_ids
    voted = pd.Series(0, index=ids)
    for x in data.X[:25]:
        voted[small.rule_set_.explain(x).rule_ids] += 1
    np.testing.assert_array_equal(rule_decisions(small, data.X[:25]).sort_index()["n_voted"],
                                  voted.to_numpy())


def test_order_filter_and_exports_honour_the_table(fitted):
    model = fitted("sample", n_iter=20_000, weighting="vote")
    frame = model.rules_frame()
    ordered = order_rules(frame)
    assert ordered["trusted_accuracy"].is_monotonic_decreasing
    assert sorted(ordered.index) == list(frame.index)
    np.testing.assert_allclose(
        ordered["trusted_accuracy"],
        trusted_accuracy(ordered["accuracy"].to_numpy(), ordered["experience"].to_numpy()))
    # the rules of little experience do not open the list
    assert ordered["experience"].head(10).min() > frame["experience"].median()
    shown = filter_rules(ordered, min_experience=50)
    assert 0 < len(shown) < len(frame) and (shown["experience"] >= 50).all()
    csv_text, json_text = export_rules(model, shown)
    back = pd.read_csv(io.StringIO(csv_text))
    assert back["rule_id"].tolist() == shown.index.tolist()
    assert back["rule"].tolist() == shown["rule"].tolist()
    assert "conditions" not in back.columns  # the text holds them; a tuple is no CSV cell
    loaded = MLRClassifier.from_json(json_text)
    assert loaded.rules_frame()["rule"].tolist() == frame["rule"].loc[
        sorted(shown.index)].tolist()
    assert loaded.rules_frame().index.tolist() == sorted(shown.index)  # the same ids
    assert json.loads(json_text)["params"] == json.loads(model.to_json())["params"]
    with pytest.raises(InputError, match="rule_id"):
        export_rules(model, shown.reset_index(drop=True))


@pytest.mark.parametrize(("successes", "trials"), [(1, 1), (7, 8), (270, 300), (0, 5), (40, 40)])
def test_trusted_accuracy_is_wilsons_lower_bound(successes, trials):
    expected = binomtest(successes, trials).proportion_ci(method="wilson").low
    assert trusted_accuracy([successes / trials], [trials])[0] == pytest.approx(expected)


def test_a_rule_never_tested_is_not_trusted():
    assert trusted_accuracy([1.0], [0])[0] == 0.0
