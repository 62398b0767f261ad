"""Write a MULAN dataset in ARFF's sparse format (``{index value, ...}`` rows) with its XML, as a
person brings text data: the dashboard tests (``tests/dashboard``), the browser tests'
``wordbag`` (``tests/e2e/wide_data.py``) and ``benchmarks/dashboard_sparse.py`` write theirs
with it. Generated when needed, never kept in the repository."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_sparse_mulan(folder: Path, name: str, X, Y, words: list[str], labels: list[str],
                       word_type: str = "{0,1}", unknown=None) -> Path:
    """``folder/name.arff`` (the rows' non-zero 0/1 words, then their labels) and ``name.xml``;
    ``X`` a boolean array or a CSR matrix of 1s, ``Y`` 0/1; ``unknown``, a boolean array of
    ``X``'s shape: its cells written ``?`` (missing) whatever ``X`` holds there. Returns the
    ARFF's path."""
    arff = folder / f"{name}.arff"
    with arff.open("w") as out:
        out.write(f"@relation {name}\n")
        out.writelines(f"@attribute {w} {word_type}\n" for w in words)
        out.writelines(f"@attribute {label} {{0,1}}\n" for label in labels)
        out.write("@data\n")
        for i in range(X.shape[0]):
            held = X.indices[X.indptr[i]:X.indptr[i + 1]] if hasattr(X, "indptr") else (
                np.flatnonzero(X[i]))
            cells = dict.fromkeys(held.tolist(), "1")
            if unknown is not None:
                cells.update(dict.fromkeys(np.flatnonzero(unknown[i]).tolist(), "?"))
            cells.update(dict.fromkeys((len(words) + np.flatnonzero(Y[i])).tolist(), "1"))
            out.write("{" + ", ".join(f"{j} {v}" for j, v in sorted(cells.items())) + "}\n")
    xml = "".join(f'<label name="{label}"></label>' for label in labels)
    (folder / f"{name}.xml").write_text(
        f'<?xml version="1.0" encoding="utf-8"?><labels xmlns="http://mulan.sourceforge.net/'
        f'labels">{xml}</labels>\n')
    return arff
