"""Synthetic multi-label data by the hypercube strategy of Mldatagen (Tomas et al. 2014), the
generator the paper used for its synthetic experiments.

The relevant features span a main hypercube, [0, 1] on every axis. Each label owns a smaller
hypercube inside it. Points are drawn uniformly from the union of the label hypercubes (or, with
``allow_empty=True``, from the whole main hypercube, so some fall in none), and a point's labelset
is the set of hypercubes that contain it. Irrelevant features (uniform noise), redundant features
(copies of relevant ones) and label noise (each label bit flipped with a probability) make the task
harder in the controlled ways Mldatagen offers.

How big the hypercubes are decides how multi-label the data is. Mldatagen draws each half-edge
between a minimum and a maximum (``min_half_edge``/``max_half_edge`` here); a label's frequency is
then its volume share, which in d dimensions grows as half-edge ** d, so in 6 dimensions one label
can take 80% of the rows while the others barely overlap (cardinality near 1). By default the
hypercubes are sized from target label frequencies instead (``cardinality`` or
``label_frequency``): each label's volume is its frequency times the volume of the union, and one
scale factor, found by bisection, makes the boxes overlap just enough for that to hold.

The true regions are hyper-rectangles, exactly what MLR's rules can express, so a learner that
works should recover them; they are returned in ``Dataset.meta`` for drawing.
"""

from __future__ import annotations

import numpy as np

from mlr_core.data.loaders import Dataset
from mlr_core.data.stats import dataset_stats
from mlr_core.errors import InputError
from mlr_core.validation import MEMORY_BUDGET, check_memory

_SIZING_DRAWS = 20_000  # Monte Carlo points that measure the union's volume while sizing boxes
_BISECTION_STEPS = 40


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


def _boxes_from_frequencies(freq, n_relevant, allow_empty, rng):
    """(lower, upper) of hypercubes whose label frequencies are ``freq`` (m values in (0, 1]).

    Box j gets volume ``freq[j] * V`` (half-edge ``(freq[j] * V) ** (1/d) / 2``) and sits at a
    fixed random fraction of the room left for it along each axis, so all boxes drift toward
    the centre, and overlap more, as they grow. Uniform on the main cube (``allow_empty``),
    a label's frequency is its volume: V = 1. Uniform on the union, it is its volume over the
    union's, so V must equal the union's volume; the union's volume over V is
    ``sum(freq) * E[1/k]`` for points drawn as `_sample_union` proposes them (k = boxes holding
    the point), which falls from ``sum(freq)`` (disjoint boxes) to ``max(freq)`` (the largest box
    fills the cube) as V grows, so bisection on V finds where it is 1. The same proposal draws
    serve every V, so the bisection follows one deterministic curve.
    """
    m = len(freq)
    where = rng.random((m, n_relevant))

    def boxes(volume_scale):
        half = (freq * volume_scale) ** (1.0 / n_relevant) / 2.0
        lower = where * (1.0 - 2.0 * half[:, None])
        return lower, lower + 2.0 * half[:, None]

    largest = 1.0 / freq.max()  # the largest box fills the main cube
    if allow_empty:
        return boxes(1.0)
    box = rng.choice(m, size=_SIZING_DRAWS, p=freq / freq.sum())
    unit = rng.random((_SIZING_DRAWS, n_relevant))

    def union_over_scale(volume_scale):
        lower, upper = boxes(volume_scale)
        points = lower[box] + unit * (upper[box] - lower[box])
        k = _inside(points, lower, upper).sum(axis=1)
        return freq.sum() * np.mean(1.0 / k)

    low, high = np.log(largest) - 60.0, np.log(largest)
    for _ in range(_BISECTION_STEPS):
        mid = (low + high) / 2.0
        if union_over_scale(np.exp(mid)) > 1.0:
            low = mid
        else:
            high = mid
    return boxes(np.exp(high))


