"""Rules: the population as a table in a trustworthy order, filtered, exported as shown (CSV and
loadable JSON); below, a compact model of them at a rule budget: its held-out curve, scorecard,
audit and downloads (JSON, CSV, HTML report, Python, SQL)."""

from collections.abc import Callable

import numpy as np
import streamlit as st

from dashboard import (
    pages,
    rule_budget,
    rules_audit,
    scorecard_figures,
    state,
    tables,
    ui,
)
from dashboard.markdown_text import literal
from mlr_core import export
from mlr_core import scorecard as scorecard_file
from mlr_core.audit_report import coverage_figure, report_html


def filters(session: state.Session, rules) -> rules_audit.RuleFilters:
    """The filters above the table; what they keep is what the downloads export."""
    cols = st.columns([3, 2, 1, 1, 1])
    names = session.split.labelsets
    in_use = sorted({int(i) for i in rules["labelset_id"]}, key=names.name)
    return rules_audit.RuleFilters(
        text=cols[0].text_input("Rule text contains", key="rules_text",
                                placeholder="e.g. a feature name or THEN {a"),
        labelset_ids=tuple(cols[1].multiselect("Labelsets", in_use, format_func=names.name,
                                               key="rules_labelsets")),
        min_fitness=cols[2].number_input("Min fitness", 0.0, 1.0, 0.0, 0.05, key="rules_fit"),
        min_numerosity=cols[3].number_input("Min numerosity", 1, 100_000, 1, key="rules_num"),
        min_experience=cols[4].number_input(
            "Min experience", 0, 10_000_000, 0, step=10, key="rules_exp",
            help="Times a rule matched during training: a rule with F = 1 after a few matches "
                 "has not been tested yet."),
    )


def upload(session: state.Session) -> None:
    """Load a JSON rule set to inspect it or keep training it on the current dataset (read and
    checked first; a model that has trained goes only once the person agrees)."""
    with st.expander("Load a rule set (JSON)", icon=":material/upload:"), st.form("upload_model"):
        file = st.file_uploader("A model saved by a JSON download on this page (validated, "
                                "never unpickled)", type=["json"], key="model_file")
        if st.form_submit_button("Load rule set", key="load_model") and file is not None:
            with ui.shielded("loading the rule set"):
                adopt = session.read_model_file(file.getvalue().decode("utf-8", errors="replace"))

                def switch() -> str:
                    rules = adopt()
                    kinds = (pages.rule_kinds(rules.n_evolved, rules.n_feature_rules)
                             if rules.rule_count else "no rules")
                    loaded = (f"Loaded {literal(file.name)}: the model as saved, with its "
                              f"scoring and cut: {kinds}. Start continues training it on the "
                              "current dataset.")
                    if not rules.n_feature_rules:
                        return loaded
                    return (f"{loaded} Training refits the weights to the rules as they "
                            "evolve and makes every one-condition rule of these data again "
                            "(all of a feature's steps, where a compact model kept some).")
                ui.replace_model(session, file.name, switch)
    ui.confirm_replacement(session)


def downloads(session: state.Session, snap: state.Snapshot, table, n_rules: int) -> None:
    """The rules shown (all of them when no filter is set), as CSV and as a loadable model."""
    name = session.split.dataset.name
    if snap.rules.empty:  # nothing to export yet (and no engine needed to say so)
        st.caption("No rules yet: train the model (Step or Start) to export its rules.")
        return

    def made(part: int):
        """The file, made on the click: the JSON needs the rule weights fitted to these rules,
        which after training costs a refit (seconds on ohsumed), not to be paid at every visit."""
        return lambda: session.read_model(snap, lambda m: rules_audit.exports(m, table))[part]

    which = f"these {len(table):,} rules" if len(table) < n_rules else f"all {n_rules:,} rules"
    cols = st.columns(2)
    cols[0].download_button(f"Download {which} (CSV)", made(0), f"{name}-rules.csv", "text/csv",
                            key="download_csv", icon=":material/download:", on_click="ignore",
                            help="The table as shown: its rows, in its order.")
    cols[1].download_button(f"Download {which} as a model (JSON)", made(1),
                            f"{name}-model.json", "application/json", key="download_json",
                            icon=":material/download:", on_click="ignore",
                            help="Loads back here or in Python (MLRClassifier.from_json) and "
                                 "predicts with these rules only.")


