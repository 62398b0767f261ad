"""Explain an instance: which rules matched it, how they voted, and whether the answer was right;
then, on request, the same instance under fitted weights (all rules or a compact model), its
score built up as the baseline plus each matching rule's contribution."""

import numpy as np
import pandas as pd
import streamlit as st

from dashboard import (
    figures,
    frames,
    pages,
    rule_budget,
    scorecard_figures,
    sparse_features,
    state,
    tables,
    ui,
    vote_text,
)
from dashboard.markdown_text import literal

TABLE_FEATURES = 8  # the picker table shows the first few features; all are below the answer
FULL = "all"  # the fitted model of all rules, beside the compact models' budgets
#: The fitted-weights switch as last set: kept when the page (and its widget) is left, and
#: when the data change.
FITTED_CHOICE = "explain_fitted_choice"


def _fitted_choice() -> None:
    st.session_state[FITTED_CHOICE] = st.session_state["fitted_weights"]


@ui.shielded_callback("selecting the instance")
def _picked_by_index() -> None:
    ui.session().selection.select(st.session_state["instance_index"])


@ui.shielded_callback("selecting the instance")
def _picked_in_table() -> None:
    rows = st.session_state["instance_table"].selection.rows
    if rows:
        ui.session().selection.select(rows[0])


def picker(session: state.Session) -> int:
    """Choose the instance by index or from the table (the Population page's click also sets it)."""
    data = session.split.dataset
    st.session_state["instance_index"] = session.selection.index
    st.number_input("Instance index", 0, data.X.shape[0] - 1, key="instance_index",
                    on_change=_picked_by_index, width=220,
                    help="Or click a point on the Population page, or a row in the table below.")
    with st.expander("Pick from the table", icon=":material/table:", key="explain_pick",
                     on_change="rerun") as box:
        if not box.open:  # drawn only when opened: a table of every row, at every click
            return session.selection.index
        table = frames.feature_table(sparse_features.leading_columns(data.X, TABLE_FEATURES),
                                     data.feature_names[:TABLE_FEATURES],
                                     (data.categories or ())[:TABLE_FEATURES])
        labelsets = session.split.labelsets
        table.insert(0, "labelset", [labelsets.names[i] for i in labelsets.of_instance])
        table.insert(1, "split", np.where(np.isin(np.arange(len(table)), session.split.test_idx),
                                          "held-out", "training"))
        st.dataframe(table, key="instance_table", on_select=_picked_in_table,
                     selection_mode="single-row", height=260,
                     column_config=tables.fit_columns(table))
    return session.selection.index


def verdict(labels: list[str], truth: list[str]) -> str:
    """``{a, c}`` followed by right, or what it misses and adds, against the true labelset."""
    text = vote_text.braces(labels)
    wrong = vote_text.mistakes(labels, truth)
    if not wrong:
        return f"{text} :green[:material/check_circle: right]"
    return f"{text} :red[:material/cancel: {wrong}]"


def voters(session: state.Session, exp, index: int) -> None:
    """Each voter with its labelset and share of the vote; the chosen row's rule in full."""
    table = vote_text.voters_table(exp)
    st.markdown("**Voting rules**" + (" (nearest, none matched)" if exp.fallback else " [M]")
                + " · select a row to read its rule in full")
    shown = table[vote_text.VOTER_SHOWN]
    event = st.dataframe(
        shown, hide_index=True, key=f"voters-{index}", on_select="rerun",
        selection_mode="single-row",
        height=tables.height_for(len(table), 420),
        column_config=tables.fit_columns(shown, index=False, within=tables.PAGE_PX,
                                         selectable=True, config={
            "rule_id": st.column_config.NumberColumn("rule", format="%d"),
            "labelset": st.column_config.TextColumn("labelset (its vote)"),
            "vote_share": st.column_config.ProgressColumn(
                "share of the vote", format="percent", min_value=0.0, max_value=1.0,
                help="fitness × numerosity over the whole vote"),
            "fitness": st.column_config.NumberColumn(format="%.3f"),
            "accuracy": st.column_config.NumberColumn(format="%.3f"),
            "rule": st.column_config.TextColumn("rule (select the row for all of it)"),
        }))
    if table.empty:
        return
    chosen, selected = tables.selected_row(table, event)
    st.markdown(f"**Rule {chosen.rule_id}** in full ({'selected' if selected else 'the strongest'}"
                f" voter: {vote_text.share_text(chosen.vote_share)} of the vote, fitness "
                f"{chosen.fitness:.3f} (accuracy {chosen.accuracy:.3f}), numerosity "
                f"{chosen.numerosity}, experience {chosen.experience})")
    ui.rule_in_full(chosen)
    with st.expander("The engine's own report (explain().text())", icon=":material/notes:",
                     key="explain_report", on_change="rerun") as box:
        if box.open:
            st.code(exp.text(), language=None, wrap_lines=True)


