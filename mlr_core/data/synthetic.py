"""Synthetic multi-label data by the hypercube strategy of Mldatagen (Tomas et al. 2014), the
generator the paper used for its synthetic experiments.

The relevant features span a main hypercube, [0, 1] on every axis. Each label owns a smaller
hypercube inside it, with a random centre and a half-edge drawn between ``min_half_edge`` and
``max_half_edge``. Points are drawn uniformly from the union of the label hypercubes (or, with
``allow_empty=True``, from the whole main hypercube, so some fall in none), and a point's labelset
is the set of hypercubes that contain it. Irrelevant features (uniform noise), redundant features
(copies of relevant ones) and label noise (each label bit flipped with a probability) make the task
harder in the controlled ways Mldatagen offers.

The true regions are hyper-rectangles, exactly what MLR's rules can express, so a learner that
works should recover them; they are returned in ``Dataset.meta`` for drawing.
"""

from __future__ import annotations

import numpy as np

from mlr_core.data.loaders import Dataset
from mlr_core.errors import InputError


def _inside(points: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """(n, m) bool: whether point i lies in hypercube j (closed boxes)."""
    p = points[:, None, :]
    return np.all((p >= lower) & (p <= upper), axis=2)


def _sample_union(lower, upper, n, rng, decimals) -> np.ndarray:
    """``n`` points uniform on the union of boxes, without wasting draws outside them.

    Pick a box with probability proportional to its volume, draw a point uniformly in it, and keep
    it with probability 1/k, k = the number of boxes containing it: the proposal density at x is
    k(x) / total volume, so what is kept is uniform on the union. This is the distribution of
    Mldatagen's draw-in-the-main-cube-and-reject, which would need ~1e8 draws per point when
    8 relevant features meet half-edges of 0.1.
    """
    volume = np.prod(upper - lower, axis=1)
    kept, count = [], 0
    while count < n:
        size = 2 * (n - count) + 16
        box = rng.choice(len(volume), size=size, p=volume / volume.sum())
        points = rng.uniform(lower[box], upper[box])
        if decimals is not None:
            points = np.round(points, decimals)  # before labelling, so files stay exact
        k = _inside(points, lower, upper).sum(axis=1)
        keep = (k > 0) & (rng.random(size) * k < 1.0)
        kept.append(points[keep])
        count += int(keep.sum())
    return np.concatenate(kept)[:n]


def make_hypercube_dataset(
    n_samples: int = 600,
    n_relevant: int = 2,
    n_labels: int = 3,
    n_irrelevant: int = 0,
    n_redundant: int = 0,
    label_noise: float = 0.0,
    min_half_edge: float = 0.1,
    max_half_edge: float = 0.3,
    allow_empty: bool = False,
    decimals: int | None = None,
    random_state=None,
    name: str = "hypercube",
) -> Dataset:
    """Generate a multi-label dataset whose labels are hyper-rectangles (Mldatagen's hypercubes).

    Parameters
    ----------
    n_samples : int
        Number of instances.
    n_relevant : int
        Features spanning the main hypercube [0, 1]**n_relevant, named ``x1, x2, ...``.
    n_labels : int
        Labels ``L1, L2, ...``, one hypercube each.
    n_irrelevant : int
        Uniform [0, 1] noise features ``irr1, ...``, independent of the labels.
    n_redundant : int
        Features ``red1, ...`` that copy randomly chosen relevant ones (``meta["redundant_of"]``).
    label_noise : float
        Probability of flipping each label bit after labelling (so a noisy labelset may be empty).
    min_half_edge, max_half_edge : float
        Range of the label hypercubes' half-edges, within (0, 0.5].
    allow_empty : bool
        Draw points from the whole main hypercube, so that some have an empty labelset; by default
        every point lies in at least one label hypercube.
    decimals : int, optional
        Round every feature to this many decimals before labelling, so that a file written with
        that precision holds exactly the generated data.
    random_state : None, int or numpy.random.Generator
        Seed; the same seed gives the same dataset.
    name : str
        Name of the dataset.

    Returns
    -------
    Dataset
        ``meta`` holds the parameters, ``lower`` and ``upper`` (n_labels x n_relevant corners of
        the label hypercubes) and ``redundant_of`` (the relevant feature each copy repeats).

    Raises
    ------
    InputError
        A parameter is out of range.

    Examples
    --------
    >>> ds = make_hypercube_dataset(n_samples=100, random_state=0)
    >>> ds.X.shape, ds.Y.shape
    ((100, 2), (100, 3))
    """
    params = {
        "n_samples": n_samples,
        "n_relevant": n_relevant,
        "n_labels": n_labels,
        "n_irrelevant": n_irrelevant,
        "n_redundant": n_redundant,
        "label_noise": label_noise,
        "min_half_edge": min_half_edge,
        "max_half_edge": max_half_edge,
        "allow_empty": allow_empty,
        "decimals": decimals,
    }
    minimum = {"n_samples": 1, "n_relevant": 1, "n_labels": 1, "n_irrelevant": 0, "n_redundant": 0}
    for key, low in minimum.items():
        value = params[key]
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
            raise InputError(f"{key} must be an integer >= {low}, got {value!r}")
    if not 0.0 <= label_noise <= 1.0:
        raise InputError(f"label_noise must lie in [0, 1], got {label_noise}")
    if not 0.0 < min_half_edge <= max_half_edge <= 0.5:
        raise InputError(
            "need 0 < min_half_edge <= max_half_edge <= 0.5 so that each label hypercube fits in "
            f"the main one, got {min_half_edge} and {max_half_edge}"
        )
    rng = np.random.default_rng(random_state)

    half = rng.uniform(min_half_edge, max_half_edge, size=(n_labels, 1))
    centre = rng.uniform(half, 1.0 - half, size=(n_labels, n_relevant))
    lower, upper = centre - half, centre + half
    if allow_empty:
        relevant = rng.random((n_samples, n_relevant))
        if decimals is not None:
            relevant = np.round(relevant, decimals)
    else:
        relevant = _sample_union(lower, upper, n_samples, rng, decimals)
    Y = _inside(relevant, lower, upper)
    Y ^= rng.random(Y.shape) < label_noise

    irrelevant = rng.random((n_samples, n_irrelevant))
    if decimals is not None:
        irrelevant = np.round(irrelevant, decimals)
    source = rng.choice(n_relevant, size=n_redundant, replace=n_redundant > n_relevant)
    X = np.hstack([relevant, irrelevant, relevant[:, source]])

    feature_names = (
        [f"x{j + 1}" for j in range(n_relevant)]
        + [f"irr{j + 1}" for j in range(n_irrelevant)]
        + [f"red{j + 1}" for j in range(n_redundant)]
    )
    notes = [f"red{j + 1} copies x{s + 1}" for j, s in enumerate(source)]
    return Dataset(
        X,
        Y.astype(np.uint8),
        feature_names,
        [f"L{i + 1}" for i in range(n_labels)],
        name=name,
        notes=notes,
        meta={
            "generator": "hypercube",
            "params": {**params, "random_state": random_state},
            "lower": lower,
            "upper": upper,
            "redundant_of": [f"x{s + 1}" for s in source],
        },
    )
