"""The dashboard on a sparse ARFF (issue 32, item 3): it stays a CSR matrix from the data folder
through training, every page and the downloads (``dashboard/sparse_features.py``)."""

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sparse_mulan import write_sparse_mulan

from dashboard import sparse_features
from mlr_core import load_dataset

N_ROWS, N_WORDS, N_LABELS = 300, 2000, 3


def write_sparse_arff(folder: Path, name: str = "words", density: float = 0.01,
                      seed: int = 0, unknown: float = 0.0) -> Path:
    """``folder/name.arff`` in ARFF's sparse format (``{index value, ...}``) with its MULAN XML:
    0/1 words at ``density``, label k on when the row holds word k or word k + N_LABELS (each
    in about a fifth of the rows), so that rules have something to learn; a share ``unknown``
    of the cells written ``?`` (missing)."""
    rng = np.random.default_rng(seed)
    X = rng.random((N_ROWS, N_WORDS)) < density
    X[:, :2 * N_LABELS] = rng.random((N_ROWS, 2 * N_LABELS)) < 0.1
    Y = X[:, :N_LABELS] | X[:, N_LABELS:2 * N_LABELS]
    return write_sparse_mulan(folder, name, X, Y, [f"w{j:04d}" for j in range(N_WORDS)],
                              [f"topic{k}" for k in range(N_LABELS)], word_type="numeric",
                              unknown=rng.random(X.shape) < unknown if unknown else None)


def test_text_stays_sparse_and_dense_enough_data_is_made_dense(tmp_path):
    words = load_dataset(write_sparse_arff(tmp_path), sparse=True)
    assert sparse_features.stays_sparse(words.X)  # 1% of the cells: CSR is a 50th of dense
    assert sparse_features.as_loaded(words) is words
    # half the cells stored: CSR (16 bytes a value) would take more than the dense matrix
    full = load_dataset(write_sparse_arff(tmp_path, "full", density=0.5), sparse=True)
    assert sp.issparse(full.X) and not sparse_features.stays_sparse(full.X)
    dense = sparse_features.as_loaded(full)
    assert isinstance(dense.X, np.ndarray)
    np.testing.assert_array_equal(dense.X, load_dataset(tmp_path / "full.arff").X)
    np.testing.assert_array_equal(dense.Y, full.Y)
    assert dense.feature_names == full.feature_names and dense.name == "full"
    assert not sparse_features.stays_sparse(np.zeros((3, 3)))


def test_the_rule_is_a_quarter_of_the_cells_or_the_memory_budget():
    quarter = sp.random(40, 100, density=0.25, format="csr", random_state=0)
    more = sp.random(40, 100, density=0.26, format="csr", random_state=0)
    assert sparse_features.stays_sparse(quarter) and not sparse_features.stays_sparse(more)
    # a budget the dense matrix would exceed keeps it sparse however many cells it stores
    full = sp.csr_matrix(np.ones((40, 100)))
    assert not sparse_features.stays_sparse(full)
    assert sparse_features.stays_sparse(full, budget=8 * 40 * 100 - 1)
    assert not sparse_features.stays_sparse(full, budget=8 * 40 * 100)