def table_view(table, snap: state.Snapshot) -> None:
    """The rules in the columns chosen (at first those that fit a 1,300 px window), and the
    selected row's rule whole below them."""
    n_rules = len(snap.rules)
    if extra := pages.one_condition_rules(snap):  # the Train page counts the evolved ones
        st.caption(f"The model predicts with {n_rules:,} rules: "
                   f"{pages.rule_kinds(n_rules - extra, extra)}; the Train page's macro rules "
                   "count the evolved ones.")
    st.caption(f"{len(table):,} of {n_rules:,} rules, most trustworthy first "
               "(trusted accuracy: the 95% lower bound on accuracy given the rule's experience)"
               " · click a column header to sort the view, a row to read its rule whole.")
    more = [c for c in rules_audit.COLUMNS if c not in rules_audit.SHOWN]
    extra = st.multiselect("More columns", more, key="rules_columns",
                           format_func=lambda c: c.replace("_", " "),
                           help="More make the table scroll sideways; the downloads hold "
                                "every column.")
    shown = table[[c for c in rules_audit.COLUMNS if c in rules_audit.SHOWN or c in extra]]
    event = st.dataframe(
        shown, height=420, key="rules_table", on_select="rerun", selection_mode="single-row",
        column_config=tables.fit_columns(shown, {
            "_index": st.column_config.NumberColumn("rule", format="%d"),
            "trusted_accuracy": st.column_config.NumberColumn(
                "trusted acc.", format="%.3f",
                help="Trusted accuracy: the Wilson 95% lower bound on the accuracy over the "
                     "rule's experience"),
            "fitness": st.column_config.NumberColumn(format="%.3f"),
            "accuracy": st.column_config.NumberColumn(format="%.3f"),
            "generality": st.column_config.NumberColumn(format="%.3f"),
            "correct_set_size": st.column_config.NumberColumn(format="%.1f"),
            "rule": st.column_config.TextColumn("rule (select the row to read it whole)"),
        }, within=tables.PAGE_PX, selectable=True),
    )
    if shown.empty:
        return
    chosen, selected = tables.selected_row(table, event)
    st.markdown(f"**Rule {chosen.name}** ({'selected' if selected else 'the first row'}: accuracy "
                f"{chosen.accuracy:.3f} over {chosen.experience:,} matches, fitness "
                f"{chosen.fitness:.3f}, numerosity {chosen.numerosity:,})")
    ui.rule_in_full(chosen)


def budget_section(session: state.Session, snap: state.Snapshot) -> None:
    """The rule budget: compact models of these rules, their held-out curve, the chosen one's
    scorecard, its audit and its downloads."""
    st.subheader("Audit a compact model: the rule budget")
    if snap.rules.empty:
        st.caption("No rules yet: train the model (Step or Start), then audit a compact model "
                   "of its rules.")
        return
    n = len(snap.rules)
    st.caption(f"The table above is the model being trained: all {n:,} rules "
               f"({session.model_words()}). An auditor reads a compact model instead: at most k "
               "of these rules (the baseline, the score when no rule matches, counted as one) "
               "with a weight per rule and label fitted on the training rows, as "
               "`mlr_core.compaction.compact(model, k)` makes it.")
    budget = rule_budget.kept(st.session_state, snap)
    if budget is None:
        if not session.pacing.running:  # the model stays as shown: make it while they read
            rule_budget.prefetch(session, snap)
        slot = st.empty()
        if not slot.button("Compact and audit", key="run_audit", icon=":material/fact_check:",
                           type="primary", help="About 1 s on emotions and yeast, 2-3 s on "
                                                "ohsumed (2 cores); kept until the model "
                                                "changes."):
            return
        slot.empty()
        sizes = rule_budget.budgets(n)
        with st.spinner(rule_budget.WHY.format(sizes=rule_budget.sizes_text(sizes))):
            budget = rule_budget.kept_or_built(st.session_state, session, snap)
    sizes = budget.sizes
    if st.session_state.get("rule_budget") not in sizes:  # first time, or fewer rules now
        st.session_state["rule_budget"] = rule_budget.first_shown(sizes)
    k = st.select_slider("Rule budget (rules, the baseline counted)", sizes, key="rule_budget",
                         help="The curve below shows how well each size predicts rows the "
                              "model never saw.")
    shown, rules = budget.n_rules(k), budget.models[k].rule_set_
    kinds = pages.rule_kinds(rules.n_evolved, rules.n_feature_rules, "the baseline",
                             alone=rules.feature_rules_alone)
    st.info(f"**Shown: a compact model of {shown} rules** ({kinds}), fitted weights, made from "
            f"the {n:,} rules at iteration {snap.iteration:,}.", icon=":material/model_training:")
    st.plotly_chart(scorecard_figures.budget_curve(budget.curve, k), key="budget_curve")
    card = scorecard(session, budget, k)
    with ui.shielded("auditing the compact model"):
        audit_of(session, snap, budget, k, card)


