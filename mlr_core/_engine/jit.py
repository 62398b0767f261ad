"""numba's ``njit`` with an on-disk cache that is safe across edits and upgrades.

numba keys a cached kernel on its own file only: after an edit to a kernel it inlines from another
module, the stale machine code would still be loaded. So the cache lives in a folder named after
a hash of every module of this engine package, of any other module of ``mlr_core`` that
compiles with this one, and of the kernels' `Config` fields (declared in ``mlr_core/params.py``:
compiled code reads a field by its position); any change to one of them starts a fresh folder.
The cache keeps the dashboard from paying the compile time (about a minute) on every start.
"""

import hashlib
import shutil
from pathlib import Path

import numba

from mlr_core.params import ENGINE_FIELDS

_HERE = Path(__file__).parent
_PACKAGE = _HERE.parent


def _compiled_sources() -> list[bytes]:
    """The sources the compiled kernels come from: all of ``_engine/`` and any other module of
    the package that imports this one."""
    sources = []
    for path in sorted(_PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if path.parent == _HERE or b"_engine.jit" in text:
            sources.append(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + text)
    return sources


_DIGEST = hashlib.sha1(
    b"".join(_compiled_sources()) + " ".join(ENGINE_FIELDS).encode() + numba.__version__.encode()
).hexdigest()[:16]
_CACHE = _HERE / "__pycache__" / f"numba-{_DIGEST}"
numba.config.CACHE_DIR = str(_CACHE)
# Folders of earlier sources can never be loaded again: drop them so edits and upgrades do not
# pile up compiled code.
for _stale in _CACHE.parent.glob("numba-*"):
    if _stale != _CACHE:
        shutil.rmtree(_stale, ignore_errors=True)


def njit(*args, **kwargs):
    """``numba.njit`` with ``cache=True`` and ``nogil=True``: a kernel never touches a Python
    object, so it lets go of the interpreter's lock, and one dashboard tab's training leaves
    the other tabs' pages free to answer."""
    return numba.njit(*args, cache=True, nogil=True, **kwargs)
