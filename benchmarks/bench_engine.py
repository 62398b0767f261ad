"""Speed and memory of MLR's engine against scikit-eLCS and XCSF, measured in one run (issue 2).

For each contender, data set and population size N the script reports microseconds per training
iteration once the micro-population is full, the population reached, and peak memory; for our
engine it also times ``predict`` on 10,000 instances with N = 6,000 rules. It ends with the ratios
that issue 2 sets targets for.

    python benchmarks/bench_engine.py                 # everything (8-15 min on 2 cores)
    python benchmarks/bench_engine.py --quick         # yeast, N = 1,000, short windows (~1 min)
    python benchmarks/bench_engine.py --only ours     # just our engine (also: elcs, xcsf)

How it measures, and why the figures can be compared:

* Every (contender, data, N) runs in its own fresh Python process, one after another, so no run
  inherits another's heap, caches or compiled code, and peak memory is per run.
* All contenders get the same data, scaled to [0, 1] per feature (XCSF's rectangles expect that),
  the same seed, and the same thread count (1 unless ``--threads``): eLCS is single-threaded,
  so BLAS, OpenMP (XCSF) and numba are pinned to it too.
* Training first fills the population (chunks of N/2, then N/4 iterations, until the
  micro-population reaches N), then settles for up to N/2 more iterations, then times a window
  split into blocks. Windows are sized from the cost measured so far so that each run takes
  about the same time: 200 to 20,000 iterations. The table shows where each window started.
  That is what keeps the full run short: eLCS costs ~5 ms per iteration at N = 1,000 and
  ~45 ms at N = 6,000 (yeast, this 2-core machine), so it gets ~2,000 and ~300 timed
  iterations, after filling its population, which alone takes minutes at N = 6,000.
* The figure is process CPU time per iteration (with one thread: the work done, which hardly
  moves when other processes share the machine); wall time is shown beside it.
* Only learning iterations are timed: our engine is warmed up first on a throw-away model, so
  numba compilation (reported separately) is excluded; eLCS runs its own iteration without the
  bookkeeping its ``fit`` loop adds (see ``ELCS``); XCSF runs ``fit`` in single-epoch calls.
* Peak memory is the process's resident-set high-water mark during training minus its resident
  set just before the model was built (Linux ``/proc/self/status`` VmHWM, reset through
  ``/proc/self/clear_refs``). It counts everything the run allocated: numpy and numba arrays,
  XCSF's C allocations, eLCS's Python objects. tracemalloc is not used: it misses numba's and
  XCSF's allocations and would slow pure-Python eLCS several times over.
"""

import argparse
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numba
import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "datasets"
SEED = 0
BLOCKS = 4
MIN_WINDOW = 200
PREDICT_ROWS = 10_000
PREDICT_REPEATS = 3
MAX_FILL = 20  # give up filling after this many times N iterations
RESULT_TAG = "BENCH-RESULT "

# name: (instances, features, labels, distinct labelsets, label density, binary features).
# Used for the random stand-in when the real file is absent; the figures are the real data's.
SHAPES = {
    "yeast": (2417, 103, 14, 198, 0.303, False),
    "genbase": (662, 1185, 27, 32, 0.046, True),
}

# Runs left out of the default plan because they alone would blow the time budget: on genbase
# eLCS costs ~50 ms per iteration at N = 1,000 already, and filling 6,000 rules takes thousands.
SLOW = {("elcs", "genbase", 6000)}

LABELS = {"ours": "MLR (ours)", "elcs": "scikit-eLCS", "xcsf": "XCSF"}


# ----------------------------------------------------------------------------- data