#: A label's weight column in the scorecard table (px): "+0.123" whole, a long label's header cut
#: (its help names it).
LABEL_PX = 90
#: Room for label weights in the scorecard table at a 1,300 px window: the page's width less the
#: row selector, rule, rows matched, coverage and 220 px of the condition's first words.
LABELS_PX = tables.PAGE_PX - 40 - 90 - 140 - tables.BAR_PX - 220


def scorecard(session: state.Session, budget, k: int) -> Callable[[], str]:
    """The weights of the compact model of budget k as a heatmap and a sortable table, in the
    order chosen; returns what makes the scorecard file (``mlr_core.scorecard.to_csv``) in that
    order, on the download's click."""
    model = budget.models[k]
    order = st.selectbox("Read the rules in this order",
                         rule_budget.orders(session.split.dataset.label_names),
                         key="scorecard_order")
    table = budget.table(k, order)
    base = rule_budget.baseline(model)
    per_row = budget.rules_per_row(k)
    median = np.median(per_row)
    st.markdown(f"**Scorecard: {len(table)} rules and the baseline.** "
                f"{model.rule_set_.prediction_text()} A training row matches "
                f"{median:g} rule{'' if median == 1 else 's'} (median; at most {per_row.max()}); "
                "a rule keeps its number in the table above.")
    st.plotly_chart(scorecard_figures.scorecard_heatmap(table, base), key="scorecard_heatmap")
    labels = list(base.index)
    shown = st.multiselect(
        "Label weights in the table (the heatmap shows them all)", labels,
        default=rule_budget.labels_that_fit(labels, LABELS_PX // LABEL_PX,
                                            rule_budget.sorted_by_label(order, labels)),
        key=f"scorecard_labels-{session.split.dataset.name}",
        help="As many as fit a 1,300 px window at first, the label the rules are sorted by "
             "first; more make the table scroll sideways.")
    frame = table[["support", "coverage", *shown, "condition"]].reset_index()
    event = st.dataframe(
        frame, key="scorecard_table", hide_index=True, on_select="rerun",
        selection_mode="single-row", height=tables.height_for(len(table), 420),
        column_config=tables.fit_columns(frame, index=False, within=tables.PAGE_PX,
                                         selectable=True, config={
            "rule_id": st.column_config.NumberColumn("rule", format="%d"),
            "condition": st.column_config.TextColumn(
                "condition (select the row to read it line by line)"),
            "support": st.column_config.NumberColumn("rows matched"),
            "coverage": st.column_config.ProgressColumn("coverage", format="percent",
                                                        min_value=0.0, max_value=1.0),
        } | {label: st.column_config.NumberColumn(label, format="%+.3f", width=LABEL_PX,
                                                  help=literal(label))
             for label in shown}))
    chosen, selected = tables.selected_row(table, event)
    st.markdown(f"**Rule {chosen.name}** ({'selected' if selected else 'the first row'}: matches "
                f"{chosen.support:,} training rows)")
    ui.rule_in_full(chosen)
    card = budget.card(k)
    return lambda: scorecard_file.csv_of(model.rule_set_, card, order=table.index)


