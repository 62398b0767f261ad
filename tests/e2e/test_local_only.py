"""Local by default: the dashboard started as the README says (the repository's
``.streamlit/config.toml`` deciding, no address on the command line) listens on loopback only,
and the server process itself asks no other host for anything while it starts and serves a page
(Streamlit looks up its external IP on the internet unless ``server.address`` is set).

The server runs under an audit hook (PEP 578) that logs every name lookup, bind, connect and
sendto the process makes through Python's socket module, so a request is seen even when it would
fail at once (no network here); psutil lists the sockets the process holds.
"""

import inspect
import json
import subprocess
import sys

import psutil
import pytest

from dashboard.headless import APP, ROOT, free_port, stop, wait_healthy

pytestmark = pytest.mark.e2e
FIRST_RUN_MS = 180_000  # the first run may compile the engine's kernels, as in conftest.py

def is_local(host) -> bool:
    """Whether a host name or address is this machine's loopback (None: a Unix socket)."""
    import ipaddress

    if host in (None, "", "localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:  # a name other than localhost
        return False


#: Runs ``streamlit`` (argv[2:]) under an audit hook that writes each name lookup, bind, connect
#: and sendto to argv[1] as [event, host, non-local], and refuses (raises) the non-local lookups
#: and sends, so that even a server that regressed sends nothing off the machine.
AUDITED = inspect.getsource(is_local) + r"""
import json, runpy, sys

log = open(sys.argv.pop(1), "a", buffering=1)
EVENTS = {"socket.bind", "socket.connect", "socket.sendto", "socket.getaddrinfo",
          "socket.gethostbyname", "socket.gethostbyname_ex", "socket.gethostbyaddr"}

def audit(event, args):
    if event not in EVENTS:
        return
    if event in ("socket.bind", "socket.connect", "socket.sendto"):
        address = args[-1]
        host = address[0] if isinstance(address, tuple) else None  # None: a Unix socket
    else:
        host = args[0]
    host = None if host is None else str(host)
    log.write(json.dumps([event, host, not is_local(host)]) + "\n")
    if not is_local(host) and event != "socket.bind":  # a bind sends nothing
        raise PermissionError(f"the test's audit hook refused {event} to {host}")

sys.addaudithook(audit)
sys.argv = ["streamlit", *sys.argv[1:]]
runpy.run_module("streamlit", run_name="__main__")
"""


@pytest.fixture(scope="module")
def readme_server(tmp_path_factory):
    """``streamlit run`` with only a port: what the README's command does, audited."""
    folder = tmp_path_factory.mktemp("local_only")
    events, log_path = folder / "network.jsonl", folder / "server.log"
    port = free_port()
    command = [sys.executable, "-c", AUDITED, str(events), "run", str(APP),
               f"--server.port={port}"]
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(process, f"http://localhost:{port}", log_path)
        yield process, f"http://localhost:{port}", events, log_path
    finally:
        stop(process)


def test_server_listens_on_loopback_only(readme_server):
    process, _, _, log_path = readme_server
    listening = [c.laddr for c in psutil.Process(process.pid).net_connections(kind="inet")
                 if c.status == psutil.CONN_LISTEN]
    assert listening, "the server listens on no socket"
    assert all(is_local(address.ip) for address in listening), listening
    assert "Network URL" not in log_path.read_text()


def test_server_asks_no_other_host_while_starting_and_serving_a_page(readme_server, other_tab):
    process, url, events, log_path = readme_server
    page = other_tab(url)  # an offline tab: the fixture fails the test if the page asks others
    page.get_by_test_id("stMetric").first.wait_for(timeout=FIRST_RUN_MS)  # the app ran
    connections = psutil.Process(process.pid).net_connections(kind="inet")
    assert all(is_local(c.raddr.ip) for c in connections if c.raddr), connections
    seen = [json.loads(line) for line in events.read_text().splitlines()]
    assert ["socket.bind", "localhost", False] in seen  # the hook saw the server's own socket
    assert [(event, host) for event, host, non_local in seen if non_local] == []
    assert "External URL" not in log_path.read_text()
