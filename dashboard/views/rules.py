"""Rules: the population as a table in a trustworthy order, filtered, exported as shown (CSV and
loadable JSON), audited (coverage, deciding rules, compaction) and reported (HTML)."""

import streamlit as st

from dashboard import frames, pages, rules_audit, state, tables, ui
from mlr_core.audit_report import coverage_figure, report_html


def filters(session: state.Session, rules) -> rules_audit.RuleFilters:
    """The filters above the table; what they keep is what the downloads export."""
    cols = st.columns([3, 2, 1, 1, 1])
    names = session.labelsets
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
    """Load a JSON rule set to inspect it or keep training it on the current dataset."""
    with st.expander("Load a rule set (JSON)", icon=":material/upload:"), st.form("upload_model"):
        file = st.file_uploader("A model saved by a JSON download on this page (validated, "
                                "never unpickled)", type=["json"], key="model_file")
        if st.form_submit_button("Load rule set", key="load_model") and file is not None:
            with ui.shielded("loading the rule set"):
                session.load_model(file.getvalue().decode("utf-8", errors="replace"))
                st.success(f"Loaded {file.name}. Start continues training it on the current "
                           "dataset.")


def downloads(session: state.Session, snap: state.Snapshot, table, n_rules: int) -> None:
    """The rules shown (all of them when no filter is set), as CSV and as a loadable model."""
    name = session.dataset.name
    if snap.rules.empty:  # nothing to export yet (and no engine needed to say so)
        st.caption("No rules yet: train the model (Step or Start) to export its rules.")
        return
    csv, model = session.read_model(snap, lambda m: rules_audit.exports(m, table))
    which = f"these {len(table):,} rules" if len(table) < n_rules else f"all {n_rules:,} rules"
    cols = st.columns(2)
    cols[0].download_button(f"Download {which} (CSV)", csv, f"{name}-rules.csv", "text/csv",
                            key="download_csv", icon=":material/download:",
                            help="The table as shown: its rows, in its order.")
    cols[1].download_button(f"Download {which} as a model (JSON)", model,
                            f"{name}-model.json", "application/json", key="download_json",
                            icon=":material/download:",
                            help="Loads back here or in Python (MLRClassifier.from_json) and "
                                 "predicts with these rules only.")


def table_view(table, n_rules: int) -> None:
    st.caption(f"{len(table):,} of {n_rules:,} rules, most trustworthy first "
               "(trusted accuracy: the 95% lower bound on accuracy given the rule's experience)"
               " · click a column header to sort the view.")
    shown = table.drop(columns="labelset_id")
    st.dataframe(
        shown, height=420, key="rules_table",
        column_config=tables.fit_columns(shown, {
            "trusted_accuracy": st.column_config.NumberColumn(
                "trusted accuracy", format="%.3f",
                help="Wilson 95% lower bound on the accuracy over the rule's experience"),
            "fitness": st.column_config.NumberColumn(format="%.3f"),
            "accuracy": st.column_config.NumberColumn(format="%.3f"),
            "generality": st.column_config.NumberColumn(format="%.3f"),
            "correct_set_size": st.column_config.NumberColumn(format="%.1f"),
        }),
    )


def audit_result(session: state.Session, snap: state.Snapshot):
    """The audit of this snapshot if it was run (kept until the model changes), else None."""
    kept = st.session_state.get("rules_audit")
    return kept[1] if kept and kept[0] is snap else None


def audit_section(session: state.Session, snap: state.Snapshot) -> None:
    """Which rules decide the predictions, how few cover the data, and the compacted set."""
    st.subheader("Audit on the training rows")
    if snap.rules.empty:
        st.caption("No rules yet: train the model (Step or Start), then audit its rules.")
        return
    st.caption(f"Of all {len(snap.rules):,} rules (the filters above do not apply): which rules "
               "decide the predictions on the rows the model trained on, how few of them cover "
               "how much of the data, and a compacted rule set (rules that decide nothing "
               "removed, the predictions kept) measured beside the full one, on the training "
               "and the held-out rows.")
    result = audit_result(session, snap)
    if result is None:
        slot = st.empty()
        if not slot.button("Audit the rules", key="run_audit", icon=":material/fact_check:",
                           type="primary",
                           help="A few seconds on real data; kept until the model changes."):
            return
        slot.empty()
        with st.spinner("Auditing the rules…"):
            result = session.read_model(snap, lambda m: rules_audit.run_audit(
                m, session.dataset, session.train_idx, session.test_idx))
        st.session_state["rules_audit"] = (snap, result)
    for col, (label, value, help_text) in zip(st.columns(4), rules_audit.headline(result),
                                              strict=True):
        col.metric(label, value, help=help_text)
    measures = rules_audit.measures_table(result)
    st.markdown("**All rules, the compacted set and the deciding rules alone**, measured")
    measures = measures.reset_index()
    st.dataframe(measures, key="audit_measures", hide_index=True,
                 column_config=tables.fit_columns(measures, index=False, config={
                     c: st.column_config.NumberColumn(format="%.3f")
                     for c in measures.columns if c != "measure"}))
    st.caption("train: the rows the model trained on (and was audited on); held-out: rows it "
               "never saw. The compacted set predicts exactly as all rules on the training rows "
               "(by construction); the held-out columns show whether that holds on unseen rows. "
               "The deciding rules alone drop every rule that decides no row, even those the "
               "vote needs.")
    st.plotly_chart(coverage_figure(result.curve), key="coverage_curve")
    st.markdown("**The most decisive rules** (the training rows each one decides)")
    deciding = rules_audit.deciding_table(result)
    deciding = frames.with_rule_texts(deciding, snap.rules, ids=deciding.index)
    st.dataframe(deciding, key="deciding_rules", column_config=tables.fit_columns(deciding, {
        "decided_share": st.column_config.ProgressColumn("decides", format="percent",
                                                         min_value=0.0, max_value=1.0),
        "n_decided": st.column_config.NumberColumn("rows decided"),
        "n_matched": st.column_config.NumberColumn("rows matched"),
        "fitness": st.column_config.NumberColumn(format="%.3f"),
        "kept": st.column_config.CheckboxColumn("in the compacted set"),
    }))
    name = session.dataset.name
    cols = st.columns(2)
    cols[0].download_button(
        f"Download the compacted rule set ({result.summary['n_compact']:,} rules, JSON)",
        result.compaction.model.to_json(), f"{name}-compacted-model.json", "application/json",
        key="download_compacted", icon=":material/download:")
    title = f"MLR rule audit: {name} at iteration {snap.iteration:,}"
    cols[1].download_button(
        "Download the audit report (HTML)",
        lambda: report_html(result, title=title, description=(
            f"{len(session.train_idx):,} training rows audited, {len(session.test_idx):,} "
            "held out; made by MLR Studio."), include_plotlyjs=True),
        f"{name}-audit.html", "text/html", key="download_report", icon=":material/download:",
        help="One self-contained page that opens offline.")


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
    table_view(table, len(rules))
    with ui.shielded("auditing the rules"):
        audit_section(session, snap)
    heatmap = pages.rules_heatmap(snap, session.dataset.feature_names)
    if heatmap is not None:
        st.subheader("Features the rules use")
        st.plotly_chart(heatmap, key="heatmap")
        st.caption(f"The {min(len(rules), pages.HEATMAP_RULES)} most numerous rules. A column lit "
                   "across many rows is a feature the population relies on; a dark row is a rule "
                   "many copies agree on.")


main()
