"""The paper's expected-fitness analysis as pure, vectorised functions (section "Fitness evaluation
of a classifier in MLR").

Every function takes scalars or numpy arrays and broadcasts them against each other, so that the
dashboard can draw a curve from one call; a scalar input gives a numpy scalar. Symbols:

- ``r0``: mean side length of a covered interval on the [0, 1] scale;
- ``d``: number of features; ``tau_hash``: average fraction of features a rule specifies (the
  paper's tau_#, about ``1 - P#`` right after covering; not the GA's tournament fraction ``tau``);
- ``m``: number of labels; ``dl``: number of distinct labelsets; ``dens``: label density;
- ``ahd``, ``ahw``: average Hamming distance and weight of the distinct labelsets
  (``mlr_core.data.stats.dataset_stats``).

The paper prints ``r0 ** (n * tau_hash)`` in its lower bound (eq. Fbar lower bound); ``d`` is
meant, as in every other equation, and is used here.
"""

from __future__ import annotations

import numpy as np

from mlr_core.errors import InputError


def _checked(name: str, value, low: float, high: float, low_open: bool = False) -> np.ndarray:
    """``value`` as a float array, every element in [low, high] (or (low, high])."""
    arr = np.asarray(value, dtype=np.float64)
    outside = (arr <= low if low_open else arr < low) | (arr > high) | np.isnan(arr)
    if np.any(outside):
        bracket = "(" if low_open else "["
        raise InputError(f"{name} must lie in {bracket}{low}, {high}], got {arr[outside].flat[0]}")
    return arr


def match_probability(r0, d, tau_hash):
    """Probability that a random rule matches a random instance,
    ``P(R in [M]) = r0 ** (d*tau_hash)``.

    Paper: the equation after eq. (P_m(R)), with uniformly distributed instances.
    """
    r0 = _checked("r0", r0, 0.0, 1.0, low_open=True)
    d = _checked("d", d, 0.0, np.inf)
    tau_hash = _checked("tau_hash", tau_hash, 0.0, 1.0)
    return r0 ** (d * tau_hash)


def expected_fitness_em(r0, d, tau_hash, dl):
    """Expected fitness of a random rule under exact-match fitness, ``r0**(d*tau_hash) / DL``.

    Paper: eq. (average F em), with nu = 1.
    """
    dl = _checked("dl", dl, 1.0, np.inf)
    return match_probability(r0, d, tau_hash) / dl


def expected_fitness_hl(r0, d, tau_hash, ahd, m):
    """Expected fitness of a random rule under Hamming-loss fitness,
    ``r0**(d*tau_hash) (1 - ahd/m)``.

    Paper: eq. (average F), with nu = 1; the two bounds below bracket it.
    """
    m = _checked("m", m, 1.0, np.inf)
    ahd = _checked("ahd", ahd, 0.0, np.inf)
    return match_probability(r0, d, tau_hash) * (1.0 - ahd / m)


def hl_fitness_upper_bound(r0, d, tau_hash, m, dl):
    """Upper bound on the expected HL fitness,
    ``r0**(d*tau_hash) (1 - (m+1)/(2m) + 2**(m-1)/(m DL))``.

    Paper: eq. (Fbar upper bound), from the ahd lower bound; meaningful only where
    `upper_bound_valid` holds (elsewhere it exceeds the trivial bound ``r0**(d*tau_hash)``).
    """
    m = _checked("m", m, 1.0, np.inf)
    dl = _checked("dl", dl, 1.0, np.inf)
    return match_probability(r0, d, tau_hash) * (1.0 - ahd_lower_bound(m, dl) / m)


def hl_fitness_lower_bound(r0, d, tau_hash, dens):
    """Lower bound on the expected HL fitness, ``r0**(d*tau_hash) (2 Dens**2 - 2 Dens + 1)``.

    Paper: eq. (Fbar lower bound) with d for the printed n. It rests on eq. (ahd and card), which
    replaces ahw by Card and so assumes every labelset is distinct (DL = n): on yeast, emotions and
    genbase the bound computed from Dens exceeds ``expected_fitness_hl``. Pass ``dens = ahw / m``
    for the bound that holds for any dataset (from eq. (ahw upper bound)).
    """
    dens = _checked("dens", dens, 0.0, 1.0)
    return match_probability(r0, d, tau_hash) * (2.0 * dens**2 - 2.0 * dens + 1.0)


def upper_bound_valid(dl, m):
    """Where the ahd lower bound, hence the HL fitness upper bound, is meaningful:
    ``DL >= 2**m / (m + 1)`` (paper, after eq. (ahd lower bound)).

    Compared in log2 so that large ``m`` (CAL500 has 174 labels) does not overflow.
    """
    dl = _checked("dl", dl, 1.0, np.inf)
    m = _checked("m", m, 1.0, np.inf)
    return np.log2(dl) >= m - np.log2(m + 1.0)


def ahd_lower_bound(m, dl):
    """Lower bound on the average Hamming distance of a binary code, ``(m+1)/2 - 2**(m-1)/DL``.

    Paper: eq. (ahd lower bound) (Fu et al. 2001); negative, hence trivially true, exactly where
    `upper_bound_valid` is false.
    """
    m = _checked("m", m, 1.0, np.inf)
    dl = _checked("dl", dl, 1.0, np.inf)
    return (m + 1.0) / 2.0 - np.exp2(m - 1.0) / dl