def test_row_values_list_a_sparse_rows_stored_values():
    X = sp.csr_matrix(np.array([[0.0, 2.5, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]))
    features, values = sparse_features.row_values(X, 0)
    np.testing.assert_array_equal(features, [1, 3])
    np.testing.assert_array_equal(values, [2.5, 1.0])
    assert len(sparse_features.row_values(X, 1)[0]) == 0
    dense = X.toarray()
    features, values = sparse_features.row_values(dense, 0)
    np.testing.assert_array_equal(features, [0, 1, 2, 3])
    np.testing.assert_array_equal(values, dense[0])
    for j in range(4):
        np.testing.assert_array_equal(sparse_features.column(X, j), dense[:, j])
    np.testing.assert_array_equal(sparse_features.leading_columns(X, 3), dense[:, :3])


@pytest.fixture
def data_folder(monkeypatch, tmp_path):
    """A data folder set at launch holding the sparse ARFF ``words``."""
    from dashboard import ui

    write_sparse_arff(tmp_path)
    monkeypatch.setenv("MLR_DATA_DIR", str(tmp_path))
    ui.launch_options.cache_clear()
    yield tmp_path
    ui.launch_options.cache_clear()


def test_a_sparse_arff_stays_sparse_through_training_every_page_and_the_downloads(
        data_folder, monkeypatch):
    from apptest import started
    from downloads import deferred_downloads
    from stepping import step

    from dashboard.page_registry import BY_NAME, PAGES

    made = deferred_downloads(monkeypatch)

    def no_exception(at, where):
        assert not at.exception, (where, [e.value for e in at.exception])
        assert not at.error, (where, [e.value for e in at.error])

    at = started().switch_page(BY_NAME["data"].path).run()
    at.button(key="load_folder").click().run()
    no_exception(at, "load")
    session = at.session_state["session"]
    assert session.split.dataset.name == "words"
    assert sp.issparse(session.split.dataset.X)
    stored = session.split.dataset.X.nnz
    assert any(c.value.startswith(f"Kept sparse: {stored:,} values stored") for c in at.caption)
    at.number_input(key="step_k").set_value(400)
    step(at)
    assert session.snapshot().iteration == 400 and len(session.snapshot().rules)
    for page in PAGES:
        at = at.switch_page(page.path).run()
        no_exception(at, page.name)
    at = at.switch_page(BY_NAME["microscope"].path).run()
    at.button(key="trace").click().run()
    no_exception(at, "microscope trace")
    at = at.switch_page(BY_NAME["explain"].path).run()
    at.toggle(key="fitted_weights").set_value(True).run()
    no_exception(at, "explain, fitted weights")
    in_row = session.split.dataset.X[session.selection.index].nnz
    at.session_state["explain_values"] = True  # the feature values' expander, opened
    at.run()
    assert any(f"The {in_row:,} values this row stores" in c.value for c in at.caption)
    at = at.switch_page(BY_NAME["rules"].path).run()
    at.button(key="run_audit").click().run()
    no_exception(at, "rules audit")
    for name, make in made.items():
        assert make(), name  # the rules' CSV and model JSON, the audit report
    assert {"words-rules.csv", "words-model.json"} <= set(made)
    assert sp.issparse(session.split.dataset.X)


def test_a_sparse_arff_with_question_marks_trains_and_shows_them_as_the_model_reads_them(
        data_folder):
    """A sparse ARFF whose ``?`` cells are stored NaN: the data folder's file loads sparse,
    trains (``missing="typical"``), every page draws, and Explain lists a row's missing
    values as the model reads them."""
    from apptest import started
    from stepping import step

    from dashboard.page_registry import BY_NAME, PAGES

    path = write_sparse_arff(data_folder, "holes", unknown=0.002)
    at = started().switch_page(BY_NAME["data"].path).run()
    at.selectbox(key="folder_dataset").set_value(path)
    at.button(key="load_folder").click().run()
    assert not at.exception and not at.error, [e.value for e in [*at.exception, *at.error]]
    session = at.session_state["session"]
    X = session.split.dataset.X
    assert session.split.dataset.name == "holes" and sp.issparse(X)
    assert np.isnan(X.data).sum() == path.read_text().count("?") > 0
    at.number_input(key="step_k").set_value(400)
    step(at)
    for page in PAGES:
        at = at.switch_page(page.path).run()
        assert not at.exception and not at.error, (page.name, [e.value for e in at.exception])
    row = int(np.flatnonzero(np.isnan(X.toarray()).any(axis=1))[0])
    session.selection.select(row)
    at = at.switch_page(BY_NAME["explain"].path).run()
    at.session_state["explain_values"] = True  # the feature values' expander, opened
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    missing = X[row].indices[np.isnan(X[row].data)]
    scaling = session.snapshot().scaling
    listed = next(frame.value for frame in at.dataframe
                  if list(frame.value.columns) == ["feature", "value"])
    shown = dict(zip(listed["feature"], listed["value"], strict=True))
    assert [shown[session.split.dataset.feature_names[j]] for j in missing] == [
        scaling.fill_text(j) for j in missing]
    assert all(text.startswith("missing (read as ") for text in shown.values()
               if text.startswith("missing"))


@pytest.mark.parametrize("weighting, axis", [("vote", "minmax"), ("fitted", "minmax"),
                                             ("vote", "rank")])
def test_snapshot_bounds_are_the_models_rule_bounds_without_the_dense_matrices(
        tmp_path, weighting, axis):
    """``RuleBounds.of_model`` (the pairs a snapshot keeps) holds exactly the specified cells of
    ``rule_bounds()``: under fitted weights on 0/1 words with the one-word rules, and on the
    rank axis, whose many pieces per feature are found by bisection (``Scaling.unscale_at``)."""
    from dashboard.bounds import RuleBounds
    from mlr_core import MLRClassifier, make_hypercube_dataset

    data = (load_dataset(write_sparse_arff(tmp_path), sparse=True) if axis == "minmax" else
            make_hypercube_dataset(n_samples=300, n_relevant=2, n_labels=3, random_state=0))
    X = data.X if axis == "minmax" else np.exp(6 * data.X)  # heavy-tailed: uneven pieces
    model = MLRClassifier(n_iter=400, random_state=0, weighting=weighting, axis=axis).fit(
        X, data.Y)
    lower, upper = model.rule_bounds()
    whole, pairs = RuleBounds.of(lower, upper), RuleBounds.of_model(model)
    assert pairs.n_rules == len(model.rules_frame()) == lower.shape[0]
    assert pairs.n_features == X.shape[1] and len(pairs.rule) == len(whole.rule) > 0
    order = np.lexsort((pairs.feature, pairs.rule))
    for name in ("rule", "feature", "lower", "upper"):
        np.testing.assert_array_equal(getattr(pairs, name)[order], getattr(whole, name))
    if weighting == "fitted":
        assert model.rule_set_.n_feature_rules > 0


def test_loading_sparse_data_compiles_its_kernels_before_a_page_needs_them(data_folder,
                                                                         monkeypatch):
    """The sparse rows' kernels are compiled apart: after a fresh install each page compiled its
    own on first use (Explain took 4.9 s while training on ohsumed, its vote's kernel
    compiling). Loading data kept sparse starts their warm-up, and a page that asks the engine
    waits for it, saying why."""
    import threading

    from apptest import started

    from dashboard import warmup
    from dashboard.page_registry import BY_NAME

    warmed = []
    real = warmup.exercise_kernels
    monkeypatch.setattr(warmup, "_sparse_done", threading.Event())
    monkeypatch.setattr(warmup, "_sparse_thread", None)
    monkeypatch.setattr(warmup, "exercise_kernels",
                        lambda sparse=False: warmed.append(sparse) or real(sparse))
    at = started()
    assert warmup._sparse_thread is None  # the sample is dense
    at = at.switch_page(BY_NAME["data"].path).run()
    at.button(key="load_folder").click().run()
    assert not at.exception and sp.issparse(at.session_state["session"].split.dataset.X)
    assert warmup._sparse_thread is not None  # started by the load
    at = at.switch_page(BY_NAME["explain"].path).run()
    assert not at.exception
    assert warmup.ready(sparse=True) and True in warmed  # the page waited for it
