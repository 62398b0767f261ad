"""Run the dashboard headless on a free local port and open Debian's Chromium on it.

For scripted browsers: the browser tests (tests/e2e/conftest.py) and the first-paint benchmark
(benchmarks/bench_dashboard.py) both start the app through here, the way a user's shell would.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = Path(__file__).resolve().with_name("streamlit_app.py")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

#: Records, in the page, every exception element and every "unexpected error" message that
#: appears, however briefly (a rerun may replace it before a test looks).
WATCH_ERRORS = """
window.__mlrErrors = [];
new MutationObserver(() => {
  const seen = [...document.querySelectorAll('[data-testid=stException]')]
    .concat([...document.querySelectorAll('[data-testid=stAlertContentError]')]
      .filter(e => e.innerText.includes('Something went wrong')));
  for (const e of seen) {
    const text = e.innerText.slice(0, 400);
    if (!window.__mlrErrors.includes(text)) window.__mlrErrors.push(text);
  }
}).observe(document, {childList: true, subtree: true});
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(log_path: Path, app: Path = APP,
                 app_args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """``streamlit run`` the dashboard (or ``app``) headless, from the repository root (its
    ``.streamlit/config.toml`` applies), with ``app_args`` after ``--`` (e.g. ``--data-dir``);
    output goes to a file (a PIPE could fill up)."""
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless=true", f"--server.port={port}", "--server.address=127.0.0.1",
        "--server.fileWatcherType=none", "--browser.gatherUsageStats=false",
        *(["--", *app_args] if app_args else []),
    ]
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    return process, f"http://127.0.0.1:{port}"


def wait_healthy(process: subprocess.Popen, url: str, log_path: Path, timeout: float = 60) -> None:
    """Poll ``/_stcore/health`` until the server answers ``ok``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited early:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"streamlit not healthy after {timeout} s:\n{log_path.read_text()}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
