"""The paper's bounds: values worked by hand, broadcasting, validation, and the bounds checked on
the real datasets' ahd/ahw where the paper says they apply."""

import itertools

import numpy as np
import pytest

from mlr_core.data.stats import dataset_stats
from mlr_core.errors import InputError
from mlr_core.evaluation import theory

# r0 = 0.5, d = 4, tau_hash = 0.5: a rule matches with probability 0.5 ** 2 = 0.25
R0, D, TAU, P = 0.5, 4, 0.5, 0.25


def test_hand_worked_values():
    assert theory.match_probability(R0, D, TAU) == P
    assert theory.expected_fitness_em(R0, D, TAU, dl=5) == P / 5
    assert theory.expected_fitness_hl(R0, D, TAU, ahd=1.0, m=4) == P * (1 - 1 / 4)
    # m = 3, DL = 8: 1 - 4/6 + 4/24 = 1/2
    assert theory.hl_fitness_upper_bound(R0, D, TAU, m=3, dl=8) == pytest.approx(P / 2)
    # Dens = 1/4: 2/16 - 1/2 + 1 = 5/8; Dens = 1/2 is the minimum, 1/2
    assert theory.hl_fitness_lower_bound(R0, D, TAU, dens=0.25) == pytest.approx(P * 5 / 8)
    assert theory.hl_fitness_lower_bound(R0, D, TAU, dens=0.5) == pytest.approx(P / 2)
    assert theory.ahd_lower_bound(m=3, dl=8) == 2 - 4 / 8
    assert theory.ahd_upper_bound(ahw=1.5, m=3) == 3 - 2 * 2.25 / 3


def test_exponent_is_d_times_tau_hash():
    # the paper prints n for d in the lower bound: the number of instances plays no part
    assert theory.hl_fitness_lower_bound(0.5, d=10, tau_hash=0.3, dens=0.0) == pytest.approx(0.5**3)
    assert theory.match_probability(0.9, d=0, tau_hash=0.7) == 1.0


def test_upper_bound_valid_at_its_threshold_and_for_large_m():
    # m = 3: DL >= 2**3 / 4 = 2
    assert theory.upper_bound_valid(2, 3) and not theory.upper_bound_valid(1, 3)
    with np.errstate(all="raise"):  # m = 174 (CAL500) must not overflow
        assert not theory.upper_bound_valid(502, 174)
        assert theory.upper_bound_valid(2.0**170, 174)


def test_bounds_are_tight_for_the_full_binary_code():
    # all 2**m labelsets: ahd = m/2 equals the lower bound; ahw = m/2 makes the upper bound m/2
    for m in (1, 2, 5):
        stats = dataset_stats(list(itertools.product([0, 1], repeat=m)))
        assert stats["ahd"] == pytest.approx(theory.ahd_lower_bound(m, stats["dl"]))
        assert stats["ahd"] == pytest.approx(theory.ahd_upper_bound(stats["ahw"], m))


def test_functions_broadcast_for_curves():
    dl = np.geomspace(1, 2**10, 50)
    assert theory.expected_fitness_em(R0, D, TAU, dl).shape == (50,)
    grid = theory.match_probability(np.array([0.2, 0.5, 0.8]), np.array([[1], [10]]), TAU)
    assert grid.shape == (2, 3) and grid[1, 0] == pytest.approx(0.2**5)
    valid = theory.upper_bound_valid(dl, 10)
    assert valid.dtype == bool and not valid[0] and valid[-1]
    assert np.ndim(theory.hl_fitness_upper_bound(R0, D, TAU, 3, 8)) == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: theory.match_probability(0.0, 4, 0.5), r"r0 must lie in \(0\.0, 1\.0\], got 0\.0"),
        (lambda: theory.match_probability(1.5, 4, 0.5), r"r0 must lie in"),
        (lambda: theory.match_probability(0.5, -1, 0.5), r"d must lie in"),
        (lambda: theory.match_probability(0.5, 4, [0.5, 1.2]), r"tau_hash must lie in .* got 1\.2"),
        (lambda: theory.expected_fitness_em(0.5, 4, 0.5, 0), r"dl must lie in \[1\.0"),
        (lambda: theory.hl_fitness_lower_bound(0.5, 4, 0.5, np.nan), r"dens must lie in"),
        (lambda: theory.ahd_lower_bound(0, 3), r"m must lie in"),
        (lambda: theory.ahd_upper_bound(-1, 3), r"ahw must lie in"),
    ],
)
def test_out_of_range_inputs_raise(call, message):
    with pytest.raises(InputError, match=message):
        call()


# --- the real datasets ----------------------------------------------------------------------------

NAMES = ("yeast", "emotions", "flags", "cal500", "genbase")


@pytest.fixture(scope="module")
def real_stats(real_datasets):
    return {name: dataset_stats(data.Y) for name, data in real_datasets.items()}


@pytest.mark.parametrize("name", NAMES)
def test_bounds_hold_on_real_datasets(real_stats, name):
    s = real_stats[name]
    m, dl, ahd, ahw = s["m"], s["dl"], s["ahd"], s["ahw"]
    # eq. (ahw upper bound) holds for any code
    assert ahd <= theory.ahd_upper_bound(ahw, m)
    f_hl = theory.expected_fitness_hl(R0, D, TAU, ahd, m)
    assert theory.hl_fitness_lower_bound(R0, D, TAU, dens=ahw / m) <= f_hl
    # F_em <= F_hl, as the paper argues
    assert theory.expected_fitness_em(R0, D, TAU, dl) <= f_hl
    # eq. (ahd lower bound) and the fitness upper bound, only where DL >= 2**m / (m + 1)
    valid = bool(theory.upper_bound_valid(dl, m))
    assert valid == (name in ("emotions", "flags"))
    if valid:
        assert theory.ahd_lower_bound(m, dl) <= ahd
        assert f_hl <= theory.hl_fitness_upper_bound(R0, D, TAU, m, dl)
    else:
        assert theory.ahd_lower_bound(m, dl) < 0  # trivially true, hence meaningless


def test_dens_lower_bound_needs_every_labelset_distinct(real_stats):
    # eq. (Fbar lower bound) replaces ahw by Card, which the paper justifies for DL = n (CAL500);
    # on yeast, emotions and genbase the Dens form exceeds the expected fitness it should bound.
    for name, s in real_stats.items():
        f_hl = theory.expected_fitness_hl(R0, D, TAU, s["ahd"], s["m"])
        holds = theory.hl_fitness_lower_bound(R0, D, TAU, s["dens"]) <= f_hl
        assert holds == (name in ("flags", "cal500")), name
    assert real_stats["cal500"]["dl"] == real_stats["cal500"]["n"]