def load_mulan(arff, xml):
    """Read a dense MULAN ARFF file; labels are the attributes named in the XML file.

    Nominal YES/NO features become 1/0. Kept here rather than borrowed from ``mlr_core`` so the
    baselines can be benchmarked whatever state the engine is in.
    """
    labels = [el.get("name") for el in ET.parse(xml).getroot()]
    names, rows, in_data = [], [], False
    with open(arff) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            if in_data:
                rows.append(s.split(","))
            elif s.lower().startswith("@attribute"):
                names.append(re.match(r"@attribute\s+('[^']*'|\S+)", s, re.I)[1].strip("'"))
            elif s.lower().startswith("@data"):
                in_data = True
    nominal = {"YES": 1.0, "NO": 0.0}
    cells = ([c.strip().strip("'") for c in r] for r in rows)
    values = np.array([[nominal[c] if c in nominal else float(c) for c in r] for r in cells])
    label_cols = [names.index(n) for n in labels]
    feature_cols = [i for i in range(len(names)) if i not in set(label_cols)]
    return values[:, feature_cols], values[:, label_cols].astype(np.uint8)


def random_like(name, rng):
    """Random data of a real set's shape: binary features as sparse as genbase's (0.2% ones),
    labelsets drawn from a pool as large as the real one's (eLCS's class count depends on it)."""
    n, d, m, n_labelsets, density, binary = SHAPES[name]
    X = (rng.random((n, d)) < 0.002).astype(float) if binary else rng.random((n, d))
    pool = (rng.random((n_labelsets, m)) < density).astype(np.uint8)
    return X, pool[rng.integers(0, n_labelsets, n)]


def load_data(name, data_dir, synthetic):
    """Return X scaled to [0, 1] per feature (constant features become 0), Y, and a source note."""
    arff, xml = data_dir / f"{name}.arff", data_dir / f"{name}.xml"
    if not synthetic and arff.exists() and xml.exists():
        X, Y = load_mulan(arff, xml)
        source = f"real {arff}"
    else:
        X, Y = random_like(name, np.random.default_rng(SEED))
        source = "random data of the same shape"
    low, span = X.min(axis=0), np.ptp(X, axis=0)
    X = np.ascontiguousarray((X - low) / np.where(span > 0, span, 1.0))
    return X, Y, source


# ----------------------------------------------------------------------------- contenders
#
# A contender is built from (X, Y, n_rules, threads) and offers: warm_up() -> compile seconds or
# None; begin(), which builds the model (after the memory baseline is taken); advance(k), k
# training iterations and nothing else; population() -> (micro, macro); config, one line that
# says how it was set up. ``train`` below times all of them the same way.


class Ours:
    """Our engine through its incremental API (a ``TrainingSession``): ``start`` once, then
    ``learn(k)``."""

    def __init__(self, X, Y, n_rules, threads):
        from mlr_core import MLRClassifier, TrainingSession

        numba.set_num_threads(threads)
        self.cls, self.X, self.Y, self.n_rules = MLRClassifier, X, Y, n_rules
        self.session_of = TrainingSession
        self.config = "MLRClassifier(n_rules=N, random_state=0), all else default"

    def warm_up(self):
        """Compile (or load cached) numba kernels on a small throw-away model, predict included."""
        t = time.perf_counter()
        m = self.cls(n_rules=64, random_state=SEED)
        self.session_of(m).start(self.X[:300], self.Y[:300]).learn(3000).tune_bipartition()
        m.predict(self.X[:50])
        return time.perf_counter() - t

    def begin(self):
        self.model = self.cls(n_rules=self.n_rules, random_state=SEED)
        self.session = self.session_of(self.model).start(self.X, self.Y)

    def advance(self, k):
        self.session.learn(k)

    def population(self):
        s = self.session.summary()
        return int(s["micro_size"]), int(s["macro_size"])

    def ready_to_predict(self):
        """Fit the rule weights and the bipartition to the rules as trained (what ``fit`` does
        after its iterations; prediction refuses weights older than the rules)."""
        self.session.tune_bipartition()

    def predict(self, X):
        return self.model.predict(X)


