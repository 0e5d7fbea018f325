"""The skeleton the element-wise activations share: inputs in float (a half or bfloat16 input is cast into
the temporary buffer first), a chain of MemBase calls on VL-multiple chunks, the result cast back.

The chunk length comes from the temporary buffer: ``nbuf`` float buffers of one chunk each (the inputs cast
to float, the chain's temporaries, the float result), so the minimum buffer is one VL (64 floats) per float
buffer and the maximum the whole count. Every numeric step is a MemBase API call (one library VF each), so
the run records what the library would: its VFs, UB traffic and the temporary buffer in the UB plan."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import type_name
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .tmpbuf import tmp_buffer

F32 = np.dtype(np.float32)
LANES = 64                       #: floats per 256 B vector


def float_buffers(dtype: np.dtype, ninputs: int, ntemps: int) -> int:
    """Float chunk buffers a chain needs: its temporaries, plus the float inputs and result of a narrow type."""
    return ntemps + (0 if np.dtype(dtype) == F32 else ninputs + 1)


def tmp_sizes(count: int, dtype: np.dtype, ninputs: int, ntemps: int) -> tuple[int, int]:
    """(max, min) bytes of the temporary buffer of a chain over ``count`` elements."""
    nbuf = float_buffers(dtype, ninputs, ntemps)
    if nbuf == 0:
        return 0, 0
    whole = -(-max(int(count), 1) // LANES) * LANES
    return nbuf * whole * 4, nbuf * LANES * 4


def run_chain(api: str, dst: LocalTensor, srcs: tuple[LocalTensor, ...], tmp: LocalTensor | None, count: int,
              ntemps: int, body: Callable, types: tuple = ("half", "float")) -> None:
    """``body(out, ins, temps, n)`` writes ``out`` (float, n elements) from the float inputs ``ins`` using the
    float temporaries ``temps``; this runs it over the whole count chunk by chunk."""
    ctx = current()
    dt = dst.dtype
    name = type_name(dt)
    if name not in types or any(s.dtype != dt for s in srcs):
        ctx.report("BAD_PARAMETER", f"{api}: element type {name} (sources {[str(s.dtype) for s in srcs]}) is not "
                   f"one of {', '.join(types)} with dst and sources alike")
    count = int(count)
    if count <= 0:
        return
    nbuf = float_buffers(dt, len(srcs), ntemps)
    _, need_min = tmp_sizes(count, dt, len(srcs), ntemps)
    buf = tmp_buffer(api, tmp, need_min) if nbuf else None
    chunk = count if nbuf == 0 else min(-(-count // LANES) * LANES,
                                        (buf.count // (nbuf * 4)) // LANES * LANES)
    floats = buf.ReinterpretCast(F32) if buf is not None else None
    narrow = dt != F32
    for start in range(0, count, chunk):
        n = min(chunk, count - start)
        bufs = [floats[k * chunk] for k in range(nbuf)] if floats is not None else []
        if narrow:
            ins = bufs[:len(srcs)]
            for f, s in zip(ins, srcs):
                MB.Cast(f, s[start], RoundMode.CAST_NONE, n)
            out, temps = bufs[len(srcs)], bufs[len(srcs) + 1:]
        else:
            ins, out, temps = [s[start] for s in srcs], dst[start], bufs
        body(out, ins, temps, n)
        if narrow:
            MB.Cast(dst[start], out, RoundMode.CAST_RINT, n)


# -- the chains (float in, float out) --------------------------------------------------------------------
GELU_K = 1.5957691216057308      #: 2 * sqrt(2 / pi)
GELU_C = 0.044715


def sigmoid_of(out, x, scale: float, n: int) -> None:
    """out = 1 / (1 + exp(-scale * x)) (out may not be x)."""
    MB.Muls(out, x, -scale, n)
    MB.Exp(out, out, n)
    MB.Adds(out, out, 1.0, n)
    MB.Reciprocal(out, out, n)


def gelu_into(out, x, t, n: int) -> None:
    """out = x / (1 + exp(-k (x + c x^3))) (tanh form of GELU)."""
    MB.Mul(t, x, x, n)
    MB.Muls(t, t, GELU_C, n)
    MB.Adds(t, t, 1.0, n)
    MB.Mul(t, t, x, n)
    MB.Muls(t, t, -GELU_K, n)
    MB.Exp(t, t, n)
    MB.Adds(t, t, 1.0, n)
    MB.Div(out, x, t, n)


def swish_into(out, x, t, beta: float, n: int) -> None:
    """out = x / (1 + exp(-beta x))."""
    MB.Muls(t, x, -float(beta), n)
    MB.Exp(t, t, n)
    MB.Adds(t, t, 1.0, n)
    MB.Div(out, x, t, n)
