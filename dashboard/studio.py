"""MLR Studio's pages: the script the server (``streamlit_app.py``) runs for every tab and rerun.

Sets the page up, does the Step the user asked for, runs the chosen page, then draws the shared
training controls in the sidebar (after the page, so they show a dataset the page just loaded;
their callbacks run before any page). Every part runs shielded: an error shows a short message,
the session and the sidebar stay. Once the page is drawn, the engine's kernels are loaded in the
background (see ``warmup.py``).
"""

import sys
from pathlib import Path

# Streamlit puts this script's folder on sys.path, not the repository's root: put the root
# first so that ``dashboard`` and ``mlr_core`` are this checkout's, installed or not.
ROOT = str(Path(__file__).resolve().parents[1])
if sys.path[:1] != [ROOT]:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from dashboard.page_registry import PAGES  # noqa: E402

# A local icon: Streamlit fetches material-symbol favicons from the internet.
st.set_page_config(page_title="MLR Studio", page_icon=str(Path(__file__).with_name("icon.svg")),
                   layout="wide")
page = st.navigation([st.Page(p.path, title=p.title, icon=p.icon, default=p is PAGES[0])
                      for p in PAGES])
# Say something at once: a run that comes before the server has imported the pages' modules
# (``streamlit_app.py``) imports them itself, a second or more on a busy machine.
loading = st.empty()
loading.caption(":material/hourglass_top: Loading MLR Studio...")
from dashboard import sharing, ui, warmup  # noqa: E402

loading.empty()
# While this run lasts, other tabs' live ticks wait to start (see sharing.py).
with sharing.click(st.session_state), ui.shielded("opening the session"):
    session = ui.session()
    ui.run_pending_steps(session)
    with ui.shielded("drawing this page"):
        page.run()
    ui.sidebar(session)
warmup.start()
