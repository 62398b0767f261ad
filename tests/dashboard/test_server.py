"""The server ``streamlit run dashboard/streamlit_app.py`` starts: an st.App that serves the pages'
script and imports the first page's modules as it starts (the browser tests serve it for real).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from apptest import APP as PAGES_SCRIPT

from dashboard import headless

#: Loads the server's module as ``streamlit run`` does (its folder on sys.path), in a new
#: interpreter: this one has imported the dashboard already, and the first st.App made in a
#: process pins Streamlit's config folder.
SERVER = """
import json, sys
from pathlib import Path
import streamlit as st
sys.path.insert(0, sys.argv[1])
import streamlit_app
before = sorted(name for name in sys.modules if name.startswith("dashboard"))
default = sys.getswitchinterval()
importing = []  # the switch interval at the startup's last step
stack = streamlit_app.inspect.stack
streamlit_app.inspect.stack = lambda: importing.append(sys.getswitchinterval()) or stack()
streamlit_app.import_pages()
streamlit_app.inspect.stack = stack
from dashboard import pages
print(json.dumps({
    "blank_charts": pages._blank_train_charts.cache_info().currsize,
    "switch": {"default": default, "importing": importing, "after": sys.getswitchinterval(),
               "set": streamlit_app.IMPORTING_SWITCH_S},
    "is_app": isinstance(streamlit_app.app, st.App),
    "script": str(Path(sys.argv[1], streamlit_app.app.script_path).resolve()),
    "dashboard_before": before,
    "dashboard_file": sys.modules["dashboard"].__file__,
    "after": [name for name in ("dashboard.ui", "dashboard.pages", "pandas", "scipy.sparse",
                                "numba", "sklearn") if name in sys.modules],
}))
"""


@pytest.fixture(scope="module")
def server() -> dict:
    return json.loads(subprocess.run(
        [sys.executable, "-c", SERVER, str(headless.APP.parent)], capture_output=True,
        text=True, check=True, cwd=headless.ROOT).stdout)


def test_the_readme_command_serves_the_pages_script_as_an_app(server):
    assert server["is_app"]
    assert server["script"] == str(Path(PAGES_SCRIPT).resolve())


def test_startup_imports_the_first_pages_modules_but_not_the_engines_kernels(server):
    assert server["dashboard_before"] == []  # in the thread the server starts, not on import
    # this checkout's, whatever else is installed (studio.py then finds it in sys.modules)
    assert server["dashboard_file"] == str(headless.APP.with_name("__init__.py"))
    # numba and scikit-learn come with the kernels' warm-up, once a page is drawn (warmup.py)
    assert server["after"] == ["dashboard.ui", "dashboard.pages", "pandas", "scipy.sparse"]
    assert server["blank_charts"] == 1  # and made the Train page's charts, as a tab finds them


def test_the_startup_imports_with_a_short_switch_interval_and_then_restores_it(server):
    switch = server["switch"]
    assert switch["set"] < switch["default"]  # the event loop gets the lock back sooner
    assert switch["importing"] == [switch["set"]]
    assert switch["after"] == switch["default"]  # the tabs' runs and training: as Python's
