"""An optional per-step clock inside the compiled cycle (``benchmarks/profile_fit.py`` reads it).

Profilers that sample Python stacks (py-spy, pyinstrument) see a compiled kernel as one opaque
frame, so the cycle can count CPU cycles per step itself: ``clock`` is None in normal training,
where `lap` compiles to nothing (numba specialises it on the None type), or an int64 array with
one counter per step (the `STEPS` below) that each `lap` adds the cycles since the last one to.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

STEPS = ("matching", "covering", "update", "ga", "subsumption", "deletion")
MATCHING, COVERING, UPDATE, GA, SUBSUMPTION, DELETION = range(len(STEPS))


def new_clock() -> np.ndarray:
    return np.zeros(len(STEPS), dtype=np.int64)


@intrinsic
def _cycles(typingctx):
    """The CPU's cycle counter (LLVM's readcyclecounter: rdtsc on x86)."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return types.int64(), codegen


def lap(clock, step, since):
    """Add the cycles since ``since`` to ``clock[step]``; return the time now (a no-op that
    returns ``since`` when ``clock`` is None). Compiled code only."""
    raise NotImplementedError("lap runs inside compiled kernels only")


@overload(lap)
def _lap(clock, step, since):
    if isinstance(clock, types.NoneType):
        return lambda clock, step, since: since

    def impl(clock, step, since):
        now = _cycles()
        clock[step] += now - since
        return now

    return impl


def start(clock):
    """The time now, or 0 when ``clock`` is None. Compiled code only."""
    raise NotImplementedError("start runs inside compiled kernels only")


@overload(start)
def _start(clock):
    if isinstance(clock, types.NoneType):
        return lambda clock: 0
    return lambda clock: _cycles()

