"""Invariants of the learning cycle, checked after every single iteration on random data."""

import tracemalloc
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba.core.runtime import _nrt_python, rtsys

from mlr_core import MLRClassifier, TrainingSession
from mlr_core._engine import jit
from mlr_core._engine.covering import cover
from mlr_core._engine.cycle import ITERATION, POSITION
from mlr_core._engine.matching import match_set
from mlr_core._engine.population import NO_SET, has_sets, live, new_population
from mlr_core._engine.rng import new_state
from mlr_core.params import engine_config


def _snapshot(model):
    """Each rule keyed by (birth, labelset id, condition) -> (exp, ts): identity across steps,
    since removal moves rules between slots."""
    pop = live(model.population_)
    rules = {}
    for i in range(len(pop.num)):
        n = pop.nspec[i]
        sets = tuple(int(a) for a in pop.allowed[i, :n]) if has_sets(pop) else (int(NO_SET),) * n
        key = (int(pop.birth[i]), int(pop.ls[i]), tuple(pop.feat[i, :n]),
               tuple(pop.center[i, :n]), tuple(pop.spread[i, :n]), sets)
        rules[key] = (int(pop.exp[i]), int(pop.ts[i]))
    return rules


def _matches(key, x):
    """Whether the rule of ``key`` matches the scaled row ``x``: each interval holds its value,
    each nominal set (a bitmask of codes) holds its code."""
    _, _, feat, center, spread, sets = key
    return all(abs(x[f] - c) <= s if a == NO_SET else (a >> int(x[f])) & 1 == 1
               for f, c, s, a in zip(feat, center, spread, sets, strict=True))


def _check_population(model):
    pop = live(model.population_)
    assert pop.micro[0] <= model.n_rules
    assert pop.micro[0] == pop.num.sum()
    assert (pop.num >= 1).all()
    assert ((pop.fit >= 0) & (pop.fit <= 1)).all()
    assert ((pop.acc >= 0) & (pop.acc <= 1)).all()
    assert (pop.exp >= 0).all()
    assert (pop.nspec <= model.max_specified_).all()
    assert ((pop.spread >= 0) | (np.arange(pop.spread.shape[1]) >= pop.nspec[:, None])).all()
    levels = model.run_.scaling.levels
    assert has_sets(pop) == (len(levels) > 0)
    if has_sets(pop):  # a nominal slot holds a proper non-empty subset of its codes, no other
        used = np.arange(pop.feat.shape[1]) < pop.nspec[:, None]
        nominal = used & (levels[pop.feat] > 0)
        full = (np.uint64(1) << levels[pop.feat].astype(np.uint64)) - np.uint64(1)
        assert ((pop.allowed == NO_SET) == ~nominal).all()
        assert ((pop.allowed != 0) & (pop.allowed & ~full == 0) & (pop.allowed != full)
                | ~nominal).all()


@st.composite
def problems(draw):
    seed = draw(st.integers(0, 2**16))
    r = np.random.default_rng(seed)
    n = draw(st.integers(5, 40))
    d = draw(st.integers(1, 6))
    m = draw(st.integers(2, 4))
    X = r.random((n, d)) * draw(st.sampled_from([1.0, 100.0]))
    Y = (r.random((n, m)) < 0.4).astype(int)
    nominal = draw(st.integers(0, 2))  # columns of categories beside the numeric ones
    if nominal:
        X = pd.DataFrame(X, columns=[f"x{j}" for j in range(d)])
        for j in range(nominal):
            X[f"c{j}"] = r.choice(list("abcdefg")[:draw(st.integers(1, 7))], n)
    params = {
        "n_rules": draw(st.integers(5, 60)),
        "fitness": draw(st.sampled_from(["em", "hl"])),
        "selection": draw(st.sampled_from(["tournament", "roulette"])),
        "correct_set_subsumption": draw(st.booleans()),
        "theta_ga": draw(st.sampled_from([0, 5, 25])),
        "theta_sub": draw(st.sampled_from([0, 20])),
        "p_hash": draw(st.sampled_from([0.0, 0.33, 0.9])),
        "random_state": seed,
    }
    return X, Y, params


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_every_step_keeps_the_invariants(problem):
    X, Y, params = problem
    model = TrainingSession(MLRClassifier(**params)).start(X, Y).model
    run = model.run_
    for _ in range(150):
        counters = run.counters
        row = (run.order[counters[POSITION]]
               if counters[POSITION] < len(X) and not run.order_due else None)
        before = _snapshot(model)
        iteration = int(counters[ITERATION])
        TrainingSession(model).learn(1)
        _check_population(model)
        if row is None:  # a new epoch (re)shuffles the order: the instance is unknown here
            continue
        x, y_id = run.X[row], run.y_ids[row]  # scaled: a nominal feature's code
        after = _snapshot(model)
        for key, (exp, ts) in after.items():
            if key[0] == iteration:  # born now: by covering or the GA, for this instance
                assert _matches(key, x), "a new rule does not match its instance"
                assert key[1] == y_id, "a new rule does not advocate the instance's labelset"
            elif key in before:
                matched = _matches(key, x)
                assert exp == before[key][0] + matched, "experience grows exactly in [M]"
                if ts == iteration and before[key][1] != iteration:
                    assert key[1] == y_id and matched, "the GA ran outside the correct set"


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**16), st.integers(1, 40), st.sampled_from([0.0, 0.33, 0.9, 1.0]),
       st.integers(1, 40))
