"""The datasets of the data folder set at launch (``--data-dir``): MULAN, MEKA and CSV files.

Only files directly in that folder are listed and read: the page picks from this list, it never
takes a path from the browser.
"""

from __future__ import annotations

from pathlib import Path

from dashboard import sparse_features

SUFFIXES = (".arff", ".csv")


def datasets_in(folder: Path) -> list[Path]:
    """The ``.arff`` and ``.csv`` files of ``folder``, by name (none if it is not a folder)."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file()),
                  key=lambda p: p.name.lower())


def describe(path: Path) -> str:
    """``yeast.arff · MULAN (labels in yeast.xml) · 2.3 MB``."""
    if path.suffix.lower() == ".csv":
        kind = "CSV"
    elif path.with_suffix(".xml").is_file():
        kind = f"MULAN (labels in {path.with_suffix('.xml').name})"
    else:
        kind = "MEKA (labels in @relation -C) or ARFF without its XML"
    return f"{path.name} · {kind} · {size_text(path.stat().st_size)}"


def size_text(n_bytes: int) -> str:
    """``2.3 MB``; below a tenth of a megabyte in kilobytes (flags' 11 kB read "0.0 MB")."""
    if n_bytes >= 100_000:
        return f"{n_bytes / 1e6:.1f} MB"
    return f"{max(round(n_bytes / 1e3), 1):,} kB"


def load(path: Path):
    """The engine's loader on one listed file (the XML beside an ARFF is read with it); a sparse
    ARFF stays sparse when that saves memory (``sparse_features.as_loaded``)."""
    from mlr_core import load_dataset

    return sparse_features.as_loaded(load_dataset(path, sparse=True))
