"""What the rule audit finds on the sample and two real datasets, and what it costs.

    python benchmarks/audit_figures.py            # hypercube_2d, emotions, yeast; seed 0
    python benchmarks/audit_figures.py --quick    # hypercube_2d, 5,000 iterations: a smoke test

Each dataset is split 70/30 (seed 0); a default MLRClassifier (seed 0) is fitted on the 70% and
audited on it (``mlr_core.audit.audit``), with the 30% as held-out rows, for MLR_agg and
MLR_max. Per line: rules, rules deciding some prediction, the most decisive rules needed to
decide 50% / 90% of the rows, the compacted set (same predictions on the audited rows) and
how many of it decide nothing, then held-out Hamming loss and example F1 of all rules, the
compacted set and the deciding rules alone, and the audit's wall-clock time.
"""

import argparse
import time
from pathlib import Path

from sklearn.model_selection import train_test_split

from mlr_core import MLRClassifier, load_dataset
from mlr_core.audit import audit

ROOT = Path(__file__).resolve().parents[1]
DATASETS = {
    "hypercube_2d": ROOT / "sample_data" / "hypercube_2d.csv",
    "emotions": ROOT.parent / "shared" / "datasets" / "emotions.arff",
    "yeast": ROOT.parent / "shared" / "datasets" / "yeast.arff",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="hypercube_2d only, 5,000 iterations: a smoke test")
    args = parser.parse_args()
    datasets = dict(list(DATASETS.items())[:1]) if args.quick else DATASETS
    params = {"n_iter": 5000} if args.quick else {}
    print("| dataset | prediction | rules | deciding | for 50% / 90% | compacted (put back) "
          "| held-out HL all / compacted / deciding | held-out F1 all / compacted / deciding "
          "| audit time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, path in datasets.items():
        data = load_dataset(path)
        X, X_test, Y, Y_test = train_test_split(data.X, data.Y, test_size=0.3, random_state=0)
        model = MLRClassifier(random_state=0, **params).fit(X, Y, feature_names=data.feature_names,
                                                  label_names=data.label_names)
        for prediction in ("agg", "max"):
            start = time.perf_counter()
            result = audit(model, X, Y, X_test, Y_test, prediction=prediction)
            seconds = time.perf_counter() - start
            s, m = result.summary, result.measures
            hl, f1 = ("/".join(f"{m.loc[measure, ('held-out', which)]:.3f}"
                               for which in ("full", "compact", "deciding"))
                      for measure in ("hamming_loss", "f1"))
            print(f"| {name} | {prediction} | {s['n_rules']} | {s['n_deciding']} | "
                  f"{s['rules_for_50']} / {s['rules_for_90']} | {s['n_compact']} "
                  f"({s['n_restored']}) | {hl} | {f1} | {seconds:.1f} s |")


if __name__ == "__main__":
    main()
