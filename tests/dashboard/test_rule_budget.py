"""The rule budget's pure parts on a session trained by the paper's vote (the dashboard's other
model, one click away; the default, fitted weights, is checked at the end): compact
models at each size with their held-out measures, kept per snapshot; the scorecard in each order
and as a file; and the charts (curve, heatmap, waterfall) read through ``fig.to_dict()``."""

import io
import threading
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from plotly_spec import values

from dashboard import choices, rule_budget, scorecard_figures, state
from dashboard.data_split import DataSplit
from mlr_core import MLRClassifier, make_hypercube_dataset
from mlr_core import scorecard as scorecard_file
from mlr_core.evaluation import measures
from mlr_core.rules import condition_text


@pytest.fixture(scope="module")
def session():
    """Six features: ``max_specified="auto"`` resolves to 6 with the vote, to 3 with fitted
    weights, so the fitted copy must keep the vote's limit to keep its rules."""
    data = make_hypercube_dataset(n_samples=400, n_relevant=2, n_irrelevant=4, n_labels=4,
                                  random_state=0)
    current = state.Session(DataSplit.of(data),
                            params={**choices.DEFAULT_PARAMS, "weighting": "vote"})
    current.step(3000)
    return current


@pytest.fixture(scope="module")
def budget(session):
    store = {}
    snap = session.snapshot()
    built = rule_budget.kept_or_built(store, session, snap)
    assert store[rule_budget.KEY] is built
    return built


def test_budgets_offer_only_sizes_that_drop_rules():
    assert rule_budget.budgets(1000) == [10, 20, 50, 100, 200]
    assert rule_budget.budgets(49) == [10, 20]
    assert rule_budget.budgets(3) == [10]
    assert rule_budget.sizes_text([10, 20, 50]) == "10, 20 and 50 rules"


def test_one_path_serves_every_size_and_is_kept_for_its_snapshot(session, budget):
    n = len(session.snapshot().rules)
    assert budget.sizes == rule_budget.budgets(n)
    for k, model in budget.models.items():
        assert model.weighting == "fitted" and budget.n_rules(k) <= k
    fitted = session.model_cache().fitted_model()  # compacted as a copy, outside the lock
    X = session.split.dataset.X
    assert budget.full is not fitted and np.array_equal(budget.full.predict_proba(X),
                                                        fitted.predict_proba(X))
    live = session.read_model(session.snapshot(), lambda m: m)
    assert budget.full.max_specified_ == live.max_specified_ == 6
    assert len(budget.full.rules_frame()) == n
    store = {rule_budget.KEY: budget}
    assert rule_budget.kept_or_built(store, session, session.snapshot()) is budget
    assert rule_budget.kept(store, object()) is None  # another snapshot: not this budget


def test_curve_holds_held_out_measures_of_each_model(session, budget):
    data, test = session.split.dataset, session.split.test_idx
    curve = budget.curve
    assert curve["model"].tolist() == [rule_budget.COMPACT] * len(budget.models) + [
        rule_budget.FULL, rule_budget.VOTE]
    for _, row in curve.iterrows():
        model = (budget.models[int(row["budget"])] if row["model"] == rule_budget.COMPACT
                 else budget.full if row["model"] == rule_budget.FULL
                 else session.read_model(session.snapshot(), lambda m: m))
        predicted = model.predict(data.X[test])
        assert row["accuracy"] == pytest.approx(measures.accuracy(data.Y[test], predicted))
        assert row["f1"] == pytest.approx(measures.f1(data.Y[test], predicted))
    n = len(session.snapshot().rules)
    assert curve.loc[curve["model"] == rule_budget.FULL, "rules"].item() == n + 1
    assert curve.loc[curve["model"] == rule_budget.VOTE, "rules"].item() == n