def ahd_upper_bound(ahw, m):
    """Upper bound on the average Hamming distance by the average weight, ``2ahw - 2ahw**2 / m``.

    Paper: eq. (ahw upper bound) (Zhang et al. 2001); it holds for any set of distinct labelsets.
    """
    m = _checked("m", m, 1.0, np.inf)
    ahw = _checked("ahw", ahw, 0.0, np.inf)
    return 2.0 * ahw - 2.0 * ahw**2 / m


def random_rule_fitness(X, Y, r0, n_specified, n_rules=2000, random_state=0):
    """Measure what the expected-fitness equations predict: the mean fitness (nu = 1) of random
    rules on a dataset, under exact match and under Hamming loss.

    Each rule specifies ``n_specified`` random features (so d * tau_hash = ``n_specified``), each by
    an interval of width ``r0`` placed uniformly inside [0, 1] (features are min-max scaled first),
    and predicts a labelset drawn uniformly from the dataset's distinct labelsets, as the paper's
    derivation assumes. A rule's fitness update from an instance is 0 when it does not match, and
    [labelset equal] (EM) or 1 - hd / m (HL) when it does; its fitness is the mean update over the
    instances, so that it compares with ``expected_fitness_em`` and ``expected_fitness_hl``.

    Returns
    -------
    dict
        ``match`` (mean fraction of instances a rule matches), ``em`` and ``hl`` (mean fitness),
        and ``em_given_match`` / ``hl_given_match`` (the same per matched instance, i.e. the
        engine's accuracy with nu = 1, to compare with ``1 / DL`` and ``1 - ahd / m``).
    """
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y)
    n, d = X.shape
    if not 0 < r0 <= 1:
        raise InputError(f"r0 must lie in (0, 1], got {r0}")
    if not 0 <= n_specified <= d:
        raise InputError(f"n_specified must lie in [0, {d}] (the number of features), "
                         f"got {n_specified}")
    low, span = X.min(axis=0), np.ptp(X, axis=0)
    X = (X - low) / np.where(span > 0, span, 1.0)
    distinct = np.unique(Y, axis=0)
    m = Y.shape[1]
    rng = np.random.default_rng(random_state)
    totals = np.zeros(5)
    for _ in range(n_rules):
        features = rng.choice(d, n_specified, replace=False)
        start = rng.uniform(0.0, 1.0 - r0, n_specified)
        inside = X[:, features]
        matched = np.all((inside >= start) & (inside <= start + r0), axis=1)
        labelset = distinct[rng.integers(len(distinct))]
        hd = np.count_nonzero(Y[matched] != labelset, axis=1)
        em, hl = np.sum(hd == 0), np.sum(1.0 - hd / m)
        count = matched.sum()
        totals += [count / n, em / n, hl / n, em / count if count else 0.0,
                   hl / count if count else 0.0]
    match, em, hl, em_m, hl_m = totals / n_rules
    return {"match": match, "em": em, "hl": hl, "em_given_match": em_m, "hl_given_match": hl_m}


def population_specificity(n_specified, numerosity, d: int, p_hash: float,
                           max_specified: int | None = None) -> float:
    """tau_hash of an evolved population: the numerosity-weighted share of the ``d`` features its
    rules specify. Before any rule exists, what covering aims at: ``1 - p_hash`` of the
    features, at most ``max_specified`` of them (covering keeps that many of those it draws:
    3 of ohsumed's 1,002 words with fitted weights, not two thirds of them)."""
    n_specified = np.asarray(n_specified, dtype=float)
    numerosity = np.asarray(numerosity, dtype=float)
    if numerosity.sum() == 0:
        aim = 1.0 - float(p_hash)
        return aim if max_specified is None else min(aim, max_specified / d)
    return float((n_specified * numerosity).sum() / (d * numerosity.sum()))


def measured_fitness(n_matched, accuracy, numerosity, n_rows: int) -> tuple[float, float] | None:
    """An evolved population measured as the expected-fitness equations count, numerosity-
    weighted over its rules: (the share of the ``n_rows`` rows a rule matches, that share times
    the rule's accuracy, i.e. its expected fitness at nu = 1). ``None`` without rules or rows."""
    numerosity = np.asarray(numerosity, dtype=float)
    if numerosity.sum() == 0 or n_rows == 0:
        return None
    share = np.asarray(n_matched, dtype=float) / n_rows
    fitness = share * np.asarray(accuracy, dtype=float)
    total = numerosity.sum()
    return float((share * numerosity).sum() / total), float((fitness * numerosity).sum() / total)


def random_rule_fitness_range(fitness: str, r0, d, tau_hash, m, dl, ahw) -> tuple[float, float]:
    """What a random rule is expected to reach under ``fitness`` ("em" or "hl"): E[F_em] exactly
    (both ends equal), or E[F_hl] between the bounds that hold for any data, the lower one in its
    ``ahw/m`` form and the upper one NaN where it is not meaningful (``upper_bound_valid``)."""
    if fitness == "em":
        value = float(expected_fitness_em(r0, d, tau_hash, dl))
        return value, value
    low = float(hl_fitness_lower_bound(r0, d, tau_hash, min(ahw / m, 1.0)))
    high = (float(hl_fitness_upper_bound(r0, d, tau_hash, m, dl)) if upper_bound_valid(dl, m)
            else np.nan)
    return low, high
