"""Real data in a real browser (emotions): an auditor filters the rules, downloads exactly those,
audits a compact model at a rule budget (moved from 20 to 10), downloads its scorecard, model
and report, and reads one answer as a waterfall; a teacher reads the population, a whole rule
and the vote. Set ``MLR_UPDATE_SCREENSHOTS=1`` to refresh the README's screenshots of the
audit (docs/screenshots/rules-audit.png) and the waterfall (explain-waterfall.png)."""

import io
import json
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
    app.wait_until(lambda: app.iteration() >= iterations)
    app.idle()


def test_an_auditor_filters_exports_and_audits_a_compact_model_at_a_budget(app):
    app.load_real_dataset("emotions")
    _train(app, 3000)
    app.open("Rules")
    caption = app.fresh().get_by_text(re.compile(r"^[\d,]+ of [\d,]+ rules, most trustworthy"))

    def counts() -> tuple[int, int]:
        numbers = re.match(r"([\d,]+) of ([\d,]+)", caption.inner_text()).groups()
        return tuple(int(n.replace(",", "")) for n in numbers)

    assert counts()[0] == counts()[1]  # no filter: every rule
    min_experience = app.page.get_by_role("spinbutton", name="Min experience")
    min_experience.fill("20")
    min_experience.press("Enter")
    app.wait_until(lambda: counts()[0] < counts()[1])
    app.idle()
    shown, total = counts()
    assert 0 < shown < total

    csv = pd.read_csv(io.StringIO(_download(app, f"Download these {shown:,} rules (CSV)")))
    assert len(csv) == shown and (csv["experience"] >= 20).all()
    assert csv["trusted_accuracy"].is_monotonic_decreasing

    app.press("Compact and audit")
    shown_info = app.page.get_by_text(re.compile(r"^Shown: a compact model of \d+ rules"))
    shown_info.wait_for()
    app.idle()
    app.page.get_by_test_id("stMetricLabel").get_by_text("Deciding rules").wait_for()
    app.idle()
    assert _budget(app) == 20  # the default budget
    _scorecard_within(app, 20)
    app.no_exception()
    report = _download(app, "Audit report (HTML)")
    assert "<h1>MLR rule audit: emotions, compact model of" in report and "plotly" in report
    text = _download(app, "Scorecard (CSV)")
    card = pd.read_csv(io.StringIO(text), comment="#")  # the notes: clipping and cut
    assert card["rule_id"].iloc[0] == "baseline" and len(card) <= 20
    assert "clipped to [0, 1]" in text and "\n# cut: " in text
    model = json.loads(_download(app, "Compact model (JSON)"))
    assert len(model["rule_set"]["rules"]) == len(card) - 1
    assert sorted(model["rule_set"]["rule_ids"]) == sorted(map(int, card["rule_id"][1:]))

    app.page.set_viewport_size({"width": 1400, "height": 2300})
    app.page.get_by_role("heading", name="Audit a compact model: the rule budget"
                         ).evaluate("e => e.scrollIntoView()")
    app.idle()
    app.shot("rules-audit")

    slider = app.page.get_by_test_id("stSlider").filter(has_text="Rule budget").get_by_role(
        "slider")
    slider.focus()
    slider.press("ArrowLeft")  # 20 -> 10
    app.wait_until(lambda: _budget(app) == 10 and _shown(app) <= 10)
    app.idle()
    _scorecard_within(app, 10)
    app.no_exception()

    app.page.set_viewport_size({"width": 1500, "height": 1050})
    app.open("Explain an instance")
    app.page.get_by_text("Fit the rule weights to these rules").click()
    app.page.get_by_text(re.compile(r"^Shown: all [\d,]+ rules with fitted weights")).wait_for()
    app.idle()
    app.page.get_by_test_id("stButtonGroup").get_by_text("20 rules", exact=True).click()
    app.fresh().get_by_text(re.compile(r"^Shown: a compact model of \d+ rules")).wait_for()
    app.idle()
    chart = app.page.get_by_test_id("stPlotlyChart").filter(has_text="each matching rule's")
    chart.locator(".waterfalllayer .point").first.wait_for()
    bars = [t.text_content() for t in chart.locator(".xtick text").all()]
    assert bars[0] == "baseline" and bars[-1] == "score"
    assert len(bars) - 2 <= 19  # a compact model of at most 20 rules: 19 of them can match
    app.no_exception()
    app.page.set_viewport_size({"width": 1400, "height": 1600})
    app.page.get_by_text(re.compile(r"^Shown: a compact model")).evaluate(
        "e => e.scrollIntoView()")
    app.idle()
    app.shot("explain-waterfall")


def _budget(app) -> int:
    """The rule budget the slider shows."""
    slider = app.page.get_by_test_id("stSlider").filter(has_text="Rule budget")
    return int(slider.get_by_role("slider").get_attribute("aria-valuetext"))


def _shown(app) -> int:
    """The size of the compact model the page says it shows (as its last run drew it: while
    the page reruns for a new budget, the previous budget's line is still there, stale)."""
    info = app.fresh().get_by_text(re.compile(r"^Shown: a compact model of \d+ rules"))
    return int(re.search(r"(\d+) rules", info.inner_text()).group(1))


def _scorecard_within(app, budget: int) -> None:
    """The scorecard says, and its heatmap draws, at most ``budget`` rows (rules + baseline)."""
    heading = app.fresh().get_by_text(re.compile(r"^Scorecard: \d+ rules and the baseline"))
    rules = int(re.search(r"(\d+) rules", heading.inner_text()).group(1))
    assert 1 <= rules <= budget - 1
    heatmap = app.fresh().get_by_test_id("stPlotlyChart").filter(has_text="Scorecard:")
    heatmap.locator(".heatmaplayer").first.wait_for()
    rows = [t.text_content() for t in heatmap.locator(".ytick text").all()]
    assert rows[0] == "baseline" and len(rows) == rules + 1
    labels = {t.text_content() for t in heatmap.locator(".xtick text").all()}
    assert labels == {"amazed-suprised", "happy-pleased", "relaxing-calm", "quiet-still",
                      "sad-lonely", "angry-aggresive"}  # every label named


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
    answer.first.wait_for()
    app.idle()
    app.page.set_viewport_size({"width": 1400, "height": 1600})
    app.page.get_by_text(re.compile(r"^Shown: all [\d,]+ rules with fitted weights")).evaluate(
        "e => e.scrollIntoView()")
    app.idle()
    app.no_exception()
    app.shot("explain-fitted")
    app.page.set_viewport_size({"width": 1500, "height": 1050})

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