def test_scorecard_orders_and_file(session, budget):
    model = budget.models[20]
    X = session.split.dataset.X[session.split.train_idx]
    labels = session.split.dataset.label_names
    assert rule_budget.orders(labels)[-1] == f"weight for {labels[-1]}"
    pd.testing.assert_frame_equal(budget.card(20), model.rule_set_.scorecard(X))  # bound rows
    by_weight = rule_budget.scorecard(budget.card(20))
    assert list(by_weight.columns) == ["support", "coverage", *labels, "condition"]
    assert len(by_weight) == budget.n_rules(20) - 1
    strongest = by_weight[labels].abs().max(axis=1).to_numpy()
    assert (np.diff(strongest) <= 0).all()
    assert rule_budget.scorecard(budget.card(20), "most rows matched first")[
        "support"].is_monotonic_decreasing
    assert rule_budget.scorecard(budget.card(20), "rule id").index.is_monotonic_increasing
    by_label = rule_budget.scorecard(budget.card(20), f"weight for {labels[2]}")
    assert by_label[labels[2]].is_monotonic_decreasing
    assert sorted(by_label.index) == sorted(by_weight.index)
    # the file: the baseline first, then the rules in the order shown (as the page writes it)
    base = rule_budget.baseline(model)
    assert base.to_numpy() == pytest.approx(model.rule_weights_.intercept)
    written = scorecard_file.csv_of(model.rule_set_, budget.card(20), order=by_label.index)
    assert written == scorecard_file.to_csv(model.rule_set_, X, order=by_label.index)
    card = pd.read_csv(io.StringIO(written), comment="#")
    assert card["rule_id"].tolist() == ["baseline", *map(str, by_label.index)]
    weights = [f"weight: {label}" for label in labels]
    assert card.loc[0, weights].to_numpy(dtype=float) == pytest.approx(base.to_numpy())
    assert card.set_index("rule_id").loc[map(str, by_label.index), weights].to_numpy() == \
        pytest.approx(by_label[labels].to_numpy())
    # a row's scores are the baseline plus the weights of the rules matching it
    x = X[0]
    matching = model.rule_set_.explain(x).rule_ids
    expected = np.clip(base.to_numpy() + by_weight.loc[matching, labels].to_numpy().sum(axis=0),
                       0, 1)
    assert model.predict_proba(x[None, :])[0] == pytest.approx(expected)


def test_conditions_shortened():
    conditions = ("-0.257 <= Mean_Acc1298_Mean_Mem40_MFCC_8 <= 0.9599",
                  "Mean_Acc1298_Std_Mem40_Rolloff <= 0.2016", "x >= 3")
    short = rule_budget.short_condition(conditions, width=30)
    assert short == conditions[0][:29] + "… +2 more"
    assert rule_budget.short_condition(("x >= 3",)) == "x >= 3"
    assert rule_budget.short_condition(("rock AND roll >= 3",)) == "rock AND roll >= 3"
    assert rule_budget.short_condition(()) == "TRUE"


def test_the_table_lays_each_rule_out_from_its_own_conditions(budget):
    table = budget.table(20, "most rows matched first")
    pd.testing.assert_frame_equal(table.drop(columns="conditions"),
                                  rule_budget.scorecard(budget.card(20), "most rows matched first"))
    rules = budget.models[20].rule_set_
    assert [condition_text(c) for c in table["conditions"]] == table["condition"].tolist()
    assert dict(zip(table.index, table["conditions"], strict=True)) == dict(
        zip(rules.rule_ids, rules.rule_conditions(), strict=True))


def test_budget_curve_marks_the_chosen_budget_on_a_log_axis(budget):
    fig = scorecard_figures.budget_curve(budget.curve, 20).to_dict()
    lines = [t for t in fig["data"] if t["mode"] == "lines+markers"]
    assert [t["name"] for t in lines] == ["accuracy", "F1"]
    fitted = budget.curve[budget.curve["model"] != rule_budget.VOTE].sort_values("rules")
    assert values(lines[0]["x"]).tolist() == fitted["rules"].tolist()
    assert values(lines[1]["y"]) == pytest.approx(fitted["f1"].to_numpy())
    assert fig["layout"]["xaxis"]["type"] == "log"
    chosen = fig["data"][-1]
    assert chosen["name"] == "budget 20" and list(chosen["x"]) == [20, 20]


def test_heatmap_rows_are_the_table_and_every_label_is_named(session, budget):
    model = budget.models[20]
    table = budget.table(20, "most rows matched first")
    base = rule_budget.baseline(model)
    (trace,) = scorecard_figures.scorecard_heatmap(table, base).to_dict()["data"]
    labels = session.split.dataset.label_names
    assert list(trace["x"]) == labels
    assert trace["y"][0] == "baseline" and len(trace["y"]) == len(table) + 1
    assert [row.split(" · ")[0] for row in trace["y"][1:]] == [f"rule {i}" for i in table.index]
    z = values(trace["z"])
    assert z[0] == pytest.approx(base.to_numpy())
    assert z[1:] == pytest.approx(table[labels].to_numpy())
    assert trace["zmid"] == 0
    first = table.iloc[0]
    hover = trace["customdata"][1][0]
    assert f"matches {first.support:,} training rows" in hover
    assert hover.count("<br>") == max(len(first.conditions), 1)
    assert trace["texttemplate"]  # few labels: each cell prints its weight
    many = [f"label {j}" for j in range(27)]  # genbase's: 18 px cells beside its rules' names
    wide = pd.DataFrame(0.1, index=table.index, columns=many).assign(
        support=table["support"], coverage=table["coverage"], conditions=table["conditions"])
    (trace,) = scorecard_figures.scorecard_heatmap(
        wide, pd.Series(0.0, index=many)).to_dict()["data"]
    assert "texttemplate" not in trace and len(trace["x"]) == len(many)  # the hover gives them


