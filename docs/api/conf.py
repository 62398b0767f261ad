"""The API reference: autodoc reads mlr_core's docstrings, numpydoc renders their sections.

Build (from the repository's root; .ci/run does the same with warnings as errors):
``python -m sphinx -W --keep-going -b html docs/api docs/api/_build``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's mlr_core

project = "MLR Studio"
extensions = ["sphinx.ext.autodoc", "numpydoc"]
exclude_patterns = ["_build"]

# The docstrings write `Name` for a cross-reference (numpydoc's convention); an unresolved one
# renders as code.
default_role = "py:obj"
autodoc_member_order = "bysource"
# autodoc's :members: documents each method once; numpydoc's own member tables would repeat them.
numpydoc_show_class_members = False
