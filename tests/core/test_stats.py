"""dataset_stats: hand-worked values, the O(DL*m) ahd against its O(DL**2*m) definition, and input
validation."""

import itertools

import numpy as np
import pytest

from mlr_core.data.stats import dataset_stats
from mlr_core.errors import DatasetError, InputError
from mlr_core.validation import check_label_matrix


def test_hand_worked_example():
    # labelsets 100, 100, 011, 000: distinct {100, 011, 000}; hd 100-011 = 3, 100-000 = 1,
    # 011-000 = 2, so ahd = 2 * (3 + 1 + 2) / 3**2 and ahw = (1 + 2 + 0) / 3
    stats = dataset_stats([[1, 0, 0], [1, 0, 0], [0, 1, 1], [0, 0, 0]])
    assert stats == pytest.approx(
        {
            "n": 4,
            "m": 3,
            "card": 1.0,
            "dens": 1 / 3,
            "dl": 3,
            "pdl": 0.75,
            "ahd": 12 / 9,
            "ahw": 1.0,
        }
    )
    assert isinstance(stats["dl"], int) and isinstance(stats["card"], float)


def test_full_binary_code_has_ahd_m_over_2():
    # all 2**m labelsets: each bit differs in half the pairs, ahd = m / 2, ahw = m / 2
    code = list(itertools.product([0, 1], repeat=4))
    stats = dataset_stats(code)
    assert (stats["dl"], stats["ahd"], stats["ahw"]) == (16, 2.0, 2.0)


@pytest.mark.parametrize("seed", range(5))
def test_ahd_equals_its_pairwise_definition(seed):
    rng = np.random.default_rng(seed)
    Y = (rng.random((60, 7)) < rng.uniform(0.1, 0.6)).astype(int)
    distinct = np.unique(Y, axis=0)
    pairwise = np.abs(distinct[:, None, :] - distinct[None, :, :]).sum()
    stats = dataset_stats(Y)
    assert stats["ahd"] == pytest.approx(pairwise / len(distinct) ** 2)
    assert stats["ahw"] == pytest.approx(distinct.sum(axis=1).mean())


def test_bool_and_float_matrices_are_accepted():
    assert dataset_stats(np.array([[True, False]]))["card"] == 1.0
    assert dataset_stats(np.array([[1.0, 0.0], [0.0, 0.0]]))["dl"] == 2


@pytest.mark.parametrize(
    ("Y", "message"),
    [
        ([[0, 2]], r"Y, row 0: label column 1 is 2; labels must be 0 or 1"),
        ([[0, 1], [0.5, 1]], r"Y, row 1: label column 0 is 0\.5"),
        ([[np.nan, 1]], r"label column 0 is nan"),
        ([["1", "0"]], r"label column 0 is '1'"),
        ([0, 1, 1], r"must be a 2-D \(n_samples, n_labels\) 0/1 matrix, got 1-D"),
        (np.zeros((2, 2, 2)), r"got 3-D"),
        (np.zeros((3, 0)), r"no label columns \(zero labels\)"),
        (np.zeros((0, 3)), r"Y has no rows"),
        ([[0, 1], [1]], r"Y is not a matrix"),
    ],
)
def test_bad_label_matrices_are_refused(Y, message):
    with pytest.raises(InputError, match=message):
        dataset_stats(Y)


def test_check_label_matrix_words_come_from_the_caller():
    with pytest.raises(DatasetError, match="file.csv, line 7: label 'b' is 3"):
        check_label_matrix(
            [[0, 3]],
            "file.csv",
            error=DatasetError,
            row_label=lambda i: f"line {i + 7}",
            label_names=["a", "b"],
        )
    out = check_label_matrix([[True, False]])
    assert out.dtype == np.uint8 and out.flags.c_contiguous
