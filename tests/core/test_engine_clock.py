"""The profiling clock of the cycle (``mlr_core/_engine/clock.py``) counts without changing what
an iteration does."""

import joblib
import numpy as np

from mlr_core import MLRClassifier, TrainingSession
from mlr_core._engine.clock import GA, MATCHING, UPDATE, new_clock


def test_a_clocked_run_is_the_same_run_and_counts_each_step():
    r = np.random.default_rng(1)
    X = r.random((200, 5))
    Y = np.column_stack([X[:, 0] > 0.5, X[:, 1] < 0.4]).astype(int)
    plain = MLRClassifier(n_rules=100, random_state=0)
    TrainingSession(plain).start(X, Y).learn(3000)
    clocked = TrainingSession(MLRClassifier(n_rules=100, random_state=0)).start(X, Y).model
    clock = new_clock()
    clocked.run_.learn(3000, clock=clock)
    assert joblib.hash(clocked.run_) == joblib.hash(plain.run_)
    assert (clock >= 0).all()
    assert clock[MATCHING] > 0 and clock[UPDATE] > 0 and clock[GA] > 0