def contributions_table(exp, label_names, label: str) -> pd.DataFrame:
    """The matching rules under fitted weights, the strongest push towards the answer first:
    what each adds to ``label``'s score (the waterfall's bar for it), and what it adds to the
    predicted labels' scores minus what it adds to the others' (a sum over every label)."""
    weights = exp.match_set[[f"contribution: {n}" for n in label_names]].to_numpy()
    predicted = np.isin(label_names, exp.agg_labels)
    table = pd.DataFrame({
        "rule_id": exp.match_set["rule_id"].to_numpy(),
        "to the label": weights[:, list(label_names).index(label)],
        "towards the answer": weights @ np.where(predicted, 1.0, -1.0),
        "labelset": exp.match_set["labelset"].to_numpy(),
        "rule": exp.match_set["rule"].to_numpy(),
        "conditions": exp.match_set["conditions"].to_numpy(),
    })
    return table.sort_values("towards the answer", ascending=False, kind="stable")


def scored_by(session: state.Session, snap: state.Snapshot, choice, index: int):
    """(the instance's explanation, what explains it in words, the iteration of its rules) for
    the choice: all rules with fitted weights, or the compact model of a budget (the tab's rule
    budget, shared with the Rules page). While training, all rules are those the weights were
    last fitted to, at once (a refit takes seconds on large data, and the next curve point
    makes it anyway)."""
    n = len(snap.rules)
    if choice == FULL:
        last = session.points.last_fitted() if session.pacing.running else None
        if last is not None and last.iteration != snap.iteration:
            return (last.explain(session.split.dataset.features([index])),
                    f"the rules of iteration {last.iteration:,} with the weights fitted to them "
                    "then (training goes on: the weights are refitted at each curve point, and "
                    "here to the rules as they are once you pause)", last.iteration)
        cache = session.model_cache()
        with st.spinner("Fitting one weight per rule and label (a ridge regression, then a "
                        "logistic calibration of the scores): about 0.6 s on yeast and 2.5 s "
                        "on ohsumed's words (2 cores)…"):
            explanation = cache.explain_fitted(index)
        with cache.lock:  # counted after the fit: on 0/1 data it adds one-condition rules
            rules = cache.fitted_model().rule_set_
        which = f"all {rules.rule_count:,} rules with fitted weights"
        if rules.n_feature_rules:
            kinds = pages.rule_kinds(rules.n_evolved, rules.n_feature_rules,
                                     alone=rules.feature_rules_alone)
            which += f": {kinds}"
        return explanation, which, snap.iteration
    sizes = rule_budget.budgets(n)
    with st.spinner(rule_budget.WHY.format(sizes=rule_budget.sizes_text(sizes))):
        budget = rule_budget.kept_or_built(st.session_state, session, snap)
    shown = budget.n_rules(choice)
    return (budget.models[choice].rule_set_.explain(session.split.dataset.features([index])),
            f"a compact model of {shown} rules ({shown - 1} of the {n:,} rules and the "
            "baseline, weights refitted)", snap.iteration)


