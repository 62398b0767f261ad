"""The rule audit (:func:`mlr_core.audit.audit`) as one self-contained HTML page, to download and
open offline: headline numbers, the measures of the full and compacted rule sets, the coverage
curve, the most decisive rules and the compacted rule set as readable text.

Tables are plain HTML; the one figure is plotly with its JavaScript inlined (or left out, with
``include_plotlyjs=False``: the numbers behind it are in a table either way). Only callers that
make reports import this module, so the engine does not pay for plotly.
"""

from __future__ import annotations

import html

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from mlr_core.audit import Audit, rules_needed

_MEASURE_NAMES = {
    "hamming_loss": "Hamming loss (lower is better)",
    "accuracy": "Accuracy",
    "precision": "Precision",
    "recall": "Recall",
    "f1": "F1",
    "micro_f1": "Micro-F1",
    "macro_f1": "Macro-F1",
    "subset_accuracy": "Subset accuracy",
}
#: The standalone report's plotly template: white, as the page around it.
REPORT_TEMPLATE = "plotly_white"
_MODEL_NAMES = {"full": "all rules", "compact": "compacted", "deciding": "deciding rules only"}
_DEFINITIONS = {
    "vote": (
        "A rule's weight is its fitness times its numerosity, what it adds to the vote. The "
        "voters of a row are the rules matching it (or its nearest rules when none does). A "
        "voter's contribution to the prediction is its weight times the number of predicted "
        "labels it advocates (MLR_agg), or its weight if its labelset is the predicted one "
        "(MLR_max). The rule that decides a row is its voter of largest contribution (the "
        "heaviest voter when none contributes). The compacted set keeps the deciding rules plus "
        "the fewest other voters, put back one at a time, that leave every prediction on the "
        "audited rows unchanged."
    ),
    "fitted": (
        "Each rule carries a fitted weight per label; a label's score is the intercept plus the "
        "weights of the rules matching the row, clipped to [0, 1] or put through the logistic "
        "function (the model says which). The voters of a row are the "
        "rules matching it. "
        "A voter's contribution to the prediction is the sum of its weights for the predicted "
        "labels minus those for the other labels; its weight is the sum of its absolute label "
        "weights. The rule that decides a row is its voter of largest contribution. The "
        "compacted set keeps the deciding rules plus the fewest other voters, put back one at a "
        "time, that leave every prediction on the audited rows unchanged."
    ),
}
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
td.text, th.text { text-align: left; }
ul.rules li { font-family: ui-monospace, monospace; font-size: 0.85em; margin: 0.2em 0; }
p.note { color: #555; font-size: 0.9em; }
"""


def coverage_figure(curve: pd.DataFrame) -> go.Figure:
    """Fraction of rows covered (matched) and decided by the first k rules, most decisive
    first (:func:`mlr_core.audit.coverage_curve`), drawn up to where both curves stop
    rising. No template of its own: the dashboard draws it in its theme, and `report_html`
    gives it `REPORT_TEMPLATE` (naming a template copies the whole of it, with a class for
    every kind of trace: 90 ms for the first figure of a process and 15 ms for each after, a
    tenth of Compact and audit's click on yeast)."""
    fig = go.Figure()
    for column, name in (("covered", "rows matched by one of them"),
                         ("decided", "rows decided by one of them")):
        fig.add_trace(go.Scatter(x=curve["n_rules"], y=curve[column], mode="lines", name=name))
    last = max(rules_needed(curve, column, curve[column].iloc[-1])
               for column in ("covered", "decided"))
    rest = len(curve) - last
    fig.update_layout(
        title="How many rules cover and decide how much of the data"
        + (f"<br><sup>the other {rest} rules change neither curve</sup>" if rest else ""),
        xaxis_title="the k most decisive rules", yaxis_title="fraction of rows",
        xaxis_range=[0.5, last + 0.5], yaxis_range=[0, 1.02],
        legend={"orientation": "h", "y": -0.2},
        margin={"l": 70, "r": 30, "t": 60, "b": 100},
    )
    return fig


def _table(frame: pd.DataFrame, text_columns=(), float_format="{:.4f}") -> str:
    """A DataFrame as an escaped HTML table; ``text_columns`` left-aligned."""
    head = "".join(f'<th class="{"text" if c in text_columns else ""}">{html.escape(str(c))}</th>'
                   for c in frame.columns)
    body = []
    for _, row in frame.iterrows():
        cells = []
        for column, value in row.items():
            shown = float_format.format(value) if isinstance(value, float) else str(value)
            css = "text" if column in text_columns else ""
            cells.append(f'<td class="{css}">{html.escape(shown)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _summary_rows(result: Audit) -> pd.DataFrame:
    s = result.summary
    rows = [
        ("Prediction audited", f"MLR_{s['prediction']}: {s['how']}"),
        ("Rows audited", s["n_rows"]),
        ("Rules", s["n_rules"]),
        ("Rows some rule matches", f"{s['coverage']:.1%}"),
        ("Rules that decide at least one row", s["n_deciding"]),
        ("Most decisive rules that decide 50% / 80% / 90% of the rows",
         " / ".join(_count(s[f"rules_for_{p}"]) for p in (50, 80, 90))),
        ("Most decisive rules that match every row the whole set matches",
         s["rules_for_coverage"]),
        ("Compacted rule set (same predictions on these rows)",
         f"{s['n_compact']} rules ({s['n_restored']} of them decide nothing but are needed)"),
        ("Deciding rules alone predict as all rules on",
         f"{s['deciding_agreement']:.1%} of the rows"),
    ]
    return pd.DataFrame(rows, columns=["", "value"])


def _count(n: int) -> str:
    return str(n) if n >= 0 else "never"


def _measures_table(result: Audit) -> str:
    if result.measures.empty:
        return '<p class="note">No labels were given, so no measures.</p>'
    frame = result.measures.rename(index=_MEASURE_NAMES)
    frame.columns = [f"{data}: {_MODEL_NAMES[model]}" for data, model in frame.columns]
    table = _table(frame.reset_index(names="measure"), text_columns=("measure",))
    note = result.macro_f1_note()
    return table + (f'<p class="note">{html.escape(note)}</p>' if note else "")


def _curve_checkpoints(result: Audit) -> pd.DataFrame:
    curve = result.curve
    rows = []
    for share in (0.5, 0.8, 0.9, 0.95, 1.0):
        rows.append((f"{share:.0%}", _count(rules_needed(curve, "decided", share)),
                     _count(rules_needed(curve, "covered", share))))
    return pd.DataFrame(rows, columns=["share of rows", "rules to decide it",
                                       "rules to match it"])


def _top_rules(result: Audit, top: int) -> pd.DataFrame:
    columns = ["rule", "labelset", "n_decided", "decided_share", "n_matched", "fitness",
               "numerosity", "experience"]
    frame = result.rules[result.rules["n_decided"] > 0].head(top)[columns]
    return frame.reset_index()


def _compact_list(result: Audit) -> str:
    kept = result.rules[result.rules["kept"]]
    items = [
        f"<li><b>rule {row.Index}</b> {html.escape(row.rule)} <span class=\"note\">(decides "
        f"{row.n_decided} rows; F={row.fitness:.3f}, num={row.numerosity}, "
        f"exp={row.experience})</span></li>"
        for row in kept.itertuples()
    ]
    return f'<ul class="rules">{"".join(items)}</ul>'


def report_html(result: Audit, title: str = "MLR rule audit", description: str = "",
                include_plotlyjs: bool = True, top: int = 25) -> str:
    """The audit as a complete HTML document (a string, UTF-8 when written).

    Parameters
    ----------
    result : Audit
        What :func:`mlr_core.audit.audit` returned.
    title, description : str
        Heading and an introductory sentence (e.g. the dataset and the training run).
    include_plotlyjs : bool
        Inline plotly.js (about 4.5 MB) so the coverage figure works offline; False leaves the
        figure out and keeps the page small (its checkpoints stay in a table).
    top : int
        How many of the most decisive rules to list in the table.
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    if description:
        parts.append(f"<p>{html.escape(description)}</p>")
    parts += [
        "<h2>Summary</h2>", _table(_summary_rows(result), text_columns=("", "value")),
        "<h2>Full and compacted rule sets</h2>", _measures_table(result),
        "<h2>Coverage</h2>", _table(_curve_checkpoints(result)),
    ]
    if include_plotlyjs and len(result.curve):
        figure = coverage_figure(result.curve).update_layout(template=REPORT_TEMPLATE)
        parts.append(pio.to_html(figure, full_html=False, include_plotlyjs=True))
    parts += [
        f"<h2>The {top} most decisive rules</h2>",
        _table(_top_rules(result, top), text_columns=("rule", "labelset")),
        f"<h2>The compacted rule set ({len(result.compaction.kept)} rules, most decisive "
        "first)</h2>",
        _compact_list(result),
        "<h2>Definitions</h2>",
        f'<p class="note">{html.escape(_DEFINITIONS[result.summary.get("weighting", "vote")])}'
        "</p>",
        "</body></html>",
    ]
    return "\n".join(parts)
