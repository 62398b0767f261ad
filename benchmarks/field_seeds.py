"""How much of MLR's rank among the field's peers belongs to its seed.

``benchmarks/field.py`` fits MLR once per fold, with ``random_state=0``; the peers' figures in
``../shared/field/peers.csv`` are one run each. An evolved rule set depends on its seed, so
an average rank of the defaults moves with it. This fits the defaults on the same fixed folds
for each seed asked for and prints, per panel (the five, the scale panel):

- each seed's average ranks among the peers (computed as ``field.py`` computes its tables:
  seed 0 reproduces them);
- their mean over the seeds, and their spread (largest minus smallest);
- the ranks of MLR's measures averaged over the seeds (its expected figure against the peers').

``--config`` runs one of ``field.py``'s other settings instead of the defaults (``"axis: min-max
(paper)"``: the paper's axis and covering width).

    PYTHONPATH=$PWD:$PWD/benchmarks python benchmarks/field_seeds.py --seeds 0 1 2 3 4 --n-jobs 2
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time

import field
import pandas as pd

from mlr_core.evaluation.tables import markdown

MEASURES = ("hamming_loss", "accuracy", "f1", "one_error", "ranking_loss")


def panel_ranks(peers: pd.DataFrame, mine: pd.DataFrame, config: str,
                datasets) -> dict[str, float]:
    """The average rank of ``mine`` (fold means of ``config``, one row per dataset) among the
    ``peers`` (`field.peers`) measured on every one of ``datasets``, per measure."""
    means = pd.concat([peers[peers.dataset.isin(datasets)], mine], ignore_index=True)
    mates = field.peers_on(peers, datasets)
    return {m: field.ranks_among(means, m, config, mates, datasets).loc[config, "avg_rank"]
            for m in MEASURES}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="MLR defaults",
                        choices=["MLR defaults", *field.VARIANTS])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--datasets", nargs="+", default=list(field.DATASETS),
                        choices=field.DATASETS)
    parser.add_argument("--n-jobs", type=int, default=1, help="joblib workers (-1: all cores)")
    args = parser.parse_args(argv)
    command = " ".join(["python benchmarks/field_seeds.py",
                        *map(shlex.quote, sys.argv[1:] if argv is None else argv)])
    start, loads = time.perf_counter(), [os.getloadavg()[0]]
    per_seed = {}
    for seed in args.seeds:
        results = field.run([args.config], args.datasets, args.n_jobs, seed)
        per_seed[seed] = (results.drop(columns=["fold", "density"])
                          .groupby(["learner", "dataset"], sort=False).mean().reset_index())
        print(f"seed {seed} done", file=sys.stderr, flush=True)
    loads.append(os.getloadavg()[0])
    parts = [f"Command: `{command}` ({time.perf_counter() - start:.0f} s; load average "
             f"{min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} CPUs). `{args.config}` on "
             "the fixed folds, average rank among the peers of `../shared/field/peers.csv`."]
    peers = field.peers()
    for title, panel in (("The five", field.FIVE), ("The scale panel", field.SCALE)):
        datasets = [d for d in panel if d in args.datasets]
        if not datasets:
            continue
        rows = {f"seed {s}": panel_ranks(peers, mine, args.config, datasets)
                for s, mine in per_seed.items()}
        ranks = pd.DataFrame(rows).T
        ranks.loc["mean of the seeds' ranks"] = ranks.mean()
        ranks.loc["spread (largest - smallest)"] = ranks.iloc[:-1].max() - ranks.iloc[:-1].min()
        pooled = pd.concat(per_seed.values()).groupby(["learner", "dataset"],
                                                      sort=False).mean().reset_index()
        ranks.loc["rank of the measures' means over the seeds"] = pd.Series(
            panel_ranks(peers, pooled, args.config, datasets))
        parts += [f"## {title}", markdown(ranks.round(2))]
    print("\n\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
