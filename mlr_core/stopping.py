"""How long ``fit`` trains when ``n_iter="auto"``: a budget that scales with the training rows,
and a stop as soon as the population's own accuracy on the training rows stops improving.

Why: with fitted rule weights the test measures reach their level early. On folds 0 and 1 of
the shared folds (``benchmarks/iteration_curve.py``, ``docs/fit_time.md``), Hamming loss,
accuracy and F1 after 5,000-20,000 iterations were within the run-to-run noise of those after
150,000 (the former fixed budget: 970 epochs on flags) on yeast, emotions, flags and CAL500;
genbase went on improving to about 20,000.

The rule uses training signals only: every two epochs (and no more often than every
`CHECK_EVERY` iterations) the population votes on up to `SIGNAL_ROWS` training rows (evenly
spaced, no random draw) and the Hamming loss of the winning labelset is the signal. Training
stops at a check once it has run its minimum and the signal has not improved by `MIN_GAIN`
(relative) on the best seen before, for `PATIENCE` checks in a row; it never runs past the
maximum. Stopping only decides how many iterations ``fit`` asks for: the run is exactly
``learn`` of that many iterations (the checks read the population and draw no random number),
so ``learn(k)`` keeps its meaning.
"""

from dataclasses import dataclass

import numba
import numpy as np

from mlr_core.scorers import VoteScorer, Voting

CHECK_EVERY = 2000
SIGNAL_ROWS = 1000
MIN_GAIN = 0.02
PATIENCE = 5
MIN_EPOCHS, MAX_EPOCHS = 10, 40
MIN_ITER, MAX_ITER = 5_000, 150_000  # bounds on both
WORDS_MAX_ITER = 30_000  # the most when the words' rules carry the linear part (`auto_budget`)


@dataclass(frozen=True)
class Budget:
    """Iterations ``fit`` runs at least and at most, and how often it checks the signal."""

    min_iter: int
    max_iter: int
    check_every: int


def auto_budget(n_train: int, by_vote: bool = False, binary_share: float = 0.0) -> Budget:
    """At least 10 and at most 40 epochs, both within 5,000 to 150,000 iterations (the former
    fixed budget); a check every two epochs, at least every 2,000 iterations.

    A model that predicts by the rules' vote (``by_vote``: the paper's MLR_agg and MLR_max)
    may run to 150,000 whatever the epochs: fitted weights make good use of an early
    population, the vote does not. Genbase, folds 0 and 1, vote accuracy 0.775 and 0.923 after
    the 40 epochs (21,200 iterations, the signal still improving) against 0.976 and 0.964
    after 150,000.

    At most `WORDS_MAX_ITER` when at least half the features are 0/1 (``binary_share``; the
    estimator passes it with fitted weights only, as for ``auto_n_rules``): the words' own
    rules, fitted first, carry the linear part, and the evolved rules only fit what it leaves.
    Test measures along one run (fold 0 of the shared folds, the defaults, checkpoints
    10,000 to 150,000): flat from 10,000-20,000 on slashdot (folds 0-2) and ohsumed (folds 0
    and 1; accuracy 0.486 / 0.472 after 40,000, 0.482 / 0.466 after 150,000, ranking loss
    within 0.001), where the epochs had asked for 48,624 and 150,000 iterations. The five's
    budgets are below it (genbase, all 0/1, runs 21,160)."""
    min_iter, max_iter = np.clip([MIN_EPOCHS * n_train, MAX_EPOCHS * n_train], MIN_ITER,
                                 MAX_ITER)
    if by_vote:
        max_iter = MAX_ITER
    elif binary_share >= 0.5:
        max_iter = min(max_iter, WORDS_MAX_ITER)
    return Budget(int(min(min_iter, max_iter)), int(max_iter), max(CHECK_EVERY, 2 * n_train))


def training_signal(run) -> float:
    """The Hamming loss, on up to `SIGNAL_ROWS` evenly spaced bound training rows, of the
    labelset with the largest vote of the rules (MLR_max): how well the population itself
    fits the data, whatever the rule weights fitted afterwards make of it."""
    n = len(run.y_ids)
    rows = np.arange(0, n, max(1, -(-n // SIGNAL_ROWS)))
    names = [str(j) for j in range(max(run.n_features, run.labelsets.shape[1]))]
    rule_set = run.rule_set(VoteScorer(), None, Voting(0, 1, "vote"),
                            names[:run.n_features], names[:run.labelsets.shape[1]])
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # a few hundred rows: waking a second thread costs more
    try:
        predicted = rule_set.labels_scaled(run.X[rows], "max")
    finally:
        numba.set_num_threads(threads)
    return float(np.mean(predicted != run.labelsets[run.y_ids[rows]]))


def learn_until_stable(run, budget: Budget) -> list[float]:
    """Train ``run`` (a bound ``TrainingRun``) by the rule above, within ``budget`` (see
    `auto_budget`); return the signal at each check."""
    signals: list[float] = []
    done = 0
    while done < budget.max_iter:
        step = min(budget.check_every, budget.max_iter - done)
        run.learn(step)
        done += step
        signals.append(training_signal(run))
        if done >= budget.min_iter and plateaued(signals):
            break
    return signals


def plateaued(signals: list[float]) -> bool:
    """True if none of the last `PATIENCE` signals beat the best before them by `MIN_GAIN`."""
    if len(signals) <= PATIENCE:
        return False
    best_before = min(signals[:-PATIENCE])
    return min(signals[-PATIENCE:]) > best_before * (1.0 - MIN_GAIN)
