"""Regenerate the sample datasets of this folder with the project's hypercube generator.

Run from the repository root::

    python sample_data/make_samples.py

Seeds are fixed, so the files come out identical every time (a test checks it). Every file is a CSV
whose label columns are named ``label:<name>``, which ``load_dataset`` recognises with no argument;
``hypercube_2d`` is also written in MULAN format (``.arff`` + ``.xml``) to show that format. The
script prints the statistics table of ``README.md``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import arff

from mlr_core.data.loaders import Dataset
from mlr_core.data.stats import dataset_stats
from mlr_core.data.synthetic import make_hypercube_dataset

HERE = Path(__file__).resolve().parent
DECIMALS = 4  # features are rounded before labelling, so 4-decimal files are exact
MULAN_NS = "http://mulan.sourceforge.net/labels"

SAMPLES = {
    # the dashboard's default: three overlapping rectangles in the plane, every labelset present
    "hypercube_2d": dict(
        n_samples=600,
        n_relevant=2,
        n_labels=3,
        min_half_edge=0.15,
        max_half_edge=0.3,
        random_state=7,
    ),
    "hypercube_4d": dict(
        n_samples=800,
        n_relevant=4,
        n_labels=4,
        min_half_edge=0.2,
        max_half_edge=0.4,
        random_state=5,
    ),
    "hypercube_8labels": dict(
        n_samples=1000,
        n_relevant=3,
        n_labels=8,
        min_half_edge=0.15,
        max_half_edge=0.35,
        random_state=1,
    ),
    # 40 features: 8 relevant, 24 irrelevant (noise), 8 redundant (copies); 2% label noise
    "hypercube_40d": dict(
        n_samples=600,
        n_relevant=8,
        n_labels=5,
        n_irrelevant=24,
        n_redundant=8,
        label_noise=0.02,
        min_half_edge=0.3,
        max_half_edge=0.45,
        random_state=5,
    ),
}
MULAN_SAMPLES = ("hypercube_2d",)


def build(name: str) -> Dataset:
    """The sample dataset ``name``, generated from its entry in `SAMPLES`."""
    return make_hypercube_dataset(**SAMPLES[name], decimals=DECIMALS, name=name)


def write_csv(data: Dataset, path: Path) -> None:
    """Features then ``label:``-prefixed label columns, one row per instance."""
    data.to_frame().to_csv(path, index=False, lineterminator="\n")


def write_mulan(data: Dataset, arff_path: Path) -> None:
    """MULAN format: a dense ARFF with {0,1} label attributes last, and the XML naming them."""
    text = arff.dumps(
        {
            "relation": data.name,
            "attributes": [(f, "NUMERIC") for f in data.feature_names]
            + [(lab, ["0", "1"]) for lab in data.label_names],
            "data": [
                [*(float(v) for v in x), *(str(v) for v in y)]
                for x, y in zip(data.X, data.Y, strict=True)
            ],
        }
    )
    arff_path.write_text(text + "\n", encoding="utf-8")
    root = ET.Element("labels", xmlns=MULAN_NS)
    for lab in data.label_names:
        ET.SubElement(root, "label", name=lab)
    ET.indent(root)
    ET.ElementTree(root).write(
        arff_path.with_suffix(".xml"), encoding="utf-8", xml_declaration=True
    )


def stats_table(datasets: list[Dataset]) -> str:
    """Markdown table of `dataset_stats` (plus d) for the README."""
    lines = [
        "| file | n | d | m | Card | Dens | DL | PDL | ahd | ahw |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for data in datasets:
        s = dataset_stats(data.Y)
        lines.append(
            f"| {data.name}.csv | {s['n']} | {data.n_features} | {s['m']} | {s['card']:.4f} | "
            f"{s['dens']:.4f} | {s['dl']} | {s['pdl']:.4f} | {s['ahd']:.4f} | {s['ahw']:.4f} |"
        )
    return "\n".join(lines)


def main() -> None:
    datasets = [build(name) for name in SAMPLES]
    for data in datasets:
        write_csv(data, HERE / f"{data.name}.csv")
        if data.name in MULAN_SAMPLES:
            write_mulan(data, HERE / f"{data.name}.arff")
    print(stats_table(datasets))


if __name__ == "__main__":
    main()