def test_waterfall_ends_exactly_on_the_score(session, budget):
    data = session.split.dataset
    for model in (budget.models[10], budget.full):
        for row in range(0, len(data.X), 40):
            exp = model.rule_set_.explain(data.X[row])
            for label in data.label_names:
                fig = scorecard_figures.waterfall(exp, label, top=3).to_dict()
                (trace,) = fig["data"]
                x, measure = list(trace["x"]), list(trace["measure"])
                y = values(trace["y"]).tolist()
                assert x[0] == "baseline" and x[-1] == "score" and measure[-1] == "total"
                assert y[-1] == exp.scores[label]
                assert sum(y[:-1]) == pytest.approx(exp.scores[label], abs=1e-12)
                assert y[0] == exp.baseline[label]
                named = [name for name in x if name.startswith("rule ")]
                hovers = list(trace["customdata"])[1:len(named) + 1]
                assert all(h.startswith("IF   ") and "IF   IF" not in h for h in hovers)
                assert len(named) == min(3, len(exp.rule_ids))
                if len(exp.rule_ids) > 3:
                    assert x[len(named) + 1] == f"{len(exp.rule_ids) - 3} other rules"


def test_waterfall_shows_the_clip_to_zero():
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=1)
    model = MLRClassifier(n_rules=300, random_state=0).fit(data.X, data.Y,
                                                           label_names=data.label_names)
    rule_set = model.rule_set_.with_scorer(replace(model.rule_set_.scorer, link="clip"),
                                           model.rule_set_.bipartition)
    clipped = [(exp, label) for exp in map(rule_set.explain, data.X)
               for label in data.label_names
               if exp.baseline[label] + exp.match_set[f"contribution: {label}"].sum() < -1e-9]
    assert clipped, "no row's sum falls below zero on this data"
    exp, label = clipped[0]
    (trace,) = scorecard_figures.waterfall(exp, label).to_dict()["data"]
    y = values(trace["y"])
    assert trace["x"][-2] == "clipped to [0, 1]" and y[-1] == 0.0 and y[-2] > 0


def test_waterfall_of_log_odds_ends_on_their_total_and_names_the_score():
    """With the logistic link the bars add up log-odds; the last bar is their total, the
    title gives the score it makes, and the threshold is drawn at its log-odds."""
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=1)
    model = MLRClassifier(n_rules=300, random_state=0).fit(data.X, data.Y,
                                                           label_names=data.label_names)
    rule_set = model.rule_set_.with_scorer(replace(model.rule_set_.scorer, link="logistic"),
                                           ("threshold", 0.3))
    exp = rule_set.explain(data.X[0])
    label = data.label_names[0]
    figure = scorecard_figures.waterfall(exp, label).to_dict()
    (trace,) = figure["data"]
    y = values(trace["y"])
    total = exp.baseline[label] + exp.match_set[f"contribution: {label}"].sum()
    assert trace["x"][-1] == "log-odds" and np.isclose(y[-1], total)
    assert f"score {exp.scores[label]:.3f}" in figure["layout"]["title"]["text"]
    (line,) = figure["layout"]["shapes"]
    assert np.isclose(line["y0"], np.log(0.3 / 0.7))
    assert "threshold 0.30" in figure["layout"]["yaxis"]["title"]["text"]
    assert not figure["layout"].get("annotations")  # no label over the bars


def test_on_the_default_model_the_vote_row_is_the_same_rules_voting():
    """Training the library's default, the budget's 'paper's vote' row scores the very rules by
    the vote (a copy), and 'all rules, fitted weights' predicts as the model being trained."""
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_irrelevant=2, n_labels=3,
                                  random_state=1)
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 300})
    session.step(1500)
    budget = rule_budget.kept_or_built({}, session, session.snapshot())
    test = session.split.test_idx
    vote = session.model_cache().vote_model()
    live = session.read_model(session.snapshot(), lambda m: m)
    assert vote.weighting == "vote" and live.weighting == "fitted"
    assert len(vote.rules_frame()) == len(live.rules_frame())
    row = budget.curve.set_index("model").loc[rule_budget.VOTE]
    assert row["accuracy"] == pytest.approx(
        measures.accuracy(data.Y[test], vote.predict(data.X[test])))
    full = budget.curve.set_index("model").loc[rule_budget.FULL]
    assert full["accuracy"] == pytest.approx(
        measures.accuracy(data.Y[test], live.predict(data.X[test])))


