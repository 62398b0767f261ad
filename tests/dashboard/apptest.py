"""The app under Streamlit's AppTest, as every dashboard test file starts it."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "studio.py")

TIMEOUT = 900
"""Seconds one script run may take before AppTest calls it hung: a bound for a run that never
ends, not a speed. A run may compile the engine (a fresh numba cache) or compact and audit a
model, and the suite must pass on a 2-core machine that runs other work (one such run took over
120 s beside two other test suites)."""


def started() -> AppTest:
    """The app's first run."""
    return AppTest.from_file(APP, default_timeout=TIMEOUT).run()


def shown(markdown: str) -> str:
    """What a Markdown element's text shows: its backslash escapes resolved (the app escapes
    names from the data and error messages: ``dashboard.markdown_text.literal``)."""
    return re.sub(r"\\(.)", r"\1", markdown)
