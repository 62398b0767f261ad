"""Sparse input (issue 32): a CSR matrix too large to densify, fitted and predicted as it is.

Documents of a vocabulary of words, each row holding its words as 1s (``CountVectorizer(binary=
True)``'s form), about ``density`` x ``features`` words per row, drawn at random; each label is
planted on two words of its own (a row has the label when it holds either), each of those words
in 10% of the rows. The first 80% of the rows train, the rest are held out.

Part one (``--rows`` x ``--features``, by default 60,000 x 20,000 at 0.2%: 9.6 GB dense as
float64) reports the process's peak resident memory (Linux VmHWM, the whole process: data,
model, numba) after ``fit`` and after ``predict``, and the accuracy on the held-out rows. Part
two (``--compare-rows`` x ``--compare-features``, small enough to densify) fits the same data
as CSR and as a dense array, same seed, in this one process (numba compiled before either is
timed), and reports both fit times, their ratio, and whether every prediction and score agree.

    python benchmarks/sparse_input.py                  # both parts, the issue's sizes
    python benchmarks/sparse_input.py --quick          # small sizes, a minute
"""

import argparse
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from mlr_core import MLRClassifier
from mlr_core.evaluation.measures import accuracy


def planted(n_rows, n_features, density, n_labels, seed):
    """(X as CSR of 0/1 words, Y): labels planted on two words each (see the module text)."""
    rng = np.random.default_rng(seed)
    per_row = rng.poisson(density * n_features, n_rows)
    rows = np.repeat(np.arange(n_rows), per_row)
    words = rng.integers(0, n_features, len(rows))
    planted_words = np.arange(2 * n_labels).reshape(n_labels, 2) * 7 + 3  # spread out
    held = rng.random((n_rows, 2 * n_labels)) < 0.10
    r, k = np.nonzero(held)
    rows = np.concatenate([rows, r])
    words = np.concatenate([words, planted_words.ravel()[k]])
    X = sp.csr_matrix((np.ones(len(rows)), (rows, words)), shape=(n_rows, n_features))
    X.sum_duplicates()
    X.data[:] = 1.0  # a word drawn twice is held once
    Y = (held.reshape(n_rows, n_labels, 2).any(axis=2)).astype(np.uint8)
    return X, Y


def peak_mb():
    """The process's peak resident memory so far (VmHWM), in MB; None off Linux."""
    status = Path("/proc/self/status")
    if not status.exists():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def model(args):
    return MLRClassifier(n_iter=args.n_iter, random_state=args.seed)


def part_large(args):
    X, Y = planted(args.rows, args.features, args.density, args.labels, args.seed)
    n_train = int(0.8 * args.rows)
    dense_gb = args.rows * args.features * 8 / 1e9
    print(f"## Large: {args.rows:,} x {args.features:,} CSR, {X.nnz:,} stored values "
          f"({X.nnz / (args.rows * args.features):.2%}; dense float64 would be {dense_gb:.1f} GB),"
          f" {args.labels} labels, n_iter={args.n_iter:,}, {n_train:,} rows train")
    start = time.perf_counter()
    clf = model(args).fit(X[:n_train], Y[:n_train])
    fit_s = time.perf_counter() - start
    fit_peak = peak_mb()
    start = time.perf_counter()
    predicted = clf.predict(X[n_train:])
    predict_s = time.perf_counter() - start
    predict_peak = peak_mb()
    print(f"fit: {fit_s:,.1f} s wall, process peak {fit_peak:,.0f} MB")
    print(f"predict ({args.rows - n_train:,} rows): {predict_s:,.1f} s wall, process peak "
          f"{predict_peak:,.0f} MB")
    print(f"held-out accuracy: {accuracy(Y[n_train:], predicted):.3f} "
          f"(rules: {len(clf.rules_frame()):,})")


def part_compare(args):
    X, Y = planted(args.compare_rows, args.compare_features, args.compare_density, args.labels,
                   args.seed)
    n_train = int(0.8 * args.compare_rows)
    dense = X.toarray()
    warm = max(50, n_train // 20)  # numba compiles both forms before anything is timed
    MLRClassifier(n_iter=200, random_state=0).fit(X[:warm], Y[:warm]).predict(X[:10])
    MLRClassifier(n_iter=200, random_state=0).fit(dense[:warm], Y[:warm]).predict(dense[:10])
    print(f"\n## Sparse against dense: {args.compare_rows:,} x {args.compare_features:,}, "
          f"{X.nnz:,} stored values, n_iter={args.n_iter:,}, same seed, one process")
    times, fitted = {}, {}
    for name, rows in (("dense", dense), ("sparse", X)):
        start = time.process_time()
        fitted[name] = model(args).fit(rows[:n_train], Y[:n_train])
        times[name] = time.process_time() - start
        print(f"{name} fit: {times[name]:,.2f} s CPU")
    same_labels = np.array_equal(fitted["sparse"].predict(X[n_train:]),
                                 fitted["dense"].predict(dense[n_train:]))
    same_scores = np.array_equal(fitted["sparse"].predict_proba(X[n_train:]),
                                 fitted["dense"].predict_proba(dense[n_train:]))
    print(f"sparse / dense fit time: {times['sparse'] / times['dense']:.2f}")
    print(f"predictions equal: {same_labels}; scores equal: {same_scores}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=60_000)
    parser.add_argument("--features", type=int, default=20_000)
    parser.add_argument("--density", type=float, default=0.002)
    parser.add_argument("--labels", type=int, default=5)
    parser.add_argument("--n-iter", type=int, default=20_000)
    parser.add_argument("--compare-rows", type=int, default=5_000)
    parser.add_argument("--compare-features", type=int, default=2_000)
    parser.add_argument("--compare-density", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parts", nargs="+", default=["large", "compare"],
                        choices=["large", "compare"])
    parser.add_argument("--quick", action="store_true",
                        help="3,000 x 2,000 and 1,000 x 300, n_iter 2,000")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.features, args.n_iter = 3_000, 2_000, 2_000
        args.compare_rows, args.compare_features = 1_000, 300
    if "large" in args.parts:
        part_large(args)
    if "compare" in args.parts:
        part_compare(args)


if __name__ == "__main__":
    main()
