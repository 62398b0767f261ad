"""What a teacher does, in a real browser: one iteration under the microscope, an EM-vs-HL race,
and the population scrubbed back in time. Each test takes one README screenshot."""

import re

import pytest

pytestmark = pytest.mark.e2e


def test_microscope_tells_one_iteration_step_by_step(app):
    app.press("Step")
    app.wait_until(lambda: app.iteration() > 0)
    app.idle()
    app.open("Microscope")
    app.press("Trace one iteration")
    app.idle()
    progress = app.page.get_by_text(re.compile(r"Step \d+ of \d+"))
    assert progress.inner_text().startswith("Step 1 of")
    assert app.page.get_by_text(re.compile(r"draws training instance #\d+")).count()
    for shown in (2, 3):
        app.press("Next step")
        app.page.get_by_text(re.compile(rf"Step {shown} of \d+")).wait_for()
        app.idle()
    app.page.get_by_role("heading", name="3. The correct set [C]").wait_for()
    app.page.set_viewport_size({"width": 1500, "height": 1400})  # the step's legend too
    app.idle()
    app.shot("microscope")
    chart = app.page.get_by_test_id("stPlotlyChart").first
    texts = chart.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
    assert any(re.fullmatch(r"\[C\] \(\d+\)", text) for text in texts), texts
    app.no_exception()


def test_race_em_against_hl_on_a_generated_dataset(app):
    app.open("Data")
    app.page.get_by_role("tab", name="Synthetic").click()
    app.page.get_by_role("button", name="Generate and load").click()
    app.page.get_by_text(re.compile(r"^Loaded hypercube")).first.wait_for()
    app.idle()
    app.open("Race: EM vs HL")
    app.press("Start race")
    progress = app.page.get_by_text(re.compile(r"^Iteration [\d,]+ of each model"))

    def iteration() -> int:
        return int(re.sub(r"\D", "", progress.inner_text().split(" of ")[0]))

    app.wait_until(lambda: iteration() >= 1_500)
    app.press("Pause race")
    app.page.get_by_role("button", name="Start race", exact=True).wait_for()
    app.idle()
    chart = app.page.get_by_test_id("stPlotlyChart").first
    texts = chart.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
    assert {"EM (exact match)", "HL (1 − Hamming loss)"} <= set(texts), texts
    assert app.page.get_by_test_id("stDataFrame").count() == 1
    app.no_exception()
    app.page.set_viewport_size({"width": 1500, "height": 1500})  # down to the theory chart
    app.page.get_by_test_id("stPlotlyChart").nth(1).locator(".main-svg").first.wait_for()
    app.idle()
    app.shot("race")


def test_time_travel_scrubs_back_to_an_early_population(app):
    for _ in range(4):
        before = app.iteration()
        app.press("Step")
        app.wait_until(lambda before=before: app.iteration() > before)
        app.idle()
    app.open("Time travel")
    heading = app.page.get_by_text(re.compile(r"^Iteration [\d,]+ \(snapshot \d+ of \d+\)"))
    assert heading.inner_text().startswith("Iteration 800 (snapshot 4 of 4)")
    slider = app.page.locator("input[type=range][aria-label='Iteration']")
    slider.focus()
    app.page.keyboard.press("Home")  # to the earliest snapshot
    app.page.get_by_text(re.compile(r"^Iteration 200 \(snapshot 1 of 4\)")).wait_for()
    app.idle()
    title = app.page.get_by_test_id("stPlotlyChart").first.locator(".gtitle").text_content()
    assert title.endswith("distinct rules, iteration 200"), title
    app.no_exception()
    app.shot("time_travel")
