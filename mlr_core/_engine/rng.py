"""A small random generator that lives in a model's own state (xoshiro256**, seeded by splitmix64).

Written by hand because numba's ``np.random`` inside compiled code is one global stream per thread:
two models trained in turn (two dashboard tabs, a notebook) would perturb each other and a seed
would no longer fix the run. Here each model carries its 4-word state array.
"""

import numpy as np

from mlr_core._engine.jit import njit

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)


def new_state(seed: int) -> np.ndarray:
    """Four 64-bit words from an integer seed (splitmix64), never all zero."""
    state = np.empty(4, dtype=np.uint64)
    z = int(seed) & 0xFFFFFFFFFFFFFFFF
    for i in range(4):
        z = (z + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        w = z
        w = ((w ^ (w >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        w = ((w ^ (w >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        state[i] = w ^ (w >> 31)
    return state


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def next_u64(s):
    """Advance the state in place and return 64 random bits."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit
def uniform(s):
    """A float in [0, 1) with 53 random bits."""
    return (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def integer(s, n):
    """An integer in [0, n) (n > 0)."""
    return min(int(uniform(s) * n), n - 1)


@njit
def shuffle(s, a):
    """Fisher-Yates shuffle of a 1-D array in place."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = integer(s, i + 1)
        a[i], a[j] = a[j], a[i]
