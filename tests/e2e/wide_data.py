"""A text-like dataset for the browser tests: 1,000 sparse binary word features, 50 labels.

Written as a sparse ARFF and its MULAN XML, as a person would bring one; generated (never kept
in the repository). Each label has its own 20 words that its documents use often; every other
word is rare, so most of the matrix is zero and most labelsets are distinct (as on real text).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sparse_mulan import write_sparse_mulan

N_ROWS, N_WORDS, N_LABELS = 1000, 1000, 50


def write_text_like(folder: Path, name: str = "wordbag", seed: int = 3) -> Path:
    """Write ``folder/name.arff`` and ``name.xml``; returns the ARFF's path."""
    rng = np.random.default_rng(seed)
    labels = [f"topic_{k:02d}_{word}" for k, word in enumerate(
        rng.choice(["economy", "sports", "science", "health", "politics", "culture"], N_LABELS))]
    words = [f"w{j:04d}" for j in range(N_WORDS)]
    share = rng.dirichlet(np.full(N_LABELS, 0.7))
    Y = np.zeros((N_ROWS, N_LABELS), dtype=np.uint8)
    for i in range(N_ROWS):
        Y[i, rng.choice(N_LABELS, size=rng.integers(1, 4), replace=False, p=share)] = 1
    p = np.full((N_ROWS, N_WORDS), 0.008)
    for k in range(N_LABELS):
        p[np.ix_(Y[:, k] == 1, rng.choice(N_WORDS, 20, replace=False))] = 0.3
    X = rng.random((N_ROWS, N_WORDS)) < p
    return write_sparse_mulan(folder, name, X, Y, words, labels)
