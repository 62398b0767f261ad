"""The app under Streamlit's AppTest, as every dashboard test file starts it."""

from pathlib import Path

from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "streamlit_app.py")

TIMEOUT = 900
"""Seconds one script run may take before AppTest calls it hung: a bound for a run that never
ends, not a speed. A run may compile the engine (a fresh numba cache) or compact and audit a
model, and the suite must pass on a 2-core machine that runs other work (one such run took over
120 s beside two other test suites)."""


def started() -> AppTest:
    """The app's first run."""
    return AppTest.from_file(APP, default_timeout=TIMEOUT).run()


def deferred_downloads(monkeypatch) -> dict:
    """The download buttons' deferred contents, by file name, as the pages make them: each
    value makes the file's bytes when called (AppTest never presses a download)."""
    made = {}
    keep_deferred = MediaFileManager.add_deferred

    def keep(self, make, mimetype, coordinates, file_name=None, element_id=""):
        made[file_name] = make
        return keep_deferred(self, make, mimetype, coordinates, file_name=file_name,
                             element_id=element_id)

    monkeypatch.setattr(MediaFileManager, "add_deferred", keep)
    return made