def test_covering_creates_a_matching_rule(seed, d, p_hash, limit):
    r = np.random.default_rng(seed)
    x = r.random(d)
    cfg = engine_config(MLRClassifier(p_hash=p_hash).get_params(), d, 1000, min(limit, d))
    pop = new_population(10, min(limit, d))
    slot = cover(pop, x, 3, cfg, new_state(seed), 0)
    out = np.empty(10, dtype=np.int64)
    assert match_set(pop, x, out) == 1 and out[0] == slot
    assert pop.ls[slot] == 3 and pop.nspec[slot] <= min(limit, d)
    assert pop.num[slot] == 1 and pop.micro[0] == 1


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**16), st.integers(1, 12), st.sampled_from([0.0, 0.33, 0.9]),
       st.sampled_from([0.0, 0.5, 2.0]))
def test_covering_on_nominal_features_creates_a_matching_rule(seed, d, p_hash, r0):
    """A nominal feature is covered by a set holding the row's code (not every code: that is a
    wildcard) and allowing at most 0.75 of the training rows (`random_set`'s largest share)
    unless the row's category alone allows more; a missing category (NaN) leaves it a
    wildcard."""
    r = np.random.default_rng(seed)
    levels = r.integers(0, 6, d)  # 0: numeric
    x = np.where(levels > 0, np.floor(r.random(d) * np.maximum(levels, 1)), r.random(d))
    x[(levels > 0) & (r.random(d) < 0.2)] = np.nan  # numeric NaN: issue 32's missing values
    shares = np.zeros((d, 5))
    for f in np.flatnonzero(levels):
        shares[f, :levels[f]] = r.dirichlet(np.ones(levels[f]))
    cfg = engine_config(MLRClassifier(p_hash=p_hash, r0=r0).get_params(), d, 1000, d)._replace(
        levels=levels, shares=shares)
    pop = new_population(10, d, sets=True)
    slot = cover(pop, x, 3, cfg, new_state(seed), 0)
    out = np.empty(10, dtype=np.int64)
    assert match_set(pop, x, out) == 1 and out[0] == slot
    for k in range(pop.nspec[slot]):
        f, allowed = pop.feat[slot, k], int(pop.allowed[slot, k])
        assert not np.isnan(x[f])
        if levels[f]:
            assert allowed >> int(x[f]) & 1 and allowed != (1 << int(levels[f])) - 1
            share = sum(shares[f, code] for code in range(levels[f]) if allowed >> code & 1)
            assert share <= max(shares[f, int(x[f])], 0.75) + 1e-12
        else:
            assert allowed == int(NO_SET)


def test_same_seed_gives_identical_population_and_other_seed_differs():
    r = np.random.default_rng(3)
    X, Y = r.random((80, 4)), (r.random((80, 3)) < 0.5).astype(int)

    def run(seed):
        return MLRClassifier(n_rules=100, n_iter=3000, random_state=seed).fit(X, Y)

    a, b, c = run(7), run(7), run(8)
    for field in live(a.population_)._fields:
        assert np.array_equal(getattr(live(a.population_), field),
                              getattr(live(b.population_), field))
    assert not np.array_equal(live(a.population_).center, live(c.population_).center)


def test_learn_in_pieces_equals_one_fit():
    r = np.random.default_rng(4)
    X, Y = r.random((60, 3)), (r.random((60, 3)) < 0.5).astype(int)
    whole = MLRClassifier(n_rules=80, n_iter=2000, random_state=1).fit(X, Y)
    pieces = TrainingSession(MLRClassifier(n_rules=80, random_state=1)).start(X, Y).model
    for k in (1, 7, 500, 992, 500):
        TrainingSession(pieces).learn(k)
    TrainingSession(pieces).tune_bipartition()  # as fit does after learning
    assert whole.run_.summary() == pieces.run_.summary()
    assert np.array_equal(whole.predict_proba(X), pieces.predict_proba(X))


