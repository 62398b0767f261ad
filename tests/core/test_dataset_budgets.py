"""Loaders check a file's size before the work: a dataset bigger than the memory budget is refused
with both sizes named, before its arrays exist; sparse ARFF is parsed without a dense array of
objects; a wide CSV is read in one pass. (Issue 16's hostile-input sweep, loader cases.)"""

import tracemalloc

import numpy as np
import pytest

from mlr_core.data.loaders import load_dataset, load_dataset_bytes
from mlr_core.errors import DatasetError
from mlr_core.validation import MEMORY_BUDGET


def sparse_arff(n_attributes: int, n_rows: int, row: str = "{0 1,2 0.5}") -> bytes:
    """A MEKA file (first two attributes are labels) of numeric attributes and identical rows."""
    header = "".join(f"@attribute a{j} numeric\n" for j in range(n_attributes))
    return (f"@relation 'wide: -C 2'\n{header}@data\n" + (row + "\n") * n_rows).encode()


def peak_bytes(call) -> int:
    """The most memory Python and numpy held at once during ``call`` (tracemalloc sees both)."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_sweeps_sparse_arff_is_refused_before_it_is_allocated():
    # 0.34 MB declaring 8,000 x 9,998 features: 640 MB dense (it grew the server by 2.45 GB)
    data = sparse_arff(10_000, 8_000)
    assert len(data) < 350_000

    def load():
        with pytest.raises(DatasetError) as refused:
            load_dataset_bytes(data, "wide.arff")
        message = str(refused.value)
        assert message.startswith("wide.arff: 8,000 rows x 10,000 columns would take 640.0 MB")
        assert f"budget of {MEMORY_BUDGET / 1e6:.1f} MB" in message and "max_bytes=" in message

    assert peak_bytes(load) < 40e6  # the text, its lines and the header: nothing of 640 MB


def test_sparse_arff_within_the_budget_is_filled_without_a_dense_intermediate():
    data = sparse_arff(4_002, 1_500, row="{0 1,2 0.5,4001 -3}")
    loaded = []
    peak = peak_bytes(lambda: loaded.append(load_dataset_bytes(data, "wide.arff")))
    ds = loaded[0]
    assert ds.X.shape == (1_500, 4_000) and ds.Y.shape == (1_500, 2)
    assert (ds.Y == [1, 0]).all()
    expected = np.zeros(4_000)
    expected[[0, 3_999]] = [0.5, -3]
    assert (ds.X == expected).all()
    # X is 48 MB; a dense object array of the rows (the old way) alone took as much again, and
    # its float copies two or three times more
    assert peak < 1.5 * ds.X.nbytes, f"peak {peak / 1e6:.0f} MB for X of {ds.X.nbytes / 1e6:.0f}"


def test_a_question_mark_on_a_wide_nominal_counts_each_value_it_stores():
    """Read sparse, a nominal's ``?`` is NaN stored in each of its one-hot columns: 8 MB from a
    file of 9 kB, counted (16 bytes a value) before any of it exists."""
    values = ",".join(f"v{k}" for k in range(500))
    data = (f"@relation 'wide: -C 2'\n@attribute L1 {{0,1}}\n@attribute L2 {{0,1}}\n"
            f"@attribute c {{{values}}}\n@data\n" + "{2 ?}\n" * 1_000).encode()
    assert len(data) < 9_000
    stored = 16 * 500 * 1_000
    with pytest.raises(DatasetError, match=r"wide\.arff: 1,000 rows x 502 columns would take "
                                           r"8\.0 MB of memory, more than the budget of 7\.2 MB"):
        load_dataset_bytes(data, "wide.arff", sparse=True, max_bytes=0.9 * stored)
    ds = load_dataset_bytes(data, "wide.arff", sparse=True, max_bytes=2 * stored)
    assert ds.X.nnz == 500 * 1_000 and np.isnan(ds.X.data).all()


def test_budget_is_checked_for_csv_and_for_the_file_itself(tmp_path):
    text = "a,b,label:y\n" + "1,2,0\n" * 100
    with pytest.raises(DatasetError, match=r"c\.csv: 100 rows x 3 columns would take 2\.4 kB of "
                                           r"memory, more than the budget of 1\.0 kB"):
        load_dataset_bytes(text.encode(), "c.csv", max_bytes=1000)
    assert load_dataset_bytes(text.encode(), "c.csv", max_bytes=3000).n_samples == 100
    path = tmp_path / "c.csv"
    path.write_text(text)
    with pytest.raises(DatasetError, match=r"c\.csv would take 612 bytes of memory, more than "
                                           r"the budget of 500 bytes"):
        load_dataset(path, max_bytes=500)
    with pytest.raises(DatasetError, match="budget of 500 bytes"):
        load_dataset_bytes(path.read_bytes(), "c.csv", max_bytes=500)


def test_wide_csv_is_read_right():
    # 200,000 columns x 2 rows (2.3 MB): pandas' parser needed a minute; one pass over the text
    # now (timed in benchmarks/bench_load.py --hostile)
    n = 200_000
    header = ",".join(f"f{j}" for j in range(n)) + ",label:y,label:z"
    rows = [",".join(["0.25"] * n) + ",1,0", ",".join(str(j % 7) for j in range(n)) + ",0,1"]
    ds = load_dataset_bytes("\n".join([header, *rows]).encode(), "wide.csv")
    assert ds.X.shape == (2, n) and ds.label_names == ["y", "z"]
    assert (ds.X[0] == 0.25).all() and (ds.X[1] == np.arange(n) % 7).all()
    assert ds.Y.tolist() == [[1, 0], [0, 1]] and ds.feature_names[-1] == f"f{n - 1}"


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("a,label:y\n1,true\n2,FALSE\n", [1, 0]),  # what pandas writes for bool columns
        ('"a,1",label:y\n1,0\n2,1\n', [0, 1]),  # a quoted header with a comma
        ("a,label:y\r\n1,0\r\n\r\n2,1\r\n", [0, 1]),
    ],
)
def test_csv_cells_that_load(text, labels):
    assert load_dataset_bytes(text.encode(), "c.csv").Y[:, 0].tolist() == labels


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a,a,label:y\n1,2,0\n", "column name 'a' appears twice"),  # pandas renamed it a.1
        ("a,label:y\n1,0\n2,yes\n", r"line 3: label column 'label:y' is 'yes'; a label is 0 or 1"),
        ('a,label:y\n1,0\n"2\n', r"line 3: 1 fields, but the header names 2 columns"),
    ],
)
def test_csv_cells_that_are_refused(text, message):
    with pytest.raises(DatasetError, match=message):
        load_dataset_bytes(text.encode(), "c.csv")


def test_generator_refuses_a_dataset_over_the_budget_before_drawing_it():
    from mlr_core import make_hypercube_dataset
    from mlr_core.errors import InputError

    with pytest.raises(InputError, match=r"1,000,000,000 samples x 8 columns would take 64\.0 GB"):
        make_hypercube_dataset(n_samples=10**9, n_relevant=2, n_labels=6)
