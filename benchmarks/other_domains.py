"""MLR's defaults on synthetic data shaped like other domains, beside binary relevance and kNN.

    python benchmarks/other_domains.py

The five shared datasets are all small and mostly dense; the defaults must also hold on text
(about a thousand sparse binary word features, 45-53 labels) and images (dense features). These
generators make such data without downloading anything, so that a default can be checked for
generalising before it is trusted:

- ``text_like``: 1,500 documents, 1,200 binary words (about 2% present), 45 labels with 1-3
  topics per document (30% also get a partner topic); each label has 25 indicative words present
  with probability 0.25, every word appears by chance with probability 0.01.
- ``image_like``: 1,500 rows, 200 dense features from 10 latent factors through tanh plus noise,
  6 labels that are thresholded linear functions of the factors.

One 80/20 split, ``random_state=0``; prints a Markdown table (HL, accuracy, F1, micro-F1, fit s).
"""

import time

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier

from mlr_core import MLRClassifier
from mlr_core.evaluation.measures import evaluate

CONFIGS = {"MLR before": dict(n_rules=1000, n_iter=50_000, target="f1"), "MLR defaults": {}}


def text_like(n=1500, d=1200, m=45, seed=1):
    rng = np.random.default_rng(seed)
    popularity = rng.dirichlet(np.full(m, 0.5))
    partner = rng.permutation(m)
    Y = np.zeros((n, m), dtype=np.uint8)
    for i in range(n):
        topics = rng.choice(m, size=rng.choice([1, 1, 2, 2, 3]), replace=False, p=popularity)
        Y[i, topics] = 1
        if rng.random() < 0.3:
            Y[i, partner[topics[0]]] = 1
    p = np.full((n, d), 0.01)
    for j in range(m):
        p[np.ix_(Y[:, j] == 1, rng.choice(d, 25, replace=False))] = 0.25
    return (rng.random((n, d)) < p).astype(float), Y


def image_like(n=1500, d=200, m=6, seed=1):
    rng = np.random.default_rng(seed)
    factors = rng.normal(size=(n, 10))
    X = np.tanh(factors @ rng.normal(size=(10, d)) / 3) + 0.3 * rng.normal(size=(n, d))
    Y = (factors @ rng.normal(size=(10, m)) + 0.5 * rng.normal(size=(n, m))) > 1.0
    return X, Y.astype(np.uint8)


def positive_scores(model, X):
    """Per-label probability of 1 from a multi-output scikit-learn classifier."""
    return np.column_stack([p[:, 1] if p.shape[1] > 1 else np.zeros(len(X))
                            for p in model.predict_proba(X)])


def learners():
    yield "BR-LR", lambda: OneVsRestClassifier(LogisticRegression(solver="liblinear"))
    yield "kNN k=10", lambda: KNeighborsClassifier(10)
    for name, params in CONFIGS.items():
        yield name, lambda params=params: MLRClassifier(random_state=0, **params)


def main():
    print("| data | learner | HL | accuracy | F1 | micro-F1 | fit s |")
    print("|---|---|---|---|---|---|---|")
    for kind, make in (("text-like", text_like), ("image-like", image_like)):
        X, Y = make()
        order = np.random.default_rng(0).permutation(len(X))
        train, test = order[: int(0.8 * len(X))], order[int(0.8 * len(X)):]
        for name, build in learners():
            start = time.perf_counter()
            model = build().fit(X[train], Y[train])
            seconds = time.perf_counter() - start
            scores = (positive_scores(model, X[test]) if isinstance(model, KNeighborsClassifier)
                      else model.predict_proba(X[test]))
            r = evaluate(Y[test], np.asarray(model.predict(X[test]), dtype=np.uint8), scores)
            print(f"| {kind} | {name} | {r['hamming_loss']:.4f} | {r['accuracy']:.3f} | "
                  f"{r['f1']:.3f} | {r['micro_f1']:.3f} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