class ELCS:
    """scikit-eLCS, a single-label UCS, on the label powerset (one class per distinct labelset,
    which is how MLR treats labelsets).

    ``begin`` runs ``fit`` for zero iterations, which builds eLCS's data environment; ``advance``
    then runs the body of ``fit``'s loop (``runIteration``, next instance) itself. That is
    eLCS's own learning iteration, without the per-iteration bookkeeping ``fit`` adds and no
    parameter turns off (a tracking record per iteration, average generality every 1,000), and
    without what repeated ``fit`` calls would add (rebuilding the environment, reseeding,
    deep-copying the population). ``track_accuracy_while_fit=False`` turns off its in-training
    prediction; its phase timers (a few ``time.time()`` calls per iteration) remain.
    """

    def __init__(self, X, Y, n_rules, threads):
        from skeLCS import eLCS

        self.X = X
        self.y = np.unique(Y, axis=0, return_inverse=True)[1].ravel()
        self.model = eLCS(
            learning_iterations=0, N=n_rules, track_accuracy_while_fit=False, random_state=SEED
        )
        self.config = (
            f"eLCS(N=N, track_accuracy_while_fit=False, random_state=0), defaults otherwise "
            f"(p_spec=0.5, theta_GA=25, GA subsumption); {self.y.max() + 1} labelset classes"
        )

    def warm_up(self):
        return None

    def begin(self):
        self.model.fit(self.X, self.y)

    def advance(self, k):
        m = self.model
        for _ in range(k):
            m.runIteration(m.env.getTrainInstance(), m.explorIter)
            m.explorIter += 1
            m.env.newInstance()

    def population(self):
        return int(self.model.population.microPopSize), len(self.model.population.popSet)


class XCSF:
    """XCSF as a supervised learner with hyper-rectangle (center-spread) conditions.

    The target is the multi-label Y itself (m outputs, 0/1) with constant predictions: a rule
    then predicts a vector of label rates, the nearest XCSF analogue of an MLR rule's labelset,
    and its output is as wide as MLR's (a one-hot labelset target would be 198 wide on yeast).
    MAE loss on 0/1 targets is the Hamming loss. GA settings follow the UCS ones (theta 25, two
    offspring, GA subsumption with theta_sub 20); the population starts empty (pop_init=False)
    and fills by covering, like the others. One trial = one instance = one iteration; each
    ``fit`` call is one metrics epoch, so XCSF's per-epoch bookkeeping is negligible.
    """

    def __init__(self, X, Y, n_rules, threads):
        import xcsf

        self.xcsf, self.X, self.n_rules, self.threads = xcsf, X, n_rules, threads
        self.Y = np.ascontiguousarray(Y, dtype=np.float64)
        self.config = (
            "XCS(y_dim=m, n_actions=1, pop_size=N, pop_init=False, loss_func='mae', "
            "hyperrectangle_csr on [0, 1], constant prediction, theta_ea=25, lambda=2, "
            f"EA subsumption, theta_sub=20, omp_num_threads={threads}), fit(warm_start=True)"
        )

    def warm_up(self):
        return None

    def begin(self):
        self.model = self.xcsf.XCS(
            x_dim=self.X.shape[1],
            y_dim=self.Y.shape[1],
            n_actions=1,
            pop_size=self.n_rules,
            pop_init=False,
            max_trials=1,
            perf_trials=1,
            loss_func="mae",
            omp_num_threads=self.threads,
            random_state=SEED,
            theta_sub=20,
            ea={"select_type": "roulette", "theta_ea": 25, "lambda": 2, "subsumption": True},
            condition={"type": "hyperrectangle_csr", "args": {"min": 0.0, "max": 1.0}},
            prediction={"type": "constant"},
        )

    def advance(self, k):
        self.model.set_params(max_trials=k, perf_trials=k)
        self.model.fit(self.X, self.Y, shuffle=True, warm_start=True, verbose=False)

    def population(self):
        return int(self.model.pset_num()), int(self.model.pset_size())


CONTENDERS = {"ours": Ours, "elcs": ELCS, "xcsf": XCSF}
MODULES = {"ours": "mlr_core", "elcs": "skeLCS", "xcsf": "xcsf"}
"""The module each contender imports: a contender whose module is not installed is left out of
the plan (the others still run)."""


# ----------------------------------------------------------------------------- one run


def _status_mib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise KeyError(field)


