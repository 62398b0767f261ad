"""How the test measures and the training signals move along one run of the defaults: the evidence
behind ``n_iter="auto"`` (``mlr_core/stopping.py``).

    python benchmarks/iteration_curve.py                     # five datasets, folds 0 and 1
    python benchmarks/iteration_curve.py --datasets genbase --folds 0 1 2 3 4
    python benchmarks/iteration_curve.py --quick             # flags, fold 0, to 4,000

Each fold's training part is bound once (``MLRClassifier(random_state=0).start``) and trained
in steps to each checkpoint; at each, the rule weights and the bipartition are fitted
(``tune_bipartition``, which reads the population and draws nothing from the run's random
generator, so the run goes on exactly as one ``learn`` would) and the test part predicted. So
the row at k iterations is the model ``fit`` with ``n_iter=k`` gives. Beside the test Hamming
loss, accuracy and F1: the stopping rule's signal (``stopping.training_signal``) and the CPU
seconds of training so far.
"""

import argparse
import time
from pathlib import Path

from mlr_core import MLRClassifier, TrainingSession, load_dataset, stopping
from mlr_core.evaluation.folds import read_fold_file
from mlr_core.evaluation.measures import accuracy, f1, hamming_loss

SHARED = Path(__file__).resolve().parents[2] / "shared"
DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase")
CHECKPOINTS = (5000, 10_000, 20_000, 40_000, 80_000, 150_000)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--folds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--checkpoints", nargs="+", type=int, default=list(CHECKPOINTS))
    parser.add_argument("--quick", action="store_true", help="flags, fold 0, to 4,000")
    args = parser.parse_args(argv)
    if args.quick:
        args.datasets, args.folds, args.checkpoints = ["flags"], [0], [2000, 4000]
    print("| dataset | fold | iterations | test HL | test accuracy | test F1 | signal "
          "(train HL) | training CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.datasets:
        data = load_dataset(SHARED / "datasets" / f"{name}.arff")
        folds = read_fold_file(SHARED / "field" / "folds" / f"{name}.json", data.Y)
        for k in args.folds:
            train, test = folds[k]
            session = TrainingSession(MLRClassifier(random_state=0))
            model = session.start(data.X[train], data.Y[train]).model
            trained, seconds = 0, 0.0
            for checkpoint in sorted(args.checkpoints):
                began = time.process_time()
                session.learn(checkpoint - trained)
                seconds += time.process_time() - began
                trained = checkpoint
                session.tune_bipartition()
                truth, predicted = data.Y[test], model.predict(data.X[test])
                print(f"| {name} | {k} | {checkpoint:,} | {hamming_loss(truth, predicted):.4f} "
                      f"| {accuracy(truth, predicted):.4f} | {f1(truth, predicted):.4f} | "
                      f"{stopping.training_signal(model.run_):.4f} | {seconds:.1f} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
