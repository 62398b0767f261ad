"""A training run: everything the LCS cycle reads and changes, in one object.

It holds the kernels' configuration and the population sized by that same configuration, the
distinct labelsets seen, the random generator, the event counters, the bounded training history
and, while training data is bound, the scaled features, their labelset ids and the epoch order.
The estimator (``estimator.py``) is its scikit-learn face; the JSON format (``io.py``) reads and
writes it through `TrainingRun.to_dict` and `TrainingRun.from_dict`.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from mlr_core._engine import population as popmod
from mlr_core._engine import rng
from mlr_core._engine.cycle import (
    EPOCH,
    ITERATION,
    N_COUNTERS,
    N_COVERING,
    N_DELETION,
    N_GA,
    N_MATCHED,
    N_SUBSUMPTION,
    POSITION,
    Config,
    run_iterations,
)
from mlr_core._engine.deletion import delete_excess
from mlr_core._engine.trace import Trace, new_trace
from mlr_core._engine.update import label_scores
from mlr_core.errors import InputError, MLRError, require

MAX_HISTORY = 1000
"""History rows kept; when full, every other row goes and the spacing doubles."""

SUMMARY_KEYS = ("iteration", "epoch", "macro_size", "micro_size", "mean_fitness",
                "mean_generality", "coverage", "n_covering", "n_ga", "n_subsumption", "n_deletion")
"""The keys of `TrainingRun.summary`, in order: the columns of the history."""
HISTORY_KEYS = {*SUMMARY_KEYS, "_matched"}

_EXTRA_SLOTS = 3  # one iteration inserts at most 3 rules (covering, two offspring) before deletion

RULE_STATS = {  # JSON key -> population array
    "fitness": "fit",
    "accuracy": "acc",
    "correct": "correct",
    "numerosity": "num",
    "experience": "exp",
    "correct_set_size": "cs",
    "last_ga": "ts",
    "birth": "birth",
}


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: rely on MemoryError
        return None


def _gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:,.1f} GiB"


def allocate_population(config: Config) -> popmod.Population:
    """An empty population sized by ``config`` (``n_rules`` + 3 slots of ``max_specified``
    features), refused with an InputError, naming the memory, when the machine cannot hold it."""
    capacity = config.n_rules + _EXTRA_SLOTS
    need = popmod.population_bytes(capacity, config.max_specified)
    have = _physical_memory()
    message = (f"n_rules={config.n_rules:,} needs {_gib(need)} for the rule population"
               f"{f', more than the {_gib(have)} of this machine' if have else ''}: "
               "choose a smaller n_rules.")
    if have is not None and need > have:
        raise InputError(message)
    try:
        return popmod.new_population(capacity, config.max_specified)
    except MemoryError as err:
        raise InputError(message) from err


class TrainingRun:
    """The state of one model's training; see the module docstring.

    Parameters
    ----------
    config : Config
        The kernels' parameters; the population is allocated from it.
    fitness : {"hl", "em"}
        How a rule's labelset is scored against an instance's.
    n_features, n_labels : int
    seed : int
        Seeds the run's own random generator.
    history_every : int
        Iterations between two history rows (doubled whenever the history fills up).
    """

    def __init__(self, config: Config, fitness: str, n_features: int, n_labels: int, seed: int,
                 history_every: int):
        self.config, self.fitness = config, fitness
        self.population = allocate_population(config)
        self.n_features = int(n_features)
        self.labelsets = np.zeros((0, n_labels), dtype=np.uint8)
        self.rng = rng.new_state(seed)
        self.counters = np.zeros(N_COUNTERS, dtype=np.int64)
        self.card = 0.0
        self.history_rows: list[dict] = []
        self.record_every = int(history_every)
        self.next_record = int(history_every)
        self.unbind()

    # --------------------------------------------------------------- configuration

    def reconfigure(self, config: Config, fitness: str) -> None:
        """Adopt new parameters between runs (a warm start). A new ``n_rules`` reallocates the
        population and moves the rules over; above the new N, copies are deleted first, as
        the deletion step would, so that every array stays sized by the config in force."""
        if config.max_specified != self.config.max_specified:
            raise MLRError("max_specified cannot change within a training run.")
        if config.n_rules != self.config.n_rules:
            old = self.population
            self.counters[N_DELETION] += delete_excess(old, config, self.rng, None)
            new = allocate_population(config)
            size = int(old.size[0])
            for field, target in zip(old[:-2], new[:-2], strict=True):
                target[:size] = field[:size]
            new.size[0], new.micro[0] = old.size[0], old.micro[0]
            self.population = new
        self.config, self.fitness = config, fitness

    # ---------------------------------------------------------------- data binding

    def bind(self, X_scaled: np.ndarray, Y: np.ndarray) -> None:
        """Bind training data (features already scaled to [0, 1], 0/1 labels) and start a new
        epoch order; labelsets not seen before are added."""
        known = {row.tobytes(): i for i, row in enumerate(self.labelsets)}
        ids = np.empty(len(Y), dtype=np.int32)
        new = []
        for r, row in enumerate(Y):
            key = row.tobytes()
            if key not in known:
                known[key] = len(known)
                new.append(row)
            ids[r] = known[key]
        if new:
            self.labelsets = np.vstack([self.labelsets, np.array(new, dtype=np.uint8)])
        self.scores = label_scores(self.labelsets, self.fitness)
        self.X, self.y_ids = X_scaled, ids
        self.card = float(Y.sum(axis=1).mean())
        self.order = np.arange(len(X_scaled), dtype=np.int64)
        rng.shuffle(self.rng, self.order)
        self.counters[POSITION] = 0

    def unbind(self) -> None:
        self.X = self.y_ids = self.order = self.scores = None

    @property
    def bound(self) -> bool:
        return self.X is not None

    @property
    def iteration(self) -> int:
        """Training iterations run so far."""
        return int(self.counters[ITERATION])

    def truth(self) -> np.ndarray:
        """The bound rows' 0/1 labels."""
        return self.labelsets[self.y_ids]

    # --------------------------------------------------------------------- learning

    def learn(self, n_iterations: int, trace=None, clock=None) -> None:
        """Advance by ``n_iterations`` iterations, adding history rows as they fall due.
        ``trace`` (for one iteration only): a ``_engine.trace.Trace`` the kernels fill;
        ``clock``: a ``_engine.clock.new_clock()`` array that counts each step's CPU cycles."""
        if not self.bound:
            raise InputError("No training data bound: call start(X, Y) or fit(X, Y) first.")
        pop, cfg = self.population, self.config
        if pop.nspec.shape[0] != cfg.n_rules + _EXTRA_SLOTS or pop.feat.shape[1] < max(
            cfg.max_specified, 1
        ):  # the kernels do not check bounds: never run them on arrays of another size
            raise MLRError("The population's arrays do not match the configuration.")
        remaining = int(n_iterations)
        while remaining > 0:
            due = self.next_record - int(self.counters[ITERATION])
            step = min(remaining, max(due, 1))
            run_iterations(pop, self.X, self.y_ids, self.scores, self.order, self.counters,
                           self.rng, cfg, step, trace, clock)
            remaining -= step
            if int(self.counters[ITERATION]) >= self.next_record:
                self._record()

    def step_traced(self) -> Trace:
        """One iteration, exactly as `learn` (1) would run it, with its events recorded."""
        trace = new_trace(self.population.nspec.shape[0], self.config.max_specified,
                          self.n_features)
        self.learn(1, trace)
        return trace

    def generality(self) -> np.ndarray:
        return popmod.generality(self.population, self.n_features)

    def summary(self) -> dict:
        """Sizes, mean fitness and generality, coverage since the last history row, counters."""
        pop = popmod.live(self.population)
        c = self.counters
        micro = int(pop.micro[0])
        last = self.history_rows[-1] if self.history_rows else None
        span = int(c[ITERATION]) - (last["iteration"] if last else 0)
        if span > 0:
            coverage = (int(c[N_MATCHED]) - (last["_matched"] if last else 0)) / span
        else:
            coverage = last["coverage"] if last else float("nan")
        n_train = len(self.order) if self.bound else 0
        return {
            "iteration": int(c[ITERATION]),
            "epoch": int(c[ITERATION]) / n_train if n_train else float(c[EPOCH]),
            "macro_size": len(pop.num),
            "micro_size": micro,
            "mean_fitness": float(pop.fit @ pop.num / micro) if micro else 0.0,
            "mean_generality": float(self.generality() @ pop.num / micro) if micro else 0.0,
            "coverage": coverage,
            "n_covering": int(c[N_COVERING]),
            "n_ga": int(c[N_GA]),
            "n_subsumption": int(c[N_SUBSUMPTION]),
            "n_deletion": int(c[N_DELETION]),
        }

    def history(self) -> pd.DataFrame:
        frame = pd.DataFrame(self.history_rows)
        return frame.drop(columns="_matched") if "_matched" in frame else frame

    def _record(self) -> None:
        """Append a history row; thin the history and double its spacing when it is full."""
        row = self.summary()
        row["_matched"] = int(self.counters[N_MATCHED])
        self.history_rows.append(row)
        if len(self.history_rows) >= MAX_HISTORY:
            self.history_rows = self.history_rows[1::2]
            self.record_every *= 2
        self.next_record = row["iteration"] + self.record_every

    # ------------------------------------------------------------------------ JSON

    def to_dict(self) -> dict:
        """The run as JSON-ready data (bound training data is not part of it)."""
        pop = popmod.live(self.population)
        rules = []
        for i in range(len(pop.num)):
            center = [None] * self.n_features
            spread = [None] * self.n_features
            for k in range(pop.nspec[i]):
                center[pop.feat[i, k]] = float(pop.center[i, k])
                spread[pop.feat[i, k]] = float(pop.spread[i, k])
            rule = {
                "condition": {"type": "hyperrectangle_csr", "center": center, "spread": spread},
                "labelset": self.labelsets[pop.ls[i]].tolist(),
            }
            rule.update({key: getattr(pop, field)[i].item() for key, field in RULE_STATS.items()})
            rules.append(rule)
        return {
            "n_rules": int(self.config.n_rules),
            "max_specified": int(self.config.max_specified),
            "label_cardinality": float(self.card),
            "counters": self.counters.tolist(),
            "rng_state": [format(int(w), "x") for w in self.rng],
            "history": {"every": self.record_every, "next": self.next_record,
                        "rows": self.history_rows},
            "rules": rules,
        }

    @classmethod
    def from_dict(cls, data: dict, config: Config, fitness: str, n_features: int, n_labels: int,
                  history_every: int) -> TrainingRun:
        """Rebuild a run from `to_dict` output, checking every field (ModelFormatError)."""
        d, m = n_features, n_labels
        rules = data["rules"]
        require(isinstance(rules, list), "\"rules\" must be a list.")
        micro = sum(int(r["numerosity"]) for r in rules)
        require(micro <= config.n_rules,
                f"The rules hold {micro} copies, more than n_rules = {config.n_rules}.")
        k = config.max_specified
        require(1 <= k <= d, f"max_specified must be in 1..{d}.")
        run = cls(config, fitness, d, m, seed=0, history_every=history_every)
        pop = run.population
        labelsets, ls_index = [], {}
        for i, rule in enumerate(rules):
            where = f"rule {i}"
            bits = np.asarray(rule["labelset"])
            require(bits.shape == (m,) and np.isin(bits, (0, 1)).all(),
                    f"{where}: labelset must be {m} values of 0 or 1.")
            key = tuple(int(b) for b in bits)
            if key not in ls_index:
                ls_index[key] = len(labelsets)
                labelsets.append(key)
            _fill_condition(pop, i, rule["condition"], d, k, where)
            pop.ls[i] = ls_index[key]
            for key_name, field in RULE_STATS.items():
                getattr(pop, field)[i] = rule[key_name]
            require(pop.num[i] >= 1 and pop.exp[i] >= 0,
                    f"{where}: numerosity must be >= 1 and experience >= 0.")
            require(0.0 <= pop.fit[i] <= 1.0 and 0.0 <= pop.acc[i] <= 1.0,
                    f"{where}: fitness and accuracy must lie in [0, 1].")
        pop.size[0] = len(rules)
        pop.micro[0] = micro
        run.labelsets = np.array(labelsets, dtype=np.uint8).reshape(-1, m)

        counters = np.asarray(data["counters"], dtype=np.int64)
        require(counters.shape == (N_COUNTERS,) and (counters >= 0).all(),
                f"\"counters\" must be {N_COUNTERS} non-negative integers.")
        state = np.array([int(w, 16) for w in data["rng_state"]], dtype=np.uint64)
        require(state.shape == (4,) and state.any(), "rng_state must be 4 non-zero hex words.")
        run.counters, run.rng = counters, state
        run.card = float(data["label_cardinality"])
        history = data.get("history")  # absent from files written before it was saved
        if history is None:
            run.next_record = int(counters[ITERATION]) + history_every
        else:
            rows = history["rows"]
            require(isinstance(rows, list) and len(rows) <= MAX_HISTORY
                    and all(isinstance(r, dict) and set(r) == HISTORY_KEYS for r in rows),
                    f"\"history\" must hold at most {MAX_HISTORY} rows with the keys "
                    f"{sorted(HISTORY_KEYS)}.")
            run.history_rows = rows
            run.record_every, run.next_record = int(history["every"]), int(history["next"])
            require(run.record_every >= 1, "history \"every\" must be at least 1.")
        return run


def _fill_condition(pop, i, condition, d, k, where):
    """Check a ``hyperrectangle_csr`` condition and store it sparsely in slot i."""
    require(condition.get("type") == "hyperrectangle_csr",
            f"{where}: condition type must be hyperrectangle_csr.")
    center, spread = condition["center"], condition["spread"]
    require(len(center) == d and len(spread) == d,
            f"{where}: center and spread need {d} entries (null for a wildcard).")
    specified = [j for j in range(d) if center[j] is not None]
    require(all((spread[j] is None) == (center[j] is None) for j in range(d)),
            f"{where}: center and spread must be null for the same features.")
    require(len(specified) <= k, f"{where}: more than max_specified = {k} features specified.")
    for slot, j in enumerate(specified):
        c, s = float(center[j]), float(spread[j])
        require(np.isfinite(c) and np.isfinite(s) and s >= 0,
                f"{where}, feature {j}: center must be finite and spread finite and >= 0.")
        pop.feat[i, slot], pop.center[i, slot], pop.spread[i, slot] = j, c, s
    pop.nspec[i] = len(specified)
