"""Shared test helpers: where the real benchmark datasets live.

The five datasets of the paper are not in this repository (they are not ours to redistribute); they
sit in ``../shared/datasets`` beside the repository root. Tests that need them take the
``shared_datasets_dir`` fixture and are skipped, with a message saying where the files were
looked for, when that folder is absent.
"""

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPO_ROOT.parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def shared_datasets_dir() -> Path:
    """The folder of the real datasets (yeast.arff, yeast.xml, ...); skips the test if absent."""
    if not SHARED_DATASETS.is_dir():
        pytest.skip(
            f"real datasets not found at {SHARED_DATASETS} (expected ../shared/datasets beside "
            "the repository root)"
        )
    return SHARED_DATASETS
