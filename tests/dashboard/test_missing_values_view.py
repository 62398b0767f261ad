"""The Explain page lists a missing feature value as the model reads it (``missing (read as
3.2)``, or ``missing``: ``frames.feature_values``)."""

import numpy as np

from dashboard.frames import feature_values


def test_a_missing_value_reads_missing():
    table = feature_values(["a", "b", "c"], np.array([0.5, np.nan, 1234567.0]))
    assert table["feature"].tolist() == ["a", "b", "c"]
    assert table["value"].tolist() == ["0.5", "missing", "1.23457e+06"]


def test_a_missing_value_reads_as_the_model_reads_it():
    """With the model's readings (``Scaling.fill_text``): ``missing (read as 3.2)``."""
    table = feature_values(["a", "b", "c"], np.array([np.nan, 2.0, np.nan]),
                           missing=["missing (read as 3.2)", "missing (read as 1)", "missing"])
    assert table["value"].tolist() == ["missing (read as 3.2)", "2", "missing"]


def test_a_csv_with_empty_cells_trains_and_every_page_draws():
    """A CSV with empty feature cells (issue 32): it loads with the cells missing, trains, and
    every page draws without an exception or an error."""
    import csv
    import io

    from apptest import started
    from stepping import step

    from dashboard.page_registry import PAGES
    from mlr_core import make_hypercube_dataset

    data = make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, n_irrelevant=2,
                                  random_state=0)
    holes = np.random.default_rng(0).random(data.X.shape) < 0.2
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow([*data.feature_names, *(f"label:{name}" for name in data.label_names)])
    for values, gaps, labels in zip(data.X, holes, data.Y, strict=True):
        writer.writerow([*("" if gap else v for v, gap in zip(values, gaps, strict=True)),
                         *labels])
    at = started().switch_page("views/data.py").run()
    at.file_uploader(key="data_files").set_value(("holes.csv", text.getvalue().encode(),
                                                  "text/csv"))
    at.button(key="load_upload").click().run()
    assert not at.exception and not at.error
    session = at.session_state["session"]
    assert np.isnan(session.split.dataset.X).sum() == holes.sum()
    step(at)
    for page in PAGES:
        at = at.switch_page(page.path).run()
        assert not at.exception, (page.name, [e.value for e in at.exception])
        assert not at.error, (page.name, [e.value for e in at.error])
