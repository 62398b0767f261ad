"""The dashboard in a real browser: every page, live training, click-to-explain, a bad upload.

Screenshots land in each test's tmp_path. Set ``MLR_UPDATE_SCREENSHOTS=1`` to also refresh the
README's screenshots (docs/screenshots/, see ``App.shot``).
"""

import re
import time
from urllib.parse import urlsplit

import pytest

from dashboard.page_registry import BY_NAME

pytestmark = pytest.mark.e2e

#: Page (its name in the page registry) -> plotly charts it shows once the model has rules.
CHARTS = {
    "train": 2,
    "population": 2,
    "explain": 1,
    "rules": 1,
    "theory": 2,
    "data": 2,  # the generator's preview and the current dataset's label frequencies
}


def test_every_page_renders_its_charts(app):
    app.press("Step")
    app.wait_until(lambda: app.iteration() > 0)
    app.idle()
    for name, n_charts in CHARTS.items():
        title = BY_NAME[name].title
        app.open(title)
        charts = app.page.get_by_test_id("stPlotlyChart")
        charts.nth(n_charts - 1).locator(".main-svg").first.wait_for()
        app.no_exception()
        assert charts.count() == n_charts, title
        app.shot(re.sub(r"\W+", "_", title.lower()).strip("_"))


def test_start_grows_the_iteration_count_until_pause(app):
    assert app.iteration() == 0
    app.start()
    first = app.iteration()
    app.wait_until(lambda: app.iteration() > first)
    assert app.iteration() > first > 0, "live ticks advance training"
    app.shot("training")
    app.pause()
    paused = app.iteration()
    time.sleep(1.5)
    assert app.iteration() == paused


def test_population_follows_the_model_while_training(app):
    app.start()
    app.open("Population")
    title = app.page.get_by_test_id("stPlotlyChart").first.locator(".gtitle")
    title.wait_for()

    def drawn_at() -> int:  # "127 of the 127 distinct rules, iteration 1,300"
        return int(re.search(r"iteration ([\d,]+)", title.text_content()).group(1).replace(",", ""))

    first = drawn_at()
    app.wait_until(lambda: drawn_at() > first)  # redrawn from a later snapshot, every two seconds
    app.no_exception()
    app.shot("population_training")
    app.pause()


def test_clicking_a_point_explains_that_instance(app):
    app.start()
    time.sleep(2.0)
    app.pause()
    app.open("Population")
    points = app.page.get_by_test_id("stPlotlyChart").first.locator(".scatterlayer path.point")
    points.first.wait_for()
    caption = app.page.get_by_text(re.compile(r"Selected instance: #\d+"))

    def selected() -> int:
        return int(re.search(r"#(\d+)", caption.inner_text()).group(1))

    assert selected() == 0
    app.shot("population")
    box = points.nth(points.count() // 2).bounding_box()  # clicked where the browser drew it
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    app.wait_until(lambda: selected() != 0)
    app.idle()
    chosen = selected()
    app.page.get_by_role("link", name=f"Explain instance #{chosen}").click()
    app.page.get_by_role("heading", name=re.compile(rf"Instance #{chosen} ")).wait_for()
    app.idle()
    app.no_exception()
    assert app.page.get_by_text(re.compile(r"rules? match(es)? instance|nearest rules answered"
                                           )).count()
    app.page.locator("[data-testid='stDataFrame']:visible").first.wait_for()  # the match set
    app.shot("explain")


def test_a_broken_upload_shows_the_loader_error_and_keeps_the_data(app, tmp_path):
    broken = tmp_path / "broken.arff"
    broken.write_text("@relation broken\n@attribute a numeric\n@data\n1,2,3\n")
    app.open("Data")
    app.page.get_by_role("tab", name="Upload").click()
    app.page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(broken))
    app.page.get_by_text("broken.arff").first.wait_for()
    app.press("Load upload")
    error = app.page.get_by_test_id("stAlertContentError")
    error.wait_for()
    assert "broken.arff" in error.inner_text()
    app.idle()
    app.no_exception()
    assert "hypercube_2d" in app.page.get_by_test_id("stSidebar").inner_text()
    assert app.page.get_by_role("heading", name="Current dataset: hypercube_2d").count() == 1
    app.shot("bad_upload")


def test_two_tabs_train_two_independent_models(app, other_tab):
    app.press("Step")
    app.wait_until(lambda: app.iteration() > 0)
    tab = other_tab()
    # the metric named Iteration (the first value drawn may be another one: a run under load
    # once read Epoch's "0.00" here)
    value = tab.get_by_test_id("stMetric").filter(
        has=tab.get_by_test_id("stMetricLabel").get_by_text("Iteration", exact=True)
    ).get_by_test_id("stMetricValue")
    value.wait_for()
    assert value.inner_text() == "0"
    assert app.iteration() == 200


def test_works_offline(app):
    """Every page, trained, with every request to a non-local host aborted: none is attempted."""
    app.press("Step")
    app.wait_until(lambda: app.iteration() > 0)
    for name, n_charts in CHARTS.items():
        title = BY_NAME[name].title
        app.open(title)
        app.page.get_by_test_id("stPlotlyChart").nth(n_charts - 1).locator(
            ".main-svg").first.wait_for()
    app.no_exception()
    assert app.blocked == []
    icon = app.page.locator("link[rel='shortcut icon'], link[rel='icon']").first
    assert urlsplit(icon.get_attribute("href")).hostname in (None, "127.0.0.1")  # no CDN