def test_predicting_does_not_change_the_model():
    """Every reading method leaves the whole estimator byte for byte as it was (a hash of its
    pickled state, run included)."""
    r = np.random.default_rng(5)
    X, Y = r.random((70, 3)), (r.random((70, 4)) < 0.4).astype(int)
    model = MLRClassifier(n_rules=100, n_iter=2000, random_state=0, weighting="vote").fit(X, Y)
    TrainingSession(model).learn(300)  # rules have moved on since the bipartition was tuned
    before = joblib.hash(model)
    model.predict(X)
    model.predict(X, prediction="max")
    model.predict_proba(r.random((20, 3)) * 5)  # outside the training range too
    model.coverage(X)
    model.rule_set_.explain(X[0])
    model.rules_frame()
    model.rule_bounds()
    model.to_json()
    model.run_.summary()
    model.run_.history()
    assert joblib.hash(model) == before


def test_memory_stays_bounded_over_a_long_run():
    """Over 200,000 more iterations: the compiled kernels free all they allocate (numba's
    allocation counters) and Python-side memory grows by less than the bounded history's size
    (an unbounded history would add 20,000 rows, megabytes)."""
    r = np.random.default_rng(6)
    X, Y = r.random((200, 5)), (r.random((200, 4)) < 0.4).astype(int)
    model = MLRClassifier(n_rules=50, history_every=10, random_state=0)
    TrainingSession(model).start(X, Y)
    TrainingSession(model).learn(100_000)  # compiled, population full, history at its bound
    _nrt_python.memsys_enable_stats()
    tracemalloc.start()
    try:
        kernel_before = rtsys.get_allocation_stats()
        python_before = tracemalloc.get_traced_memory()[0]
        TrainingSession(model).learn(200_000)
        python_grown = tracemalloc.get_traced_memory()[0] - python_before
        kernel_after = rtsys.get_allocation_stats()
    finally:
        tracemalloc.stop()
        _nrt_python.memsys_disable_stats()
    allocated = kernel_after.alloc - kernel_before.alloc
    assert allocated > 0  # the counters do see the kernels' work arrays
    assert kernel_after.free - kernel_before.free == allocated
    assert python_grown < 1_000_000, python_grown
    history = model.run_.history()
    assert 0 < len(history) <= 1000
    assert history["iteration"].iloc[-1] > 290_000  # thinned, still spans the run
    assert history["iteration"].is_monotonic_increasing
    assert model.run_.summary()["micro_size"] <= 50


def test_summary_reports_the_run():
    r = np.random.default_rng(8)
    X, Y = r.random((50, 2)), (r.random((50, 3)) < 0.5).astype(int)
    model = TrainingSession(MLRClassifier(n_rules=40, random_state=0)).start(X, Y).learn(520).model
    s = model.run_.summary()
    assert s["iteration"] == 520 and abs(s["epoch"] - 520 / 50) < 1e-12
    assert 0 < s["macro_size"] <= s["micro_size"] <= 40
    assert 0 <= s["mean_fitness"] <= 1 and 0 <= s["mean_generality"] <= 1
    assert 0 <= s["coverage"] <= 1
    assert s["n_covering"] >= 1 and s["n_deletion"] >= s["n_covering"] - 40
    assert set(model.run_.history().columns) == set(s)


def test_numba_cache_key_covers_every_compiled_module():
    """A kernel inlined from another file must invalidate the cache: the key hashes all of
    ``_engine/`` and any other module that compiles with its ``njit``."""
    package = Path(jit.__file__).parent.parent
    hashed = {source.split(b"\0")[0].decode() for source in jit._compiled_sources()}
    engine = {f"_engine/{p.name}" for p in (package / "_engine").glob("*.py")}
    compiling = {p.relative_to(package).as_posix() for p in package.rglob("*.py")
                 if "njit" in p.read_text(encoding="utf-8")}
    assert engine <= hashed and compiling <= hashed
    assert "_engine/cycle.py" in hashed and "estimator.py" not in hashed


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0, 1e300, np.inf]), min_size=1, max_size=40),
       st.floats(0.0, 1.0, exclude_max=True) | st.just(np.nan))
def test_deletion_bisects_the_wheel_as_a_scan_would(votes, draw):
    """Deletion finds its rule on the running totals by bisection: the same rule as a scan
    that adds the votes one by one and stops at the first total above the drawn point, even
    with zero votes, ties, overflow to infinity, or a NaN point (last rule)."""
    from mlr_core._engine.deletion import first_above

    with np.errstate(over="ignore", invalid="ignore"):  # as the kernel's float arithmetic
        totals = np.cumsum(np.array(votes))
        point = draw * totals[-1]
    scanned, acc = len(votes) - 1, 0.0
    for i, v in enumerate(votes):
        acc += v
        if acc > point:
            scanned = i
            break
    assert first_above(totals, len(votes), point) == scanned
