"""Scores to labels: normalising the votes, and cutting the scores by threshold or by rank."""

import numpy as np


def normalise(label_votes: np.ndarray, total: np.ndarray, norm: str) -> np.ndarray:
    """Scores in [0, 1]: a label's share of the total vote (``"total"``) or of the top label's
    vote (``"max"``, the authors' code)."""
    denom = total if norm == "total" else label_votes.max(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = label_votes / denom[:, None]
    return np.nan_to_num(scores, nan=0.0)


def by_threshold(scores: np.ndarray, threshold: float) -> np.ndarray:
    """Labels whose score reaches the threshold."""
    return (scores >= threshold).astype(np.uint8)


def by_rank(scores: np.ndarray, k: int) -> np.ndarray:
    """The k best-scoring labels (RCut); ties broken by label order. Zero-score labels never
    count (they are outside the union of the voters' labelsets)."""
    out = np.zeros(scores.shape, dtype=np.uint8)
    if k <= 0:
        return out
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    np.put_along_axis(out, top, 1, axis=1)
    return out & (scores > 0)
