"""Rules: the whole population as a table, exported or imported as the engine's JSON."""

import streamlit as st

from mlr_dashboard import frames, pages, state, ui


def filtered(session: state.Session, rules):
    """The rules matching the filters above the table (sorting is the table's own)."""
    cols = st.columns([3, 2, 1, 1])
    text = cols[0].text_input("Rule text contains", key="rules_text",
                              placeholder="e.g. a feature name or THEN {a")
    names = session.labelsets
    in_use = sorted({int(i) for i in rules["labelset_id"]}, key=names.name)
    labelset_ids = cols[1].multiselect("Labelsets", in_use, format_func=names.name,
                                       key="rules_labelsets")
    min_fitness = cols[2].number_input("Min fitness", 0.0, 1.0, 0.0, 0.05, key="rules_fit")
    min_num = cols[3].number_input("Min numerosity", 1, 100_000, 1, key="rules_num")
    chosen, _ = frames.select_rules(rules, labelset_ids=labelset_ids, min_fitness=min_fitness,
                                    min_numerosity=min_num)
    if text:
        chosen = chosen[chosen["rule"].str.contains(text, case=False, regex=False)]
    return chosen


def upload(session: state.Session) -> None:
    """Load a JSON rule set to inspect it or keep training it on the current dataset."""
    with st.expander("Load a rule set (JSON)", icon=":material/upload:"), st.form("upload_model"):
        file = st.file_uploader("A model saved by 'Download model (JSON)' (validated, never "
                                "unpickled)", type=["json"], key="model_file")
        if st.form_submit_button("Load rule set", key="load_model") and file is not None:
            with ui.shielded("loading the rule set"):
                session.load_model(file.getvalue().decode("utf-8", errors="replace"))
                st.success(f"Loaded {file.name}. Start continues training it on the current "
                           "dataset.")


def downloads(session: state.Session, rules) -> None:
    """The rule set as CSV (for reading) and as the engine's JSON (to load it back)."""
    name = session.dataset.name
    cols = st.columns(2)
    cols[0].download_button("Download rules (CSV)", rules.to_csv(), f"{name}-rules.csv",
                            "text/csv", key="download_csv", icon=":material/download:")
    cols[1].download_button("Download model (JSON)", session.model_json(),
                            f"{name}-model.json", "application/json", key="download_json",
                            icon=":material/download:")


st.title("Rules")
session = ui.session()
upload(session)
snap = session.snapshot()
rules = snap.rules
downloads(session, rules.drop(columns="labelset_id"))
shown = filtered(session, rules)
st.caption(f"{len(shown):,} of {len(rules):,} rules · click a column header to sort.")
st.dataframe(
    shown.drop(columns="labelset_id"), height=420, key="rules_table",
    column_config={
        "rule": st.column_config.TextColumn("rule", width="large"),
        "labelset": st.column_config.TextColumn("labelset", width="medium"),
        "fitness": st.column_config.NumberColumn(format="%.3f"),
        "accuracy": st.column_config.NumberColumn(format="%.3f"),
        "generality": st.column_config.NumberColumn(format="%.3f"),
        "correct_set_size": st.column_config.NumberColumn(format="%.1f"),
    },
)
heatmap = pages.rules_heatmap(snap, session.dataset.feature_names)
if heatmap is not None:
    st.plotly_chart(heatmap, key="heatmap")
    st.caption(f"The {min(len(rules), pages.HEATMAP_RULES)} most numerous rules. A column lit "
               "across many rows is a feature the population relies on; a dark row is a rule "
               "many copies agree on.")