def test_the_scorecard_table_shows_the_label_weights_that_fit_its_sorting_label_first():
    labels = ["a", "b", "c", "d"]
    assert rule_budget.labels_that_fit(labels, 2) == ["a", "b"]
    assert rule_budget.labels_that_fit(labels, 2, first="d") == ["d", "a"]
    assert rule_budget.labels_that_fit(labels, 0, first="c") == ["c"]  # one at least
    assert rule_budget.sorted_by_label("weight for c", labels) == "c"
    assert rule_budget.sorted_by_label("rule id", labels) is None


def test_rule_kinds_say_when_the_evolved_rules_weigh_nothing():
    from dashboard import pages

    assert pages.rule_kinds(35, 16) == (
        "35 evolved rules and 16 one-condition rules (`x = 1` on a 0/1 feature or a step at a "
        "decile of a numeric one, added by the rule weights' fit)")
    alone = pages.rule_kinds(35, 16, "the baseline", alone=True)
    assert alone.startswith("35 evolved rules (weighing 0: the weights' fit found they add "
                            "nothing to the one-condition rules), 16 one-condition rules")
    assert alone.endswith(" and the baseline")


def _default_session(seed: int = 2):
    """The library's default (fitted weights), paused with its weights current."""
    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_irrelevant=2, n_labels=3,
                                  random_state=seed)
    session = state.Session(DataSplit.of(data), params={**choices.DEFAULT_PARAMS, "n_rules": 300})
    session.step(1000)
    session.model_cache().fitted_model()  # the weights fitted, as a curve point leaves them
    return session


def test_a_prefetched_budget_is_made_once_outside_the_lock_and_served_to_the_click(monkeypatch):
    """A paused Rules page begins the budget in a thread of its own: the session's lock stays
    free meanwhile (Start, Step and the other pages do not wait for it), and "Compact and
    audit" waits for that very budget instead of making another."""
    session = _default_session()
    snap = session.snapshot()
    assert session.weights_at_hand()
    made, entered, release = [], threading.Event(), threading.Event()
    build = rule_budget.build

    def held_build(*args):
        made.append(threading.current_thread().name)
        entered.set()
        assert release.wait(60), "the test never let the build go on"
        return build(*args)
    monkeypatch.setattr(rule_budget, "build", held_build)
    rule_budget.prefetch(session, snap)
    assert entered.wait(60), "the prefetch never began"
    acquired = session._lock.acquire(timeout=60)  # free while the budget is being made
    assert acquired
    session._lock.release()
    rule_budget.prefetch(session, snap)  # a second visit begins nothing more
    release.set()
    store = {}
    budget = rule_budget.kept_or_built(store, session, snap)
    assert made == ["mlr-rule-budget"] and store[rule_budget.KEY] is budget
    k = rule_budget.first_shown(budget.sizes)
    assert k in budget.audits and k in budget.cards  # what the click shows first, made too
    session.step(200)  # the model moved on: a new budget, and the kept one is not served
    assert rule_budget.kept(store, session.snapshot()) is None
    assert rule_budget.kept_or_built(store, session, session.snapshot()) is not budget
    assert len(made) == 2


def test_no_prefetch_without_current_fitted_weights(monkeypatch):
    """Weights older than the rules (training went on without a curve point) would be refitted
    under the model's lock: the page then leaves the work to the click."""
    session = _default_session(3)
    session.learn(50)  # the rules changed, the weights did not
    assert not session.weights_at_hand()
    began = []
    monkeypatch.setattr(rule_budget, "_making", lambda *args: began.append(args))
    rule_budget.prefetch(session, session.snapshot())
    assert began == []


def test_an_error_while_prefetching_reaches_the_click(monkeypatch):
    session = _default_session(4)

    def broken(*args):
        raise MemoryError("no room for the budget")
    monkeypatch.setattr(rule_budget, "build", broken)
    rule_budget.prefetch(session, session.snapshot())
    with pytest.raises(MemoryError, match="no room"):
        rule_budget.kept_or_built({}, session, session.snapshot())
