"""numba's ``njit`` with an on-disk cache that is safe across edits and upgrades.

numba keys a cached kernel on its own file only: after an edit to a kernel it inlines from another
module, the stale machine code would still be loaded. So the cache lives in a folder named after
a hash of every compiled module of this package (those that import this one); any change to one
of them starts a fresh folder. The cache keeps the
dashboard from paying the compile time (about a minute) on every start.
"""

import hashlib
import shutil
from pathlib import Path

import numba

_HERE = Path(__file__).parent
_SOURCES = [p.read_bytes() for p in sorted(_HERE.glob("*.py"))]
_DIGEST = hashlib.sha1(
    b"".join(s for s in _SOURCES if b"mlr_core.jit" in s) + numba.__version__.encode()
).hexdigest()[:16]
_CACHE = _HERE / "__pycache__" / f"numba-{_DIGEST}"
numba.config.CACHE_DIR = str(_CACHE)
# Folders of earlier sources can never be loaded again: drop them so edits and upgrades do not
# pile up compiled code.
for _stale in _CACHE.parent.glob("numba-*"):
    if _stale != _CACHE:
        shutil.rmtree(_stale, ignore_errors=True)


def njit(*args, **kwargs):
    """``numba.njit`` with ``cache=True``."""
    return numba.njit(*args, cache=True, **kwargs)