def fitted_weights(session: state.Session, index: int) -> None:
    """The same instance scored as the library scores it: fitted rule weights, on all rules or a
    compact model, the answer built up as the baseline plus each matching rule's weight."""
    st.markdown("#### With fitted rule weights (the library's scoring)")
    st.caption("Above, the rules are scored by the paper's vote. `MLRClassifier()` in Python "
               "(and the Train page's default model) keeps the same rules but gives each a "
               "weight per label, fitted on the training split by ridge regression: a "
               "label's score is the baseline plus the weights of the matching rules. A "
               "compact model keeps k of the rules (the baseline counted) and refits them, as "
               "the Rules page's rule budget does.")
    if not st.toggle("Fit the rule weights to these rules", key="fitted_weights",
                     value=st.session_state.get(FITTED_CHOICE, False), on_change=_fitted_choice):
        return
    snap = session.snapshot()
    if snap.rules.empty:
        st.caption("No rules yet: train the model first.")
        return
    choices = [FULL, *rule_budget.budgets(len(snap.rules))]
    if st.session_state.get("explain_model") not in choices:  # first time, or fewer rules now
        st.session_state["explain_model"] = FULL
    choice = st.segmented_control(
        "Scored by", choices, key="explain_model",
        format_func=lambda c: "all rules" if c == FULL else f"{c} rules",
        help="A compact model of at most that many rules (the baseline counted).")
    exp, which, iteration = scored_by(session, snap, FULL if choice is None else choice, index)
    data = session.split.dataset
    truth = [name for name, bit in zip(data.label_names, data.Y[index], strict=True) if bit]
    st.info(f"**Shown: {which}**, made from the rules at iteration {iteration:,}.",
            icon=":material/model_training:")
    st.markdown(f"**MLR_agg with fitted weights**  \n{verdict(exp.agg_labels, truth)}")
    st.caption(exp.how)
    st.plotly_chart(
        figures.label_scores(data.label_names, exp.scores.to_numpy(),
                             exp.bipartition.line, np.isin(data.label_names, exp.agg_labels),
                             data.Y[index],
                             fitted=True),
        key="fitted_label_scores",
    )
    if exp.fallback:
        st.info("No rule matches this instance: the baseline (each label's intercept) "
                "answered.", icon=":material/info:")
    names = list(data.label_names)
    strongest = names[int(np.argmax(exp.scores.to_numpy()))]
    label = st.selectbox("Build up the score of", names, index=names.index(strongest),
                         key="waterfall_label")
    st.plotly_chart(scorecard_figures.waterfall(exp, label), key="waterfall")
    if exp.fallback:
        return
    contributions = contributions_table(exp, data.label_names, label)
    st.markdown(f"**Matching rules** · *to {literal(label)}*: the rule's bar in the waterfall "
                "above; *towards the answer*: summed over every label, its weights for the "
                "predicted labels minus those for the others · select a row to read its rule in "
                "full")
    shown = contributions.drop(columns="conditions")
    event = st.dataframe(
        shown, hide_index=True, key=f"fitted-{index}", on_select="rerun",
        selection_mode="single-row", height=tables.height_for(len(exp.rule_ids), 320),
        column_config=tables.fit_columns(shown, index=False, within=tables.PAGE_PX,
                                         selectable=True,
                                         config={
            "rule_id": st.column_config.NumberColumn("rule", format="%d"),
            "to the label": st.column_config.NumberColumn(
                f"to {label}", format="%+.3f",
                help=f"what the rule adds to {literal(label)}'s score"),
            "towards the answer": st.column_config.NumberColumn(
                format="%+.3f", help="its weights for the predicted labels minus "
                "its weights for the others"),
            "rule": st.column_config.TextColumn("rule (select the row for all of it)"),
        }))
    chosen, selected = tables.selected_row(contributions, event)
    which = "selected" if selected else "the strongest push"
    st.markdown(f"**Rule {chosen.rule_id}** in full ({which}: "
                f"{chosen['towards the answer']:+.3f} towards the answer)")
    ui.rule_in_full(chosen)


def explanation(session: state.Session, index: int) -> None:
    """The match set, the vote, both answers and the truth, for one instance."""
    data = session.split.dataset
    exp = session.model_cache().explain(index)
    names = data.label_names
    truth = [name for name, bit in zip(names, data.Y[index], strict=True) if bit]
    held_out = index in set(session.split.test_idx)
    split = "held-out (never trained on)" if held_out else "training"
    st.subheader(f"Instance #{index} · {split}")
    snap = session.snapshot()
    st.info(f"**Shown: the rules being trained**, all {len(snap.rules):,} at iteration "
            f"{snap.iteration:,}, scored by the paper's vote (below, on request: the same rules "
            "with fitted weights, or a compact model).", icon=":material/model_training:")
    if exp.fallback:
        st.warning("No rule matched this instance: the nearest rules answered instead "
                   "(nearest-rule fallback).", icon=":material/warning:")
    answers = st.columns(3)
    answers[0].markdown(f"**True labelset**  \n{vote_text.braces(truth)}")
    answers[1].markdown(f"**MLR_agg**  \n{verdict(exp.agg_labels, truth)}")
    answers[2].markdown(f"**MLR_max**  \n{verdict(exp.max_labels, truth)}")
    st.markdown(vote_text.vote_paragraph(exp, index, truth))
    st.caption(f"Union of the voters' labelsets: {vote_text.braces(exp.union)} · {exp.how}")
    predicted = np.isin(names, exp.agg_labels)
    st.plotly_chart(
        figures.label_scores(names, exp.scores.to_numpy(), exp.bipartition.line, predicted,
                             data.Y[index]),
        key="label_scores",
    )
    voters(session, exp, index)
    with st.expander("Feature values", icon=":material/list:", key="explain_values",
                     on_change="rerun") as box:
        if box.open:  # drawn only when opened, as the two expanders above
            feature_values(data, index, exp)
    fitted_weights(session, index)


def feature_values(data, index: int, exp) -> None:
    """The instance's values, as stored (a sparse row: its non-zero ones), and how each reads."""
    features, stored = sparse_features.row_values(data.X, index)
    if len(features) < data.n_features:
        st.caption(f"The {len(features):,} values this row stores; its other "
                   f"{data.n_features - len(features):,} features are 0.")
    read = {j: reading for j, _, reading in exp.missing}
    values = frames.feature_values(
        [data.feature_names[j] for j in features], stored,
        None if data.categories is None else [data.categories[j] for j in features],
        [read.get(j, "missing") for j in features])
    st.dataframe(values, hide_index=True, column_config=tables.fit_columns(values, index=False))


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Explain an instance")
    session = ui.session()
    ui.wait_for_kernels()  # this page asks the engine: say so while it loads
    with ui.shielded("explaining the instance"):
        explanation(session, picker(session))


main()
