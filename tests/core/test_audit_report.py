"""The downloadable audit report: a complete offline HTML page with the audit's numbers, the
compacted rule set as text (escaped), and the coverage figure with plotly.js inlined."""

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mlr_core import MLRClassifier, load_dataset
from mlr_core import bipartition as bp
from mlr_core.audit import audit
from mlr_core.audit_report import coverage_figure, report_html
from mlr_core.compaction import compact

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "hypercube_2d.csv"


class Tags(HTMLParser):
    """Counts start tags and collects script sources; fails on unbalanced table markup."""

    def __init__(self):
        super().__init__()
        self.count, self.sources, self.open_tables = {}, [], 0

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        self.open_tables += tag == "table"
        self.sources += [value for name, value in attrs if name in ("src", "href")]

    def handle_endtag(self, tag):
        self.open_tables -= tag == "table"


@pytest.fixture(scope="module")
def result():
    data = load_dataset(SAMPLE)
    model = MLRClassifier(random_state=0, n_iter=20_000, weighting="vote").fit(
        data.X[:400], data.Y[:400], feature_names=data.feature_names,
        label_names=data.label_names)
    return audit(model, data.X[:400], data.Y[:400], data.X[400:], data.Y[400:])


def parse(text):
    tags = Tags()
    tags.feed(text)
    return tags


def test_report_is_self_contained_and_holds_the_audit(result):
    text = report_html(result, title="Audit <sample>", description="hypercube_2d, seed 0")
    tags = parse(text)
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert tags.count["table"] == 4 and tags.open_tables == 0
    assert tags.sources == []  # nothing to fetch: it works offline
    assert "Audit &lt;sample&gt;" in text and "<sample>" not in text
    assert "window.Plotly" in text or "Plotly=" in text.replace(" ", "")  # plotly.js inlined
    assert '"paper_bgcolor":"white"' in text  # the report's own template (REPORT_TEMPLATE)
    s = result.summary
    assert f"{s['n_compact']} rules ({s['n_restored']} of them" in text
    assert f"{s['rules_for_50']} / {s['rules_for_80']} / {s['rules_for_90']}" in text
    kept = result.rules[result.rules["kept"]]
    items = re.findall(r"<li><b>rule (\d+)</b> (.*?) <span", text)
    assert items == [(str(i), html.escape(rule)) for i, rule in kept["rule"].items()]
    assert any("&lt;=" in rule for _, rule in items)  # rule text is escaped, not markup
    assert "MLR_agg: A label&#x27;s score is the fitness x numerosity" in text
    hl = result.measures.loc["hamming_loss", ("held-out", "compact")]
    assert f"{hl:.4f}" in text


def test_report_without_plotly_is_small_and_scriptless(result):
    text = report_html(result, include_plotlyjs=False)
    assert parse(text).count.get("script", 0) == 0
    assert len(text) < len(report_html(result)) / 5


def test_coverage_figure_stops_where_the_curves_do(result):
    fig = coverage_figure(result.curve)
    covered, decided = (list(trace.y) for trace in fig.data)
    assert covered == result.curve["covered"].tolist()
    assert decided == result.curve["decided"].tolist()
    last = fig.layout.xaxis.range[1]
    assert last == pytest.approx(result.summary["n_deciding"] + 0.5)


@pytest.mark.parametrize("prediction", ["agg", "max"])
def test_a_model_without_rules_gets_a_report_too(result, prediction):
    empty = MLRClassifier.from_json(result.compaction.model.subset([]).to_json())
    data = load_dataset(SAMPLE)
    nothing = audit(empty, data.X, data.Y, prediction=prediction)
    assert nothing.summary["n_rules"] == nothing.summary["n_compact"] == 0
    assert nothing.summary["coverage"] == 0.0 and nothing.summary["rules_for_50"] == -1
    text = report_html(nothing)
    assert "never / never / never" in text and parse(text).count.get("script", 0) == 0


def test_a_compact_models_report_states_its_cut_and_the_full_models_rule_ids():
    data = load_dataset(SAMPLE)
    full = MLRClassifier(random_state=0, n_iter=20_000).fit(
        data.X[:400], data.Y[:400], feature_names=data.feature_names,
        label_names=data.label_names)
    small = compact(full, 20)
    text = report_html(audit(small, data.X[:400], data.Y[:400]), include_plotlyjs=False)
    how = small.rule_set_.prediction_text()
    assert "clipped to [0, 1]" in how and bp.words(small.bipartition_) in how
    assert f"MLR_agg: {html.escape(how)}" in text
    shown = {int(i) for i in re.findall(r"<li><b>rule (\d+)</b>", text)}
    ids = set(small.rule_set_.rule_ids.tolist())
    assert shown and shown <= ids and max(ids) >= len(ids)  # the full model's ids, not 0..k-1
    assert all(full.rules_frame().loc[i, "rule"] == small.rules_frame().loc[i, "rule"]
               for i in shown)