def _target_frequencies(n_labels, cardinality, label_frequency, allow_empty):
    """The m target label frequencies from ``cardinality`` or ``label_frequency`` (one of them
    or neither: then the default cardinality, max(1.5, m / 3), capped at m)."""
    if cardinality is not None and label_frequency is not None:
        raise InputError("give cardinality or label_frequency, not both")
    if label_frequency is None:
        if cardinality is None:
            cardinality = min(max(1.5, n_labels / 3), float(n_labels))
        if not 0.0 < cardinality <= n_labels:
            raise InputError(f"cardinality must lie in (0, n_labels = {n_labels}], got "
                             f"{cardinality}")
        label_frequency = cardinality / n_labels
    freq = np.asarray(label_frequency, dtype=np.float64)
    if freq.ndim == 0:
        freq = np.full(n_labels, float(freq))
    if freq.shape != (n_labels,):
        raise InputError(f"label_frequency needs one value or n_labels = {n_labels} values, got "
                         f"{freq.size}")
    if not np.all((freq > 0.0) & (freq <= 1.0)):
        raise InputError(f"label frequencies must lie in (0, 1], got {freq.tolist()}")
    if not allow_empty and freq.sum() < 1.0 - 1e-9:
        raise InputError(
            f"label frequencies sum to {freq.sum():.3g} (the cardinality), below 1, but every "
            "instance has at least one label unless allow_empty=True; raise them or allow "
            "empty labelsets"
        )
    return freq


