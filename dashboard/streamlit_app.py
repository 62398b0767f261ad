"""MLR Studio's server: ``streamlit run dashboard/streamlit_app.py``.

``streamlit run`` finds `app` below and serves the pages' script, ``studio.py``, with it. What
this adds to serving that script directly: as soon as the server starts, a thread imports the
modules the first page needs (pandas, scipy.sparse and the dashboard's own: 0.55 s of a new
server's 0.73 s first run on an idle 2-core machine), then makes the Train page's charts as they
stand before training (the same for every tab: ``pages.blank_train_charts``), while the first
browser is still loading Streamlit's scripts. Without it the first tab waited for them, with a
second or more of "Loading MLR Studio..." on a busy machine (``benchmarks/under_load.py``,
docs/classroom.md).
"""

import inspect
import logging
import sys
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st

ROOT = str(Path(__file__).resolve().parents[1])
log = logging.getLogger(__name__)

#: The interpreter's switch interval (s) while the startup thread imports. Meanwhile the first
#: browser loads Streamlit's scripts, and the server's event loop needs the interpreter's lock
#: back after each read and write of them; a thread that waits for it gets it after the switch
#: interval (5 ms by default), and each such wait counted. Six launches of each under load 4 on
#: 2 cores, alternated (``benchmarks/under_load.py``'s setup; docs/classroom.md): the first
#: content 4.07 -> 3.65 s after launch (medians), the first chart 6.79 -> 6.65 s. Only while
#: importing: with 0.5 ms for the whole server's life, six tabs following the teacher
#: (``classroom.py --teacher``) had worst clicks of 4.5, 1.5 and 4.8 s in three runs, against
#: 1.7-3.8 s in four without; no gain there, and a training tab's threads switch more.
IMPORTING_SWITCH_S = 0.0005


def import_pages() -> None:
    """Import what a new server's first run of ``studio.py`` imports (the Train page's modules;
    not the engine's kernels, which ``warmup.py`` loads once a page is drawn) and make what it
    makes first: the Train page's blank charts (plotly loads a trace's or a property's code the
    first time a figure uses it; 0.14 s of an idle AppTest's first run). A failure is
    only logged: the script's own imports then fail where the page shows it. A tab's run may
    import the same modules meanwhile: Python locks each module while it loads, and two threads
    can only deadlock on an import cycle, which the dashboard's and the engine's modules have
    none of (a module-level cycle would need the same care)."""
    if sys.path[:1] != [ROOT]:  # first, as studio.py puts it: this checkout's, installed or not
        sys.path.insert(0, ROOT)
    default = sys.getswitchinterval()
    sys.setswitchinterval(IMPORTING_SWITCH_S)
    try:
        from PIL import Image  # noqa: F401  (Streamlit's, for the page's icon)

        from dashboard import choices, pages, sharing, state, ui, warmup  # noqa: F401

        pages.blank_train_charts(False)  # the first page's charts: plotly loads what they use
        # A process's first Streamlit element asks whether it runs in a REPL, by inspect.stack()
        # (streamlit/env_util.py, is_repl), which maps every loaded module to its file the first
        # time: 0.055 s in an idle process, 42 of the 46 py-spy samples of a server's first run.
        # Made here, the map is there when the first tab's run asks.
        inspect.stack()
    except Exception:
        log.exception("importing the pages' modules at startup failed")
    finally:
        sys.setswitchinterval(default)


@asynccontextmanager
async def _lifespan(_app):
    threading.Thread(target=import_pages, name="mlr-import-pages", daemon=True).start()
    yield


app = st.App("studio.py", lifespan=_lifespan)
