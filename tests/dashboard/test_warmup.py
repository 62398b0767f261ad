"""The warm-up loads every kernel a page can call: after it, no page action compiles anything.

A kernel compiled on first use freezes the page that needs it for half a minute (the tracer's
did, on the Microscope's first *Trace one iteration*). numba records each compiled (or cached)
signature on its dispatcher, so the test counts them before and after doing what the pages do.
"""

import os
import sys

import pytest
from numba.core.registry import CPUDispatcher
from scipy.sparse import csr_matrix

from dashboard import warmup
from mlr_core import MLRClassifier, TrainingSession, make_hypercube_dataset
from mlr_core.audit import audit, export_rules, row_rules


def compiled_signatures() -> dict[str, int]:
    """Signatures per numba dispatcher of every loaded module of the engine."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("mlr_core"):
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    found[f"{value.py_func.__module__}.{value.__name__}"] = len(value.signatures)
    return found


def every_page_action(fitness: str, sparse: bool = False) -> None:
    """What Train, Race, Microscope, Explain, Rules and Theory ask of the engine (on CSR rows
    with ``sparse``, as for a sparse ARFF the dashboard keeps sparse)."""
    data = make_hypercube_dataset(n_samples=80, n_relevant=3, n_labels=3, random_state=1)
    X, Y = (csr_matrix(data.X) if sparse else data.X), data.Y
    model = MLRClassifier(n_rules=40, random_state=1, fitness=fitness, weighting="vote")
    session = TrainingSession(model).start(X, Y).learn(200)
    session.step_traced()
    session.tune_bipartition()
    model.predict(X)
    model.rule_set_.explain(X[1])
    row_rules(model, X)
    export_rules(model, model.rules_frame())
    audit(model, X[:50], Y[:50], X[50:], Y[50:])
    fitted = MLRClassifier.from_json(model.to_json()).set_params(weighting="fitted")
    TrainingSession(fitted).start(X, Y, warm_start=True)
    fitted.rule_set_.explain(X[2])
    fitted.predict(X)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense rows", "sparse rows"])
def test_after_the_warm_up_no_page_action_compiles_a_kernel(sparse):
    warmup.exercise_kernels(sparse=sparse)
    before = compiled_signatures()
    for fitness in ("hl", "em"):
        every_page_action(fitness, sparse)
    grown = {name: (before.get(name, 0), n) for name, n in compiled_signatures().items()
             if n > before.get(name, 0)}
    assert grown == {}


def test_a_page_that_needs_the_kernels_does_not_wait_for_the_first_page(monkeypatch):
    """The warm-up leaves the first page a head start, but a page that waits for the kernels
    (a Start in the first seconds) ends that head start at once."""
    monkeypatch.setattr(warmup, "FIRST_PAGE_S", 3600.0)
    monkeypatch.setattr(warmup, "_done", warmup.threading.Event())
    monkeypatch.setattr(warmup, "_needed", warmup.threading.Event())
    monkeypatch.setattr(warmup, "_thread", None)
    warmup.start()
    assert not warmup._done.wait(0.5)  # still giving the first page its head start
    assert warmup.wait(timeout=300)  # an hour's head start, cut short by the page's need


def test_the_warm_up_runs_at_the_servers_own_priority(monkeypatch):
    """A page that needs the kernels waits for the warm-up thread. When that thread ran at nice
    19, three busy processes on two cores (`benchmarks/under_load.py`) starved it: the Rules
    page on the sample waited over three minutes for it, and the Python lock it held stalled
    the server's other threads too. It runs at the process's own priority."""
    seen = []
    monkeypatch.setattr(warmup, "FIRST_PAGE_S", 0.0)
    monkeypatch.setattr(warmup, "_done", warmup.threading.Event())
    monkeypatch.setattr(warmup, "_needed", warmup.threading.Event())
    monkeypatch.setattr(warmup, "_thread", None)
    monkeypatch.setattr(warmup, "exercise_kernels", lambda: seen.append(
        os.getpriority(os.PRIO_PROCESS, warmup.threading.get_native_id())) or 0.0)
    warmup.start()
    assert warmup.wait(timeout=60)
    assert seen == [os.getpriority(os.PRIO_PROCESS, 0)]
