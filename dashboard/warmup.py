"""Load the engine's compiled kernels in the background, once per server process.

numba compiles each kernel on its first call (about 30 s on a 2-core machine for a fresh
install) and later loads it from its on-disk cache (well under a second). Doing that on a
background thread, a few seconds after the first page is served (`FIRST_PAGE_S`) or at once
when a page needs the kernels, means a user's first Start rarely waits; when it does,
:func:`ready` tells the page to say why instead of freezing.
The kernels of sparse rows (a sparse ARFF stays sparse in the dashboard) are compiled apart, by a
second warm-up that the first load of such data starts (:func:`start_sparse`): without it, each
page compiled its own on its first call after a fresh install (Explain took 4.9 s while
training on ohsumed, its vote's kernel compiling). ``python -m dashboard.warmup`` does both
ahead of time (e.g. after installing).
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)

#: Seconds the warm-up lets the first page have before it begins, unless a page needs the
#: kernels sooner (:func:`wait`). Its imports hold the interpreter's lock, which the server needs
#: to send the page's charts (plotly's 4.7 MB script among them). Medians of 5, idle 2-core
#: machine (``python benchmarks/bench_dashboard.py --only first-answer``): first chart 3.10 and
#: 3.30 s after launch with the warm-up at once, 2.82 s (3 s later) and 2.83 s (1.5 s later).
#: Longer is not free: a dataset loaded in the first seconds then imports the engine itself
#: (the browser test's first load of emotions: 2.03 s with 3 s, 1.50 s with 1.5 s).
FIRST_PAGE_S = 1.5

_done = threading.Event()
_needed = threading.Event()
_started = threading.Lock()
_thread: threading.Thread | None = None
#: The sparse rows' warm-up (:func:`start_sparse`): done, and its thread once started.
_sparse_done = threading.Event()
_sparse_thread: threading.Thread | None = None


def exercise_kernels(sparse: bool = False) -> float:
    """Call every engine entry point a page can call on a tiny model, so that each kernel gets
    loaded (or compiled): training (Train, Race), the tracer (Microscope), prediction and
    explanation (Explain, both weightings), the engine's matching and the audit (Rules, Theory,
    Race). ``sparse``: on CSR rows, whose kernels are compiled apart (a sparse ARFF stays
    sparse in the dashboard: ``dashboard/sparse_features.py``). Returns the seconds it took."""
    from scipy.sparse import csr_matrix

    from mlr_core import MLRClassifier, TrainingSession, make_hypercube_dataset
    from mlr_core.audit import audit

    began = time.perf_counter()
    data = make_hypercube_dataset(n_samples=60, n_relevant=2, n_labels=2, random_state=0)
    X, Y = (csr_matrix(data.X) if sparse else data.X), data.Y
    model = MLRClassifier(n_rules=30, random_state=0, weighting="vote")
    session = TrainingSession(model).start(X, Y).learn(300)
    session.step_traced()  # the tracer runs its own instantiation of the cycle
    session.tune_bipartition()
    model.predict(X)
    model.predict(X, prediction="max")
    model.rule_set_.explain(X[0])
    audit(model, X[:40], Y[:40], X[40:], Y[40:])
    model.set_params(weighting="fitted")
    session.tune_bipartition()  # the default model
    model.predict(X)
    model.rule_set_.explain(X[0])
    return time.perf_counter() - began


def _run() -> None:
    # Not niced: pages wait for this thread, and it holds the interpreter's lock. At nice 19
    # beside three busy processes on two cores it was starved, and the Rules page on the sample
    # waited over three minutes (`benchmarks/under_load.py`, 29 Nov; docs/classroom.md).
    _needed.wait(FIRST_PAGE_S)
    try:
        log.info("engine kernels ready in %.1f s", exercise_kernels())
    except Exception:  # a failed warm-up only costs the first Start its compile time
        log.exception("warming the engine's kernels failed")
    finally:
        _done.set()


def _run_sparse() -> None:
    wait()  # after the dense rows' kernels, which every page needs first
    try:
        log.info("sparse-row kernels ready in %.1f s", exercise_kernels(sparse=True))
    except Exception:  # a failed warm-up only costs each page its own compile time
        log.exception("warming the sparse rows' kernels failed")
    finally:
        _sparse_done.set()


def start() -> None:
    """Start the warm-up thread unless this process already did."""
    global _thread
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=_run, name="mlr-kernel-warmup", daemon=True)
            _thread.start()


def start_sparse() -> None:
    """Start the sparse rows' warm-up unless this process already did (data kept sparse was
    loaded). Not a daemon thread: a compile still running in one when the process ends aborts
    it ("terminate called without an active exception", seen in a short AppTest process), so
    the process waits for it to end instead."""
    global _sparse_thread
    with _started:
        if _sparse_thread is None:
            _sparse_thread = threading.Thread(target=_run_sparse, name="mlr-sparse-warmup")
            _sparse_thread.start()


def ready(sparse: bool = False) -> bool:
    """The kernels are loaded: the dense rows', and the sparse rows' too with ``sparse``."""
    return _done.is_set() and (not sparse or _sparse_done.is_set())


def wait(timeout: float | None = None, sparse: bool = False) -> bool:
    """Block until the warm-up has finished (started at once if need be), and the sparse rows'
    with ``sparse``; False on timeout."""
    _needed.set()
    start()
    if not sparse:
        return _done.wait(timeout)
    start_sparse()
    return _sparse_done.wait(timeout)


if __name__ == "__main__":
    print(f"engine kernels loaded or compiled in {exercise_kernels():.1f} s, sparse-row "
          f"kernels in {exercise_kernels(sparse=True):.1f} s")