def make_hypercube_dataset(
    n_samples: int = 600,
    n_relevant: int = 2,
    n_labels: int = 3,
    n_irrelevant: int = 0,
    n_redundant: int = 0,
    label_noise: float = 0.0,
    cardinality: float | None = None,
    label_frequency=None,
    min_half_edge: float | None = None,
    max_half_edge: float | None = None,
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
    cardinality : float, optional
        Target mean number of labels per instance, in (0, n_labels] (at least 1 unless
        ``allow_empty``); every label gets frequency ``cardinality / n_labels``. When neither
        this, ``label_frequency`` nor the half-edges are given: max(1.5, n_labels / 3).
    label_frequency : float or sequence of n_labels floats, optional
        Target fraction of instances carrying each label (the cardinality is their sum).
    min_half_edge, max_half_edge : float, optional
        Mldatagen's own sizing: half-edges drawn uniformly in this range, within (0, 0.5], and no
        frequency target (giving one of them gives the other its old default, 0.1 or 0.3).
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
        Frequencies and cardinality land on their targets up to sampling noise (about
        ``sqrt(f (1 - f) / n_samples)`` for a frequency f) before label noise.

    Raises
    ------
    InputError
        A parameter is out of range, or half-edges are given with a frequency target.

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
        "cardinality": cardinality,
        "label_frequency": label_frequency,
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
    n_features = n_relevant + n_irrelevant + n_redundant
    check_memory(8 * n_samples * (n_features + n_labels),
                 f"{n_samples:,} samples x {n_features + n_labels:,} columns", InputError,
                 MEMORY_BUDGET)
    by_half_edge = min_half_edge is not None or max_half_edge is not None
    if by_half_edge:
        if cardinality is not None or label_frequency is not None:
            raise InputError("give half-edges or a frequency target (cardinality or "
                             "label_frequency), not both: the half-edges decide the frequencies")
        min_half_edge = 0.1 if min_half_edge is None else min_half_edge
        max_half_edge = 0.3 if max_half_edge is None else max_half_edge
        if not 0.0 < min_half_edge <= max_half_edge <= 0.5:
            raise InputError(
                "need 0 < min_half_edge <= max_half_edge <= 0.5 so that each label hypercube "
                f"fits in the main one, got {min_half_edge} and {max_half_edge}"
            )
    else:
        freq = _target_frequencies(n_labels, cardinality, label_frequency, allow_empty)
    rng = np.random.default_rng(random_state)

    if by_half_edge:
        half = rng.uniform(min_half_edge, max_half_edge, size=(n_labels, 1))
        centre = rng.uniform(half, 1.0 - half, size=(n_labels, n_relevant))
        lower, upper = centre - half, centre + half
    else:
        lower, upper = _boxes_from_frequencies(freq, n_relevant, allow_empty, rng)
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


def describe_hypercube_dataset(**params) -> dict:
    """What `make_hypercube_dataset` would make with these parameters, before anyone loads it:
    `dataset_stats` of its labels plus ``d`` (features), ``label_frequency`` (label name ->
    fraction of instances carrying it) and ``empty`` (fraction with no label). It generates the
    very dataset (same seed, same data), which takes well under a second at the sizes a
    dashboard offers."""
    data = make_hypercube_dataset(**params)
    frequency = data.Y.mean(axis=0)
    return {
        **dataset_stats(data.Y),
        "d": data.n_features,
        "label_frequency": dict(zip(data.label_names, frequency.tolist(), strict=True)),
        "empty": float((data.Y.sum(axis=1) == 0).mean()),
    }


def make_sparse_label_dataset(
    n_samples: int = 1500,
    n_features: int = 300,
    n_labels: int = 30,
    cardinality: float = 1.5,
    n_informative: int = 10,
    signal: tuple[float, float] = (0.2, 0.8),
    random_state=None,
    name: str = "sparse_labels",
) -> Dataset:
    """Sparse labels, weak features: data on which predicting no label is a strong baseline.

    Shaped like protein-function and text collections (tens to a hundred labels, 1-3 per row,
    label density 0.03-0.1, hundreds of noisy features). Label popularity follows a Dirichlet(1)
    draw, so a few labels are common and many rare. Each row takes a first label by popularity
    and then ``cardinality - 1`` more on average (Poisson; draws that repeat a label are lost):
    with probability 1/2 the first of them is the first label's partner, the rest go by
    popularity. Features are standard normal noise; every label owns
    ``n_informative`` features, which it shifts by its own effect size, drawn uniformly from
    ``signal`` (in noise standard deviations), with a random sign, when it is present. A label's
    presence is then only weakly visible: for most rows the most probable answer for most labels
    is "absent", and a bipartition that buys example-based accuracy with false positives ends up
    with a Hamming loss above the label density (what predicting nothing scores).

    Parameters
    ----------
    n_samples, n_features, n_labels : int
    cardinality : float
        Target mean labels per row, at least 1 (every row has a label) and below n_labels.
    n_informative : int
        Features each label shifts (drawn without replacement per label; labels may share them).
    signal : (low, high)
        Range of the per-label effect sizes.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    Dataset
        ``meta`` holds the parameters, ``effect`` (each label's effect size), ``informative``
        (n_labels x n_informative feature indices) and ``partner`` (each label's partner).
    """
    params = {"n_samples": n_samples, "n_features": n_features, "n_labels": n_labels,
              "n_informative": n_informative}
    for key, value in params.items():
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
            raise InputError(f"{key} must be an integer >= 1, got {value!r}")
    if n_labels < 2:
        raise InputError(f"n_labels must be at least 2, got {n_labels}")
    if n_informative > n_features:
        raise InputError(f"n_informative ({n_informative}) exceeds n_features ({n_features})")
    if not 1.0 <= cardinality < n_labels:
        raise InputError(f"cardinality must lie in [1, n_labels = {n_labels}), got {cardinality}")
    low, high = signal
    if not 0.0 <= low <= high:
        raise InputError(f"signal must be a range 0 <= low <= high, got {signal}")
    rng = np.random.default_rng(random_state)
    popularity = rng.dirichlet(np.ones(n_labels))
    partner = np.array([rng.choice(np.delete(np.arange(n_labels), j)) for j in range(n_labels)])
    Y = np.zeros((n_samples, n_labels), dtype=np.uint8)
    first = rng.choice(n_labels, size=n_samples, p=popularity)
    Y[np.arange(n_samples), first] = 1
    extra = rng.poisson(cardinality - 1.0, size=n_samples)
    for i in np.flatnonzero(extra):
        k = int(extra[i])
        if rng.random() < 0.5:
            Y[i, partner[first[i]]] = 1
            k -= 1
        Y[i, rng.choice(n_labels, size=min(k, n_labels), replace=False, p=popularity)] = 1
    effect = rng.uniform(low, high, size=n_labels)
    informative = np.array([rng.choice(n_features, n_informative, replace=False)
                            for _ in range(n_labels)])
    shift = np.zeros((n_labels, n_features))
    for j in range(n_labels):
        shift[j, informative[j]] = effect[j] * rng.choice([-1.0, 1.0], size=n_informative)
    X = rng.normal(size=(n_samples, n_features)) + Y @ shift
    return Dataset(X, Y, [f"x{j + 1}" for j in range(n_features)],
                   [f"L{j + 1}" for j in range(n_labels)], name=name,
                   meta={"generator": "sparse_labels",
                         "params": {**params, "cardinality": cardinality, "signal": signal,
                                    "random_state": random_state},
                         "effect": effect, "informative": informative, "partner": partner})
