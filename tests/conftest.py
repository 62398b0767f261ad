"""Shared test helpers: where the real benchmark datasets live.

The five datasets of the paper are not in this repository (they are not ours to redistribute); they
sit in ``../shared/datasets`` beside the repository root. Tests that need them take the
``shared_datasets_dir`` fixture (the folder) or ``real_datasets`` (the five, loaded once per
session). When that folder is absent they fail, saying where the files were looked for: CI has
them, so a missing folder is a broken setup, not a reason to pass. Set
``MLR_SKIP_REAL_DATASETS=1`` to skip those tests on a machine without the data.
"""

import os
from pathlib import Path

import pytest

from mlr_core.data.loaders import Dataset, load_dataset

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPO_ROOT.parent / "shared" / "datasets"
REAL_DATASETS = ("yeast", "emotions", "flags", "cal500", "genbase")


@pytest.fixture(scope="session")
def shared_datasets_dir() -> Path:
    """The folder of the real datasets (yeast.arff, yeast.xml, ...)."""
    if not SHARED_DATASETS.is_dir():
        message = (f"real datasets not found at {SHARED_DATASETS} (expected ../shared/datasets "
                   "beside the repository root; MLR_SKIP_REAL_DATASETS=1 skips these tests)")
        if os.environ.get("MLR_SKIP_REAL_DATASETS") == "1":
            pytest.skip(message)
        pytest.fail(message)
    return SHARED_DATASETS


@pytest.fixture(scope="session")
def real_datasets(shared_datasets_dir) -> dict[str, Dataset]:
    """The paper's five datasets by name, loaded once and shared: tests must not modify them."""
    return {name: load_dataset(shared_datasets_dir / f"{name}.arff") for name in REAL_DATASETS}