def audit_of(session: state.Session, snap: state.Snapshot, budget, k: int,
             card: Callable[[], str]) -> None:
    """The audit of the compact model of budget k (decisions, coverage, measures) and the files
    an auditor takes away, each made on its download's click. Made on every run, the model's
    JSON (its scaling's tables included) took about half a second of each run of this page once
    compacted, and the scorecard, the Python and the two SQL files another 0.17 s (yeast,
    py-spy)."""
    with st.spinner(f"Auditing the compact model of {budget.n_rules(k)} rules…"):
        result = rule_budget.audit(budget, k, session.split.dataset, session.split.test_idx)
    st.markdown(f"**Audit of the compact model of {budget.n_rules(k)} rules** on the training "
                "rows")
    for col, (label, value, help_text) in zip(st.columns(4), rules_audit.headline(result),
                                              strict=True):
        col.metric(label, value, help=help_text)
    measures = rules_audit.measures_table(result)
    measures = measures.reset_index()
    st.dataframe(measures, key="audit_measures", hide_index=True,
                 height=tables.height_for(len(measures)),
                 column_config=tables.fit_columns(measures, index=False, within=tables.PAGE_PX,
                                                  config={
                     c: st.column_config.NumberColumn(format="%.3f")
                     for c in rules_audit.MODEL_NAMES.values()}))
    st.caption("train: the rows the model was fitted on; held-out: rows it never saw. Pruned: "
               "this model without the rules that decide no training row, except those needed "
               "to keep every training prediction; deciding only: without all of them. "
               + result.macro_f1_note(rules_audit.DATA_NAMES))
    st.plotly_chart(coverage_figure(result.curve), key="coverage_curve")
    model = budget.models[k]
    name, size = session.split.dataset.name, budget.n_rules(k)
    title = f"MLR rule audit: {name}, compact model of {size} rules (iteration {snap.iteration:,})"
    st.markdown(f"**Download the compact model of {size} rules**")
    row = st.container(horizontal=True)
    row.download_button(
        "Compact model (JSON)", model.to_json, f"{name}-{size}-rules.json", "application/json",
        key="download_compact", icon=":material/download:", on_click="ignore",
        help="Loads with MLRClassifier.from_json and predicts as shown here.")
    row.download_button(
        "Scorecard (CSV)", card,
        f"{name}-{size}-rules-scorecard.csv", "text/csv", key="download_scorecard",
        icon=":material/download:", on_click="ignore",
        help="The table as shown, the baseline first, with each rule's exact bounds and how "
             "weights become scores and are cut: enough to reproduce the predictions.")
    row.download_button(
        "Audit report (HTML)",
        lambda: report_html(result, title=title, description=(
            f"A compact model: {size - 1} of the {len(snap.rules):,} rules trained "
            "and the baseline, with weights fitted on the training rows. "
            f"{len(session.split.train_idx):,} training rows audited, "
            f"{len(session.split.test_idx):,} held out; made by MLR Studio."),
            include_plotlyjs=True),
        f"{name}-{size}-rules-audit.html", "text/html", key="download_report",
        icon=":material/download:", on_click="ignore",
        help="One self-contained page that opens offline.")
    row.download_button(
        "Python function", lambda: export.to_python(model.rule_set_), f"{name}-{size}-rules.py",
        "text/x-python",
        key="download_python", icon=":material/download:", on_click="ignore",
        help="predict(row) in plain Python, no package needed: the same labels as here.")
    for engine, button, run in (("sqlite", "SQL for SQLite", "`sqlite3 my.db < it.sql`"),
                                ("duckdb", "SQL for DuckDB", "`duckdb my.db < it.sql`")):
        row.download_button(  # not "title": the report's lazy download reads that name
            button, lambda engine=engine: export.to_sql(model.rule_set_, "data", engine=engine),
            f"{name}-{size}-rules-{engine}.sql", "application/sql",
            key=f"download_sql_{engine}", icon=":material/download:", on_click="ignore",
            help="An SQL script: the model's numbers into temporary tables, then a SELECT over "
                 "a table `data` (a unique key column `row_id` and one column per feature): "
                 f"per row_id, one 0/1 column per label. Run it as a file: {run}. Each "
                 "script runs in both databases; each is written for the one it names.")


def main() -> None:  # a function: what the page draws from does not outlive the run
    st.title("Rules")
    session = ui.session()
    ui.wait_for_kernels()  # this page asks the engine: say so while it loads
    upload(session)
    snap = session.snapshot()
    rules = snap.rules
    table = rules_audit.rules_table(rules, filters(session, rules))
    with ui.shielded("preparing the downloads"):
        downloads(session, snap, table, len(rules))
    table_view(table, snap)
    with ui.shielded("compacting the rules"):
        budget_section(session, snap)
    heatmap = pages.rules_heatmap(snap, session.split.dataset.feature_names)
    if heatmap is not None:
        st.subheader("Features the rules use")
        st.plotly_chart(heatmap, key="heatmap")
        st.caption(f"The {min(len(rules), pages.HEATMAP_RULES)} most numerous rules. A column lit "
                   "across many rows is a feature the population relies on; a dark row is a rule "
                   "many copies agree on.")


main()
