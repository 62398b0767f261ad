"""What a teacher does, in a real browser: one iteration under the microscope, an EM-vs-HL race,
and the population scrubbed back in time. Each test takes one README screenshot."""

import re

import pytest

pytestmark = pytest.mark.e2e


def test_microscope_tells_one_iteration_step_by_step(app):
    app.press("Step")
    app.wait_until(lambda: app.iteration() > 0, timeout=180)
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
    app.shot("microscope")
    chart = app.page.get_by_test_id("stPlotlyChart").first
    texts = chart.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
    assert any(re.fullmatch(r"\[C\] \(\d+\)", text) for text in texts), texts
    app.no_exception()
