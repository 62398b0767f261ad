"""RF-ML: multi-label ReliefF feature weights, and a scikit-learn selector built on them.

The paper (Nazmi et al.) reduces features with RF-ML (Spolaôr et al., "ReliefF for multi-label
feature selection", BRACIS 2013) and keeps the top 30%. RF-ML is RReliefF (Robnik-Šikonja and
Kononenko 2003, the regression ReliefF) with the difference between two targets taken as the
normalised Hamming distance between their labelsets: a feature gains weight when it differs
between near neighbours whose labelsets differ, and loses weight when it differs between near
neighbours whose labelsets agree. scikit-learn has no ReliefF and the maintained ReliefF
packages (skrebate) are single-label, so the update is written here; the neighbour search is
scikit-learn's.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.feature_selection import SelectorMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from mlr_core.errors import InputError


def rfml_weights(X, Y, n_neighbors=10, n_samples=None, random_state=None):
    """RF-ML weight of each feature (larger: more relevant to the labels).

    Parameters
    ----------
    X : ndarray (n, d)
        Features; each is min-max scaled here so that differences lie in [0, 1].
    Y : ndarray (n, m)
        0/1 label matrix.
    n_neighbors : int
        k nearest neighbours of each sampled instance (Manhattan distance on scaled features),
        each weighted 1/k as in the paper's setting.
    n_samples : int or None
        Instances sampled as references; None uses all of them.
    """
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    n, d = X.shape
    if n < 2:
        raise InputError("RF-ML needs at least two instances.")
    span = X.max(axis=0) - X.min(axis=0)
    Xs = (X - X.min(axis=0)) / np.where(span > 0, span, 1.0)
    k = min(int(n_neighbors), n - 1)
    rng = check_random_state(random_state)
    refs = np.arange(n) if n_samples is None or n_samples >= n else rng.choice(
        n, int(n_samples), replace=False)
    _, idx = NearestNeighbors(n_neighbors=k + 1, metric="manhattan").fit(Xs).kneighbors(Xs[refs])
    neighbours = idx[:, 1:]  # drop the reference itself (the nearest at distance 0)
    label_diff = np.abs(Y[refs][:, None, :] - Y[neighbours]).mean(axis=2)  # (r, k)
    feat_diff = np.abs(Xs[refs][:, None, :] - Xs[neighbours])  # (r, k, d)
    weight = 1.0 / k
    n_dc = weight * label_diff.sum()
    n_da = weight * feat_diff.sum(axis=(0, 1))
    n_dcda = weight * np.einsum("rk,rkd->d", label_diff, feat_diff)
    total = float(len(refs))
    if n_dc == 0.0 or n_dc == total:  # all neighbours agree (or all differ): no contrast
        return np.zeros(d)
    return n_dcda / n_dc - (n_da - n_dcda) / (total - n_dc)


class RFMLSelector(SelectorMixin, BaseEstimator):
    """Keep the features with the largest RF-ML weights (multi-label ReliefF).

    Usable in a :class:`sklearn.pipeline.Pipeline` before :class:`MLRClassifier`, as the paper
    did: ``make_pipeline(RFMLSelector(), MLRClassifier())``.

    Parameters
    ----------
    keep : float in (0, 1] or int >= 1, default=0.3
        A float is the fraction of the features kept (at least one), an int their number; the
        paper keeps 30%.
    n_neighbors : int, default=10
    n_samples : int or None, default=None
        Reference instances sampled (None: all).
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    scores_ : ndarray (d,)
        RF-ML weight of each feature.
    """

    _parameter_constraints = {
        "keep": [Interval(Integral, 1, None, closed="left"), Interval(Real, 0, 1, closed="right")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_samples": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(self, keep=0.3, n_neighbors=10, n_samples=None, random_state=None):
        self.keep = keep
        self.n_neighbors = n_neighbors
        self.n_samples = n_samples
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y):
        """Weigh the features of X against the label matrix Y (n x m, 0/1)."""
        X = validate_data(self, X, dtype=np.float64)
        Y = np.asarray(Y)
        if Y.ndim == 1:
            Y = Y[:, None]
        if Y.shape[0] != X.shape[0]:
            raise InputError(f"X has {X.shape[0]} rows but Y has {Y.shape[0]}.")
        self.scores_ = rfml_weights(X, Y, self.n_neighbors, self.n_samples, self.random_state)
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "scores_")
        d = len(self.scores_)
        if isinstance(self.keep, Integral):
            count = min(int(self.keep), d)
        else:  # a fraction
            count = max(1, int(round(float(self.keep) * d)))
        order = np.argsort(-self.scores_, kind="stable")
        mask = np.zeros(d, dtype=bool)
        mask[order[:count]] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
