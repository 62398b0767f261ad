"""The data a tab trains on, split into training and held-out rows, with its labelsets.

One immutable value: a new dataset, held-out share or seed makes a new :class:`DataSplit`, so a
page that holds one never sees it change, and a session switches to a new one only when it is
valid.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dashboard import frames
from mlr_core import Dataset
from mlr_core.errors import DatasetError

DEFAULT_HOLDOUT = 0.2
#: Labelsets that get their own colour; the others are drawn grey.
PALETTE_SIZE = 8


def check_trainable(dataset: Dataset) -> None:
    """Refuse data the dashboard cannot train and score, with what to do about it."""
    n, m = dataset.Y.shape
    if m < 2:
        raise DatasetError(
            f"{dataset.name} has {m} label column{'s' if m != 1 else ''}: MLR learns multi-label "
            "data, so it needs at least two labels (for one yes/no label, add its complement "
            "as a second label column)."
        )
    if n < 2:
        raise DatasetError(f"{dataset.name} has {n} instance(s): at least two are needed, one "
                           "to train on and one held out.")


def _split(n: int, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Shuffled train / held-out indices, at least one row on each side, read-only.

    The training indices stay shuffled so that their head is a random sample for the curve.
    """
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(np.clip(round(n * holdout), 1, n - 1)) if n > 1 else 0
    train_idx, test_idx = order[n_test:], np.sort(order[:n_test])
    train_idx.flags.writeable = test_idx.flags.writeable = False
    return train_idx, test_idx


@dataclass(frozen=True, eq=False)
class DataSplit:
    """A dataset, its training / held-out rows and its numbered labelsets (with the ids that
    get colours). Compared by identity: a page can tell whether the data it drew changed."""

    dataset: Dataset
    #: The share of rows held out (never trained or tuned on).
    holdout: float
    #: Training rows, shuffled (their head is the training curve's sample).
    train_idx: np.ndarray
    #: Held-out rows, sorted.
    test_idx: np.ndarray
    labelsets: frames.Labelsets
    #: The ids of the most frequent labelsets, which get their own colour.
    palette_ids: tuple[int, ...]

    @classmethod
    def of(cls, dataset: Dataset, holdout: float = DEFAULT_HOLDOUT, seed: int = 0) -> DataSplit:
        """``dataset`` split by ``seed``; refuses data the dashboard cannot train on."""
        check_trainable(dataset)
        labelsets = frames.Labelsets.of(dataset.Y, dataset.label_names)
        train_idx, test_idx = _split(dataset.X.shape[0], holdout, seed)
        return cls(dataset, holdout, train_idx, test_idx, labelsets,
                   tuple(labelsets.frequent(PALETTE_SIZE)))

    def resplit(self, holdout: float, seed: int) -> DataSplit:
        """The same data split anew (the labelsets, which depend on the data only, are kept)."""
        train_idx, test_idx = _split(self.dataset.X.shape[0], holdout, seed)
        return replace(self, holdout=holdout, train_idx=train_idx, test_idx=test_idx)

    def training(self) -> tuple[np.ndarray, np.ndarray]:
        """The training rows' features, as the model learns them (``Dataset.features``), and
        labels (copies: numpy's fancy indexing)."""
        return self.dataset.features(self.train_idx), self.dataset.Y[self.train_idx]
