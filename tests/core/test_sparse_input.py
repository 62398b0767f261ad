"""scipy sparse input end to end (issue 32): a CSR, CSC, COO or LIL matrix, or a sparse array,
gives exactly what its dense twin gives, in fit, predict, scores, explanations, scorecards,
compaction, the audit and the Python export, while its rows stay sparse; hostile sparse input
(explicit zeros, unsorted or repeated indices, int64 indices, NaN, a wrong width) is read as
its values say or refused with a message."""

import numpy as np
import pytest
import scipy.sparse as sp

from mlr_core import MLRClassifier
from mlr_core.audit import audit
from mlr_core.compaction import compact
from mlr_core.data.loaders import load_dataset_bytes
from mlr_core.errors import InputError
from mlr_core.export import python_labels, to_python
from mlr_core.scaling import Scaling
from mlr_core.scorecard import to_csv
from mlr_core.sparse_rows import SparseRows, checked_csr
from mlr_core.training_session import TrainingSession


def words(n=240, d=40, seed=0):
    """Sparse word counts (about 8% stored, some negative values on two columns so that a
    feature's 0 is not the start of its axis) and two labels planted on words 0 and 1."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.08, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.integers(1, 4, k).astype(float))
    X = X.tolil()
    X[: n // 3, 5] = -2.0
    X[:: 7, 6] = 1.5
    X = X.tocsr()
    Y = np.column_stack([X[:, 0].toarray().ravel() > 0,
                         X[:, 1].toarray().ravel() > 0]).astype(np.uint8)
    return X, Y


def fitted(X, Y, **params):
    return MLRClassifier(n_iter=1500, random_state=0, **params).fit(X, Y)


@pytest.fixture(scope="module")
def data():
    return words()


@pytest.fixture(scope="module")
def pair(data):
    """The same model fitted on the sparse rows and on their dense twin."""
    X, Y = data
    return fitted(X, Y), fitted(X.toarray(), Y)


@pytest.mark.parametrize("params", [{"weighting": "vote"}, {"axis": "rank"},
                                    {"prediction": "max"}])
def test_sparse_and_dense_fit_the_same_model(data, params):
    X, Y = data
    sparse, dense = fitted(X, Y, **params), fitted(X.toarray(), Y, **params)
    assert np.array_equal(sparse.predict(X), dense.predict(X.toarray()))
    assert np.array_equal(sparse.predict_proba(X), dense.predict_proba(X.toarray()))
    assert sparse.to_json() == dense.to_json()


def test_fitted_weights_sparse_as_dense(pair, data):
    X, _ = data
    sparse, dense = pair
    assert sparse.to_json() == dense.to_json()
    assert np.array_equal(sparse.predict_proba(X), dense.predict_proba(X.toarray()))
    assert sparse.coverage(X) == dense.coverage(X.toarray())
    # a dense model predicts sparse rows, and the other way round
    assert np.array_equal(dense.predict(X), sparse.predict(X.toarray()))


def test_the_bound_rows_stay_sparse(pair, data):
    X, _ = data
    rows = pair[0].run_.X
    assert isinstance(rows, SparseRows)
    assert len(rows.data) == X.nnz and len(rows.zero) == X.shape[1]
    assert np.array_equal(rows.dense(), pair[1].run_.X)
    assert np.array_equal(rows[3], pair[1].run_.X[3])
    assert np.array_equal(rows[-1], pair[1].run_.X[-1])
    assert np.array_equal(rows[10:20].dense(), pair[1].run_.X[10:20])
    assert np.array_equal(rows[[5, 2]].dense(), pair[1].run_.X[[5, 2]])


@pytest.mark.parametrize("form", ["csc", "coo", "lil", "dok", "csr_array"])
def test_every_scipy_format_is_read_as_its_values(pair, data, form):
    X, _ = data
    given = sp.csr_array(X) if form == "csr_array" else X.asformat(form)
    assert np.array_equal(pair[0].predict(given), pair[0].predict(X))


def test_hostile_sparse_rows_read_as_their_values(pair, data):
    X, _ = data
    model = pair[0]
    expected = model.predict_proba(X)
    # explicit zeros stored, some in column 5, whose 0 is not the start of its axis
    with_zeros = X.copy()
    with_zeros.data[::5] = 0.0
    with_zeros.data[with_zeros.indices == 5] = 0.0
    without = with_zeros.copy()
    without.eliminate_zeros()
    assert with_zeros.nnz == X.nnz > without.nnz
    scores = model.predict_proba(with_zeros)
    assert np.array_equal(scores, model.predict_proba(with_zeros.toarray()))
    assert np.array_equal(scores, model.predict_proba(without))
    # unsorted indices and an index given twice (summed, as scipy's toarray does)
    shuffled = X.copy()
    for r in range(X.shape[0]):
        lo, hi = shuffled.indptr[r], shuffled.indptr[r + 1]
        shuffled.indices[lo:hi] = shuffled.indices[lo:hi][::-1]
        shuffled.data[lo:hi] = shuffled.data[lo:hi][::-1]
    shuffled.has_sorted_indices = False
    before = shuffled.indices.copy()
    assert np.array_equal(model.predict_proba(shuffled), expected)
    assert np.array_equal(shuffled.indices, before)  # the caller's matrix is left as it was
    twice = sp.coo_matrix((np.r_[X.tocoo().data, [1.0, 1.0]],
                           (np.r_[X.tocoo().row, [0, 0]], np.r_[X.tocoo().col, [3, 3]])),
                          shape=X.shape)
    assert np.array_equal(model.predict_proba(twice), model.predict_proba(twice.toarray()))
    # int64 indices
    wide = X.copy()
    wide.indices, wide.indptr = wide.indices.astype(np.int64), wide.indptr.astype(np.int64)
    assert np.array_equal(model.predict_proba(wide), expected)


def test_canonical_form():
    X = sp.csr_matrix((np.array([2.0, 0.0, 1.0, 1.0]), np.array([3, 1, 0, 3]),
                       np.array([0, 4, 4])), shape=(2, 5))
    canonical = checked_csr(X)
    assert canonical.indices.dtype == np.int64 and canonical.indptr.dtype == np.int64
    assert canonical.indices.tolist() == [0, 1, 3] and canonical.data.tolist() == [1, 0, 3]
    assert np.array_equal(canonical.toarray(), X.toarray())
    assert X.indices.tolist() == [3, 1, 0, 3]


@pytest.mark.parametrize("axis", ["minmax", "rank"])
def test_scaling_of_sparse_columns_counts_the_zeros_not_stored(axis):
    dense = np.array([[0.0, 3.0, 1.0, -1.0, 0.0],
                      [0.0, 2.0, 0.0, 2.0, 0.0],
                      [5.0, 1.0, 1.0, 0.0, 0.0],
                      [0.0, 4.0, 0.0, 7.0, 0.0]])
    rows, cols = np.nonzero(dense)
    X = sp.coo_matrix((np.r_[dense[rows, cols], 0.0], (np.r_[rows, 1], np.r_[cols, 4])),
                      shape=dense.shape).tocsr()  # an explicit zero in an empty column
    assert X.nnz == len(rows) + 1
    sparse, dense = Scaling.of(checked_csr(X), axis), Scaling.of(dense, axis)
    assert sparse.to_dict() == dense.to_dict()
    assert sparse.binary.tolist() == [False, False, True, False, True]


def test_sparse_labels_are_read_as_their_values(pair, data):
    X, Y = data
    model = fitted(X, sp.csr_matrix(Y))
    assert model.to_json() == pair[0].to_json()


def test_explanations_scorecards_and_exports_of_sparse_rows(pair, data):
    X, _ = data
    sparse, dense = pair
    rule_set = sparse.rule_set_
    for r in (0, 17):
        a, b = rule_set.explain(X[r]), rule_set.explain(X[r].toarray()[0])
        assert a.match_set.equals(b.match_set) and a.scores.equals(b.scores)
        assert a.agg_labels == b.agg_labels and a.max_labels == b.max_labels
    assert to_csv(rule_set, X) == to_csv(rule_set, X.toarray())
    assert np.array_equal(rule_set.match_counts(X), rule_set.match_counts(X.toarray()))
    source = to_python(rule_set)
    assert np.array_equal(python_labels(source, X), sparse.predict(X))


def test_compaction_and_audit_of_sparse_rows(pair, data):
    X, Y = data
    sparse, dense = pair
    assert compact(sparse, 12).to_json() == compact(dense, 12).to_json()
    a, b = audit(sparse, X, Y), audit(dense, X.toarray(), Y)
    assert a.summary == b.summary
    assert a.measures.equals(b.measures)
    assert audit(sparse).summary == a.summary  # its bound rows, read where they are


def test_training_session_steps_on_sparse_rows(data):
    X, Y = data
    steps = [TrainingSession(MLRClassifier(random_state=1)).start(rows, Y).learn(300)
             for rows in (X, X.toarray())]
    for session in steps:
        session.step_traced()
        session.learn(200).tune_bipartition()
    for session in steps:  # resized, on the rows bound, where they are
        session.model.set_params(n_rules=600)
        session.restart()
    assert isinstance(steps[0].run.X, SparseRows)
    assert steps[0].model.to_json() == steps[1].model.to_json()
    warm = TrainingSession(steps[0].model).start(X, Y, warm_start=True).learn(100)
    warm = warm.tune_bipartition().model
    assert np.array_equal(warm.predict(X), warm.predict(X.toarray()))


def test_bad_sparse_input_is_refused_with_a_message(pair, data):
    X, Y = data
    model = pair[0]
    nan = X.copy()
    nan.data[0] = np.nan
    with pytest.raises(InputError, match="NaN"):  # "typical" reads it (test_missing_values)
        fitted(nan, Y, missing="fail")
    failing = MLRClassifier(n_iter=200, random_state=0, missing="fail").fit(X, Y)
    with pytest.raises(InputError, match="NaN"):  # a stored NaN is read by "typical" only
        failing.predict(nan)
    with pytest.raises(InputError, match="NaN"):
        failing.rule_set_.scores(nan)
    with pytest.raises(InputError, match="features"):
        model.predict(X[:, :-1])
    with pytest.raises(InputError, match="feature columns"):
        model.rule_set_.scores(X[:, :-1])


SPARSE_ARFF = """@relation words
@attribute w0 numeric
@attribute w1 numeric
@attribute w2 numeric
@attribute colour {red,blue,green}
@attribute lab {0,1}
@data
{0 1,2 3,4 1}
{1 2}
{0 1,3 blue,4 1}
"""


def test_a_sparse_arff_stays_sparse():
    sparse = load_dataset_bytes(SPARSE_ARFF.encode(), "words.arff", labels=["lab"], sparse=True)
    dense = load_dataset_bytes(SPARSE_ARFF.encode(), "words.arff", labels=["lab"])
    assert sp.issparse(sparse.X) and not sp.issparse(dense.X)
    assert np.array_equal(sparse.X.toarray(), dense.X) and np.array_equal(sparse.Y, dense.Y)
    assert sparse.feature_names == dense.feature_names
    assert sparse.X.nnz == np.count_nonzero(dense.X) < dense.X.size
    assert sparse.to_frame().equals(dense.to_frame().astype(sparse.to_frame().dtypes))
