"""The temporary buffer of a high-level API call: the caller's ``sharedTmpBuffer`` (checked against the
documented minimum) or, in the forms without one, the space the framework reserves. The vendor's
framework takes that space from the UB left after the pipe's buffers; here it is taken right after the
current TPipe's last buffer (the top of the UB budget when the kernel has no TPipe) and recorded once as a
row of the UB plan named ``<API>.tmp``, so the plan shows it."""
from __future__ import annotations

import numpy as np

from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.events import BufferInit

U8 = np.dtype(np.uint8)


def _align32(n: int) -> int:
    return (int(n) + 31) // 32 * 32


def tmp_buffer(api: str, given: LocalTensor | None, need: int) -> LocalTensor:
    """A uint8 LocalTensor of at least ``need`` bytes for ``api``'s intermediates."""
    ctx = current()
    need = _align32(max(int(need), 32))
    if given is not None:
        have = given.count * given.dtype.itemsize
        if have < need:
            ctx.report("BAD_PARAMETER", f"{api}: sharedTmpBuffer holds {have} B, the call needs at least {need} B "
                       f"(the minimum of its Get*TmpSize helper for this shape)")
        return given.ReinterpretCast(U8)
    from toolkit.ascendc.pipe import GetTPipePtr
    pipe = GetTPipePtr()
    budget = ctx.machine.ub_budget_bytes
    addr = _align32(pipe.top) if pipe is not None else budget - need
    if addr + need > budget:
        ctx.report("UB_OVER_BUDGET", f"{api}: the framework-reserved temporary buffer ({need} B at {addr}) does not "
                   f"fit the UB budget ({budget} B); pass a sharedTmpBuffer or leave more UB free",
                   address=addr, size=need)
    event = BufferInit(f"{api}.tmp", "TBuf", "VECCALC", 1, need, addr)
    if pipe is not None:
        pipe.record(event)
    elif not any(event == e for e in getattr(ctx, "hl_tmp_rows", ())):
        ctx.hl_tmp_rows = [*getattr(ctx, "hl_tmp_rows", ()), event]
        ctx.emit(event)
    return LocalTensor(addr, U8, need, "VECCALC")


def carve(buf: LocalTensor, dtype, count: int, offset_bytes: int) -> tuple[LocalTensor, int]:
    """A ``count``-element tensor of ``dtype`` at ``offset_bytes`` into ``buf``; the next 32 B aligned offset."""
    dt = np.dtype(dtype)
    t = LocalTensor(buf.addr + offset_bytes, dt, count, buf.position)
    return t, offset_bytes + _align32(count * dt.itemsize)
