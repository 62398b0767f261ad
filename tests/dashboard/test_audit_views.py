"""The Rules and Explain pages' pure parts on a trained model: the table's order and filters,
exports that hold exactly the rules shown, the audit laid out, and the vote told in words (the
rule budget's parts: test_rule_budget.py)."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from apptest import started
from stepping import step

from dashboard import frames, rules_audit, vote_text
from mlr_core import MLRClassifier, TrainingSession, make_hypercube_dataset
from mlr_core import bipartition as bp


@pytest.fixture(scope="module")
def data():
    return make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0)


@pytest.fixture(scope="module")
def model(data):
    """A model scored by the paper's vote, as the dashboard trains it on request, on all rows
    but the last 60 (held out)."""
    return MLRClassifier(n_rules=300, random_state=0, weighting="vote").fit(data.X[:-60],
                                                                            data.Y[:-60])


@pytest.fixture(scope="module")
def rules(model, data):
    """The snapshot's rules frame: ``rules_frame()`` plus the session's ``labelset_id``."""
    labelsets = frames.Labelsets.of(data.Y, data.label_names)
    frame = model.rules_frame()
    frame["labelset_id"] = labelsets.ids_of(model.labelsets_)[model.population_.ls[:len(frame)]]
    return frame


def test_table_opens_with_trusted_rules_not_lucky_newcomers(rules):
    table = rules_audit.rules_table(rules, rules_audit.RuleFilters())
    assert len(table) == len(rules)
    trusted = table["trusted_accuracy"].to_numpy()
    assert (np.diff(trusted) <= 1e-12).all()
    assert (trusted <= table["accuracy"].to_numpy() + 1e-12).all()
    # a rule right on its few matches ranks below one nearly as accurate on many
    top = table.iloc[0]
    assert top["experience"] >= 10
    assert list(table.columns) == [*rules_audit.COLUMNS, *rules_audit.HIDDEN]


def test_filters_combine(rules):
    labelset = int(rules["labelset_id"].mode()[0])
    filters = rules_audit.RuleFilters(min_experience=20, min_numerosity=2,
                                      labelset_ids=(labelset,), text="x1")
    table = rules_audit.rules_table(rules, filters)
    assert 0 < len(table) < len(rules)
    assert (table["experience"] >= 20).all() and (table["numerosity"] >= 2).all()
    assert (table["labelset_id"] == labelset).all()
    assert table["rule"].str.contains("x1").all()
    expected = rules[(rules["experience"] >= 20) & (rules["numerosity"] >= 2)
                     & (rules["labelset_id"] == labelset) & rules["rule"].str.contains("x1")]
    assert set(table.index) == set(expected.index)


def test_exports_hold_exactly_the_rules_shown_in_their_order(model, rules, data):
    table = rules_audit.rules_table(rules, rules_audit.RuleFilters(min_experience=30))
    assert 0 < len(table) < len(rules)
    csv, model_json = rules_audit.exports(model, table)
    exported = pd.read_csv(io.StringIO(csv))
    assert exported["rule_id"].tolist() == table.index.tolist()
    assert exported["rule"].tolist() == table["rule"].tolist()
    assert "labelset_id" not in exported.columns
    assert list(exported.columns) == ["rule_id", *rules_audit.COLUMNS]
    loaded = MLRClassifier.from_json(model_json)
    assert len(json.loads(model_json)["rule_set"]["rules"]) == len(table)
    assert sorted(loaded.rules_frame()["rule"]) == sorted(table["rule"])
    assert loaded.predict(data.X[:5]).shape == (5, 3)


@pytest.fixture(scope="module")
def audited(model, data):
    n = len(data.X)
    return rules_audit.run_audit(model, data, np.arange(n - 60, n))


def test_audit_headline_and_tables(audited):
    labels = [label for label, _, _ in rules_audit.headline(audited)]
    assert labels == ["Rows some rule matches", "Deciding rules", "Rules deciding 50 / 80 / 90%",
                      "Pruned"]
    values = dict((label, value) for label, value, _ in rules_audit.headline(audited))
    s = audited.summary
    assert values["Deciding rules"] == f"{s['n_deciding']:,} of {s['n_rules']:,}"
    assert values["Pruned"] == f"{s['n_compact']:,} rules"
    assert s["n_rows"] == 240  # the training rows
    measures = rules_audit.measures_table(audited)
    assert list(measures.columns) == ["this model", "pruned", "deciding only"]
    assert measures.index.names == ["measure", "rows"]
    assert measures.index.get_level_values("rows").tolist() == ["train", "held-out"] * 8
    # the pruned set predicts as the audited model on the rows it was pruned on
    train = measures.xs("train", level="rows")
    assert (train["pruned"] == train["this model"]).all()
    held_out = measures.xs("held-out", level="rows")
    assert held_out.loc["Accuracy", "this model"] == audited.measures.loc[
        "accuracy", ("held-out", "full")]


def test_voters_table_shares_and_labelsets(model, data):
    exp = model.rule_set_.explain(data.X[3])
    table = vote_text.voters_table(exp)
    assert len(table) == len(exp.rule_ids) > 0
    assert table["vote_share"].sum() == pytest.approx(1.0)
    assert (np.diff(table["vote_share"].to_numpy()) <= 1e-12).all()
    by_id = model.rules_frame()["labelset"]
    assert table["labelset"].tolist() == by_id.loc[table["rule_id"]].tolist()
    # a label's score is the summed share of the voters backing it
    for label, score in exp.scores.items():
        backing = table["labelset"].map(lambda s, lab=label: lab in s.strip("{}").split(", "))
        assert table.loc[backing, "vote_share"].sum() == pytest.approx(score, abs=1e-9)


def test_vote_paragraph_names_the_answers_and_the_truth(model, data):
    exp = model.rule_set_.explain(data.X[3])
    truth = [name for name, bit in zip(data.label_names, data.Y[3], strict=True) if bit]
    text = vote_text.vote_paragraph(exp, 3, truth)
    assert text.startswith(f"{len(exp.rule_ids)} rules match instance #3")
    assert "{" + ", ".join(exp.agg_labels) + "}" in text
    assert "{" + ", ".join(exp.max_labels) + "}" in text
    assert f"MLR_agg cuts by {bp.words(exp.bipartition)}: {{" in text
    assert f"at least {exp.bipartition[1]}" in text
    assert "The true labelset is {" + ", ".join(truth) + "}" in text
    right = set(exp.agg_labels) == set(truth)
    assert ("MLR_agg is right" in text) == right
    top = vote_text.voters_table(exp).iloc[0]
    assert f"rule {top.rule_id}, backs {top.labelset}" in text
    assert "\n" not in text


def test_vote_paragraph_without_a_match_says_the_nearest_rules_voted(data):
    fresh = MLRClassifier(n_rules=50, random_state=0, weighting="vote")
    TrainingSession(fresh).start(data.X, data.Y)
    exp = fresh.rule_set_.explain(data.X[0])
    text = vote_text.vote_paragraph(exp, 0, ["L1"])
    assert text.startswith("No rule matches instance #0")


def test_verdicts_say_what_is_missed_and_what_is_added():
    assert vote_text._verdict("MLR_agg", ["a", "b"], ["b", "a"]) == "MLR_agg is right"
    assert vote_text._verdict("MLR_agg", ["b", "c", "d"], ["a", "b"]) == (
        "MLR_agg misses a and wrongly adds c, d")
    assert vote_text._verdict("MLR_max", [], ["a"]) == "MLR_max misses a"
    assert vote_text._verdict("MLR_max", ["c"], []) == "MLR_max wrongly adds c"


def test_explain_pages_labelsets_are_the_rules_own_for_compact_and_full_models():
    """The fitted-weights table of the Explain page (sample data, instance 7, as reported):
    each rule's labelset column is its THEN part, and its number and text are the full
    model's (the rules table's), for all rules and for a compact model of 20."""
    at = started()
    for _ in range(4):  # Steps until a budget of 20 drops rules (one sufficed on min-max's
        step(at)        # narrower rules; the rank axis's wider ones are fewer early on)
        if len(at.session_state["session"].snapshot().rules) > 19:
            break
    at = at.switch_page("views/explain.py").run()
    at.number_input(key="instance_index").set_value(7).run()
    at.toggle(key="fitted_weights").set_value(True).run()
    session = at.session_state["session"]
    assert session.split.dataset.name.startswith("hypercube_2d")
    rules = session.snapshot().rules
    assert len(rules) > 19  # a budget of 20 drops rules
    for choice in ("all", 20):
        at.get("segmented_control")[0].set_value(choice).run()
        assert not at.exception, [e.value for e in at.exception]
        table = next(d.value for d in at.dataframe if "towards the answer" in d.value.columns)
        assert len(table) > 0, choice
        then = table["rule"].str.rpartition(" THEN ")[2]
        assert then.tolist() == table["labelset"].tolist(), choice
        assert table["rule"].tolist() == rules.loc[table["rule_id"], "rule"].tolist(), choice
        caption = [c.value for c in at.caption]
        model = session.model_cache().fitted_model() if choice == "all" else \
            at.session_state["rules_audit"].models[20]
        assert model.rule_set_.prediction_text() in caption, choice
        assert model.rule_set_.scorer.squash.words in model.rule_set_.prediction_text()


def test_while_training_explain_shows_the_last_fitted_weights_at_once_and_says_so():
    """Training on: the fitted-weights explanation is the rules and weights of the last refit,
    shown without refitting on the click, the page naming their iteration; paused: the rules
    as they are, refitted."""
    at = started()
    step(at)  # Step: a curve point refits the weights
    session = at.session_state["session"]
    fitted_at = session.iteration
    session.learn(30)  # a live chunk: the rules moved on, the weights did not
    session.pacing.running = True
    at = at.switch_page("views/explain.py").run()
    at.toggle(key="fitted_weights").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(i.value for i in at.info)
    assert f"iteration {fitted_at:,} with the weights fitted to them then" in shown
    assert "training goes on" in shown
    assert session._started().model.rule_set_.iteration == fitted_at  # no refit on the click
    session.pacing.running = False
    at.run()
    shown = " ".join(i.value for i in at.info)
    assert f"at iteration {fitted_at + 30:,}" in shown and "training goes on" not in shown
    assert session._started().model.rule_set_.iteration == fitted_at + 30
