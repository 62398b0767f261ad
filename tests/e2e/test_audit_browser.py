"""Real data in a real browser (emotions): an auditor filters the rules, downloads exactly those,
audits them and downloads the report; a teacher reads the population, a whole rule and the vote.
Set ``MLR_UPDATE_SCREENSHOTS=1`` to refresh the README's screenshot of the Rules page's audit
(docs/screenshots/rules-audit.png)."""

import io
import re
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.e2e



def _download(app, name: str) -> str:
    with app.page.expect_download() as download:
        app.page.get_by_role("button", name=name).click()
    return Path(download.value.path()).read_text(encoding="utf-8")


def _train(app, iterations: int) -> None:
    """One Step of ``iterations``, watched on the Train page until its metric shows them."""
    app.open("Train (live)")
    steps = app.page.get_by_label("Iterations per step")
    steps.fill(str(iterations))
    steps.press("Enter")
    app.idle()
    app.press("Step")
    app.wait_until(lambda: app.iteration() >= iterations, timeout=180)
    app.idle()


def test_an_auditor_filters_exports_audits_and_downloads_the_report(app):
    app.load_real_dataset("emotions")
    _train(app, 3000)
    app.open("Rules")
    caption = app.page.get_by_text(re.compile(r"^[\d,]+ of [\d,]+ rules, most trustworthy"))

    def counts() -> tuple[int, int]:
        numbers = re.match(r"([\d,]+) of ([\d,]+)", caption.inner_text()).groups()
        return tuple(int(n.replace(",", "")) for n in numbers)

    assert counts()[0] == counts()[1]  # no filter: every rule
    min_experience = app.page.get_by_role("spinbutton", name="Min experience")
    min_experience.fill("20")
    min_experience.press("Enter")
    app.wait_until(lambda: counts()[0] < counts()[1], timeout=90)
    app.idle()
    shown, total = counts()
    assert 0 < shown < total

    csv = pd.read_csv(io.StringIO(_download(app, f"Download these {shown:,} rules (CSV)")))
    assert len(csv) == shown and (csv["experience"] >= 20).all()
    assert csv["trusted_accuracy"].is_monotonic_decreasing

    app.press("Audit the rules")
    app.page.get_by_test_id("stMetricLabel").get_by_text("Deciding rules").wait_for(
        timeout=120_000)
    app.idle()
    app.page.get_by_text("How many rules cover and decide").wait_for()
    app.no_exception()
    report = _download(app, "Download the audit report (HTML)")
    assert "<h1>MLR rule audit: emotions at iteration 3,000</h1>" in report
    assert "Full and compacted rule sets" in report and "plotly" in report

    app.page.set_viewport_size({"width": 1400, "height": 2000})
    app.page.get_by_role("heading", name="Audit on the training rows").scroll_into_view_if_needed()
    app.idle()
    app.shot("rules-audit")


def test_a_teacher_reads_rules_on_both_features_a_whole_rule_and_the_vote(app):
    app.load_real_dataset("emotions")
    _train(app, 2000)
    app.open("Population")
    app.page.get_by_text(re.compile(r"rules that specify both features")).first.wait_for()
    assert app.page.get_by_role("switch", name="Only rules that specify both features"
                                ).is_checked()
    chart = app.page.get_by_test_id("stPlotlyChart").first
    chart.locator(".legend").first.wait_for()  # drawn by plotly.js after the element appears
    assert "selected: instance #0" in chart.inner_text()
    app.shot("population-emotions")

    app.open("Explain an instance")
    paragraph = app.page.get_by_text(re.compile(r"rules? match(es)? instance #0|^No rule matches"))
    assert "The true labelset is" in paragraph.first.inner_text()
    rule = app.page.get_by_test_id("stCode").first.inner_text()
    assert rule.startswith("IF") and re.search(r"\nTHEN \{[^}]*\}\s*$", rule)
    assert rule.count("\n") >= 2  # one condition per line: emotions' rules specify several
    app.no_exception()
    app.shot("explain-emotions")
    app.page.get_by_text("Fit the rule weights to these rules").click()
    answer = app.page.get_by_text(re.compile(r"^MLR_agg with fitted weights"))
    answer.first.wait_for(timeout=60_000)
    app.idle()
    app.page.get_by_test_id("stDataFrame").last.scroll_into_view_if_needed()
    app.no_exception()
    app.shot("explain-fitted")

    app.open("Theory")
    chart = app.page.get_by_test_id("stPlotlyChart").first
    chart.locator(".legend").first.wait_for()
    text = chart.inner_text()
    assert "this dataset (DL = 27)" in text and "measured: this population" in text
    assert chart.locator(".annotation").count() == 0  # every mark is in the legend
    ticks = [tick.text_content() for tick in chart.locator(".xtick text").all()]
    assert ticks == ["1", "2", "5", "10", "20", "50"]
    app.no_exception()
    app.shot("theory-emotions")