def _reset_peak():
    """Reset the resident-set high-water mark (Linux >= 4.0); False if not possible here."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def train(contender, k, blocks=1):
    """Advance k iterations in equal blocks; per block (CPU seconds, wall seconds, iterations).

    CPU time is the process's (``time.process_time``): with one thread it is the work done and
    does not grow when other processes compete for the cores, which wall time does.
    """
    out = []
    for size in np.diff(np.linspace(0, k, blocks + 1).round().astype(int)):
        cpu, wall = time.process_time(), time.perf_counter()
        contender.advance(int(size))
        out.append((time.process_time() - cpu, time.perf_counter() - wall, int(size)))
    return out


def _per_iteration(blocks, clock):
    """Seconds per iteration over (cpu, wall, iterations) blocks; clock 0 is CPU, 1 is wall."""
    return sum(b[clock] for b in blocks) / max(1, sum(b[2] for b in blocks))


def run_job(job):
    """One (contender, data, N) measurement, in a process of its own."""
    with np.load(job["path"]) as data:
        X, Y = data["X"], data["Y"]
    n, clock = job["n_rules"], 0 if job["threads"] == 1 else 1
    contender = CONTENDERS[job["contender"]](X, Y, n, job["threads"])
    compile_s = contender.warm_up()
    resettable = _reset_peak()
    base = _status_mib("VmRSS")
    contender.begin()

    trained, chunk, micro = 0, max(1, n // 2), 0
    while micro < n and trained < MAX_FILL * n:
        blocks = train(contender, chunk)
        trained += chunk
        chunk = max(1, n // 4)
        micro, _ = contender.population()
    full_at = trained if micro >= n else None

    settle = min(n // 2, int(job["settle_s"] / _per_iteration(blocks, 1)))
    if settle:
        blocks = train(contender, settle)
    window = int(
        np.clip(job["window_s"] / _per_iteration(blocks, 1), MIN_WINDOW, job["max_window"])
    )
    window = -(-window // BLOCKS) * BLOCKS
    timed = train(contender, window, BLOCKS)
    micro, macro = contender.population()
    result = {
        **job,
        "config": contender.config,
        "compile_s": compile_s,
        "full_at": full_at,
        "start": trained + settle,
        "window": window,
        "us": _per_iteration(timed, clock) * 1e6,
        "wall_us": _per_iteration(timed, 1) * 1e6,
        "block_us": [b[clock] / b[2] * 1e6 for b in timed],
        "micro": micro,
        "macro": macro,
        "peak_mib": _status_mib("VmHWM") - base,
        "peak_exact": resettable,
        "load": os.getloadavg()[0],
    }
    if job["predict"] and hasattr(contender, "predict"):
        contender.ready_to_predict()
        Xp = X[np.random.default_rng(SEED).integers(0, len(X), PREDICT_ROWS)]
        _reset_peak()
        base = _status_mib("VmRSS")
        times = []
        for _ in range(1 + PREDICT_REPEATS):
            cpu, wall = time.process_time(), time.perf_counter()
            contender.predict(Xp)
            times.append((time.process_time() - cpu, time.perf_counter() - wall)[clock])
        result["predict_first_s"] = times[0]
        result["predict_s"] = float(np.median(times[1:]))
        result["predict_peak_mib"] = _status_mib("VmHWM") - base
        # what a user gets: predict's kernel runs rows in parallel on every core
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        walls = []
        for _ in range(PREDICT_REPEATS):
            wall = time.perf_counter()
            contender.predict(Xp)
            walls.append(time.perf_counter() - wall)
        result["predict_all_cores_s"] = float(np.median(walls))
    return result


def launch(job, threads, timeout):
    """Run one job in a fresh interpreter with thread pools pinned; errors become results."""
    path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    # numba is not pinned here: Ours trains on ``threads`` and times predict on every core too
    cmd = [sys.executable, __file__, "--worker", json.dumps(job)]
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {**job, "error": f"timed out after {timeout} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG) :])
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return {**job, "error": f"exit {proc.returncode}: {tail}"}


# ----------------------------------------------------------------------------- report


def machine_header(threads):
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    versions = []
    for dist in ("numpy", "numba", "scikit-eLCS", "xcsf"):
        try:
            versions.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{dist} (not installed)")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    return [
        f"machine: {cpu}, {os.cpu_count()} CPUs ({len(os.sched_getaffinity(0))} usable), "
        f"threads per run: {threads}",
        f"python {platform.python_version()}, {', '.join(versions)}, repo commit {commit or '?'}",
    ]


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join(f"{{:>{w}}}" for w in widths)
    return [line.format(*header), line.format(*("-" * w for w in widths))] + [
        line.format(*r) for r in rows
    ]


def result_row(r, shapes):
    where = f"{r['dataset']} {shapes[r['dataset']]}"
    if "error" in r:
        return [LABELS[r["contender"]], where, r["n_rules"], *["-"] * 7, r["error"]]
    full = f"{r['full_at']:,}" if r["full_at"] else "NOT FULL"
    return [
        LABELS[r["contender"]],
        where,
        r["n_rules"],
        full,
        f"{r['start']:,}+{r['window']:,}",
        f"{r['us']:,.1f}",
        f"{min(r['block_us']):,.0f}-{max(r['block_us']):,.0f}",
        f"{r['wall_us']:,.1f}",
        f"{r['micro']}/{r['macro']}",
        f"{r['peak_mib']:.1f}" + ("" if r["peak_exact"] else "*"),
        f"{r['load']:.1f}",
    ]


def ratio_lines(results):
    """The ratios issue 2 sets targets for, each with its verdict; pairs not run are left out."""
    got = {(r["contender"], r["dataset"], r["n_rules"]): r for r in results if "error" not in r}
    specs = [  # (text, numerator run, denominator run, target, target is a minimum)
        *(
            (f"eLCS / ours, {d}, N={n}", ("elcs", d, n), ("ours", d, n), t, True)
            for d, n, t in (("yeast", 1000, 10), ("yeast", 6000, 50), ("genbase", 1000, None))
        ),
        *(
            (f"XCSF / ours, {d}, N={n} (aim >= 1x)", ("xcsf", d, n), ("ours", d, n), None, True)
            for d in SHAPES
            for n in (1000, 6000)
        ),
        *(
            (
                f"ours genbase / ours yeast, N={n}",
                ("ours", "genbase", n),
                ("ours", "yeast", n),
                3,
                False,
            )
            for n in (1000, 6000)
        ),
    ]
    out = ["ratios of microseconds per iteration (all from this run):"]
    for text, num, den, target, minimum in specs:
        if num not in got or den not in got:
            continue
        value = got[num]["us"] / got[den]["us"]
        verdict = ""
        if target is not None:
            ok = value >= target if minimum else value <= target
            sign = ">=" if minimum else "<="
            verdict = f"  (target {sign} {target}x: {'met' if ok else 'MISSED'})"
        if not (got[num]["full_at"] and got[den]["full_at"]):
            verdict += "  [a population never filled]"
        out.append(f"  {text}: {value:,.1f}x{verdict}")
    for (who, data, n), r in got.items():
        if who == "ours" and "predict_s" in r:
            ok = "met" if r["predict_all_cores_s"] < 1 else "MISSED"
            target = f" (target < 1 s at N=6000: {ok})" if n == 6000 else ""
            out.append(
                f"  ours predict, {PREDICT_ROWS:,} {data} rows, N={n}: {r['predict_s']:.3f} s "
                f"(median of {PREDICT_REPEATS}); first call {r['predict_first_s']:.3f} s; "
                f"peak +{r['predict_peak_mib']:.1f} MiB; on all {os.cpu_count()} cores "
                f"{r['predict_all_cores_s']:.3f} s wall{target}"
            )
    if len(out) == 1:
        out.append("  none: they need runs of two contenders (or both data sets)")
    return out


# ----------------------------------------------------------------------------- main


def plan(args):
    jobs, skipped = [], []
    missing = [who for who in args.only if importlib.util.find_spec(MODULES[who]) is None]
    skipped += [f"{LABELS[who]}: {MODULES[who]} is not installed" for who in missing]
    for data in args.datasets:
        for n in args.sizes:
            for who in args.only:
                if who in missing:
                    continue
                if (who, data, n) in SLOW and not args.include_slow:
                    skipped.append(f"{LABELS[who]} {data} N={n} (budget; --include-slow runs it)")
                    continue
                jobs.append(
                    {
                        "contender": who,
                        "dataset": data,
                        "n_rules": n,
                        "predict": n == 6000 or args.quick,
                        "threads": args.threads,
                        "settle_s": args.settle_s,
                        "window_s": args.window_s,
                        "max_window": args.max_window,
                    }
                )
    return jobs, skipped


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--only",
        nargs="+",
        choices=list(CONTENDERS),
        default=list(CONTENDERS),
        help="contenders to run (default: all three)",
    )
    p.add_argument("--datasets", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    p.add_argument("--sizes", nargs="+", type=int, default=[1000, 6000], help="values of N")
    p.add_argument(
        "--quick",
        action="store_true",
        help="yeast, N=1000, short windows, predict timed too: a smoke test of the harness",
    )
    p.add_argument("--threads", type=int, default=1, help="threads per run (all contenders)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    p.add_argument(
        "--synthetic",
        action="store_true",
        help="use random data of the real shapes even when the files exist",
    )
    p.add_argument(
        "--include-slow",
        action="store_true",
        help=f"also run {', '.join(f'{w} {d} N={n}' for w, d, n in sorted(SLOW))}",
    )
    p.add_argument(
        "--settle-s",
        type=float,
        default=10.0,
        help="seconds of settling after the population fills (at most N/2 iterations)",
    )
    p.add_argument(
        "--window-s", type=float, default=20.0, help="target seconds of the timed window"
    )
    p.add_argument("--max-window", type=int, default=20_000, help="cap on timed iterations")
    p.add_argument("--timeout", type=int, default=3600, help="seconds allowed per run")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.datasets, args.sizes = ["yeast"], [1000]
        args.settle_s, args.window_s, args.max_window = 2.0, 4.0, 5000
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.worker:
        print(RESULT_TAG + json.dumps(run_job(json.loads(args.worker))), flush=True)
        return
    print("\n".join(machine_header(args.threads)), flush=True)
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    jobs, skipped = plan(args)
    results, shapes, sources = [], {}, {}
    header = [
        "contender",
        "data (n x d, m)",
        "N",
        "full at",
        "timed iters",
        "us/iter" + (" (CPU)" if args.threads == 1 else ""),
        "blocks",
        "wall us/iter",
        "micro/macro",
        "peak MiB",
        "load",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for data in args.datasets:
            X, Y, sources[data] = load_data(data, args.data_dir, args.synthetic)
            shapes[data] = f"{X.shape[0]}x{X.shape[1]}, {Y.shape[1]}"
            np.savez(Path(tmp) / f"{data}.npz", X=X, Y=Y)
            print(f"{data}: {shapes[data]}, {sources[data]}", flush=True)
        for job in jobs:
            result = launch(
                {**job, "path": str(Path(tmp) / f"{job['dataset']}.npz")},
                args.threads,
                args.timeout,
            )
            results.append(result)
            print("  done: " + "  ".join(map(str, result_row(result, shapes))), flush=True)

    print()
    print("\n".join(table([result_row(r, shapes) for r in results], header)))
    print("  full at: iterations trained when the micro-population first reached N (checked")
    print("  every N/4); timed iters: start+length of the window; us/iter: process CPU time per")
    print(
        f"  iteration with one thread, else wall time; blocks: its range over the window's {BLOCKS}"
    )
    print("  blocks; peak MiB: resident-set peak over the pre-model baseline; load: 1-minute load")
    print(f"  average after the window (above {os.cpu_count()}, other processes competed for the")
    print("  cores: wall times suffer, CPU times much less)")
    if any(not r.get("peak_exact", True) for r in results):
        print("  * high-water mark not resettable here: the peak includes warm-up")
    print()
    print("\n".join(ratio_lines(results)))
    print()
    print("configurations:")
    for label, config in dict.fromkeys(
        (LABELS[r["contender"]], r["config"]) for r in results if "config" in r
    ):
        print(f"  {label}: {config}")
    compiles = [
        f"{r['dataset']} N={r['n_rules']}: {r['compile_s']:.1f} s"
        for r in results
        if r.get("compile_s") is not None
    ]
    if compiles:
        print(f"  ours: warm-up incl. numba compile/cache load, excluded: {'; '.join(compiles)}")
    for s in skipped:
        print(f"  skipped: {s}")


if __name__ == "__main__":
    main()
