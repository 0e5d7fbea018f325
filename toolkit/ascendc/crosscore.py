"""Synchronisation between the cores of one launch: SyncAll (hardware and software forms),
CrossCoreSetFlag / CrossCoreWaitFlag, IBSet / IBWait, and the deterministic order of
InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock.

A core that must wait for others asks the launch's runner (``ctx.cross``: toolkit.engine.lockstep, in
lock-step and in the serial run alike) to park it until its condition holds; the signals are counters in
the launch's shared state. The GM workspaces the vendor implementation polls are checked for their
documented sizes but not written: the emulator synchronises the cores itself (assumed: no kernel reads the
flag words back). Cross-core waiting time is not in the per-core cycle model; a core's own pipes drain
as a barrier (recorded as PipeBarrier ALL, or the pipe edge the API names).
"""
from __future__ import annotations

from typing import Any, Callable

from toolkit.ascendc.regbase.template import TArgs, template
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import PIPE_S, Sync, shared
from toolkit.record.events import PipeBarrier as PipeBarrierEvent

from .dtypes import scalar_value
from .sync import _PIPES, PipeType, pipe_name
from .tvalues import value_template

#: flag ids of CrossCoreSetFlag modes 0-2 (the low 4 bits count)
CROSS_FLAGS = 16


class _Launch:
    """The signals of one launch: per key, how often each core signalled and waited."""

    def __init__(self, block_num: int):
        self.block_num = block_num
        self.sets: dict[Any, list[int]] = {}
        self.waits: dict[Any, list[int]] = {}

    def count(self, table: dict, key: Any) -> list[int]:
        got = table.get(key)
        if got is None:
            got = table[key] = [0] * self.block_num
        return got


def _launch(ctx) -> _Launch:
    got = ctx.shared.get("cross_core")
    if got is None:
        got = ctx.shared["cross_core"] = _Launch(ctx.block_num)
    return got


def _wait(ctx, cond: Callable[[], bool], what: str) -> None:
    if cond():
        return
    if ctx.cross is None:
        ctx.report("CROSS_CORE_DEADLOCK", f"{what}: no other core of this launch can signal it")
    ctx.cross.wait(ctx, cond, what, kernel_frame())


def barrier(ctx, key: Any, cores: range, what: str) -> None:
    """The calling core signals ``key`` and waits until every core of ``cores`` signalled it as often."""
    st = _launch(ctx)
    sets = st.count(st.sets, key)
    sets[ctx.core_id] += 1
    n = sets[ctx.core_id]
    _wait(ctx, lambda: all(sets[c] >= n for c in cores), what)


def _check_bytes(ctx, what: str, tensor: Any, need: int) -> None:
    have = tensor.GetSize() * tensor.dtype.itemsize
    if have < need:
        ctx.report("BAD_PARAMETER", f"{what}: workspace of {have} B, needs at least {need} B")


# -- SyncAll ------------------------------------------------------------------------------------------
@template
def SyncAll(t: TArgs, gm_workspace: Any = None, ub_workspace: Any = None, used_cores: Any = 0) -> None:
    """``SyncAll()`` (hardware) or ``SyncAll(gmWorkspace, ubWorkspace, usedCores = 0)`` (software):
    every core (the first ``usedCores`` of the software form, 0: all) waits until all have arrived."""
    ctx = current()
    n = ctx.block_num
    if gm_workspace is not None:
        used = int(scalar_value(used_cores)) or n
        if not 0 < used <= n or ctx.core_id >= used:
            ctx.report("BAD_PARAMETER", f"SyncAll: usedCores {used} with {n} cores (core {ctx.core_id} calls it)")
        _check_bytes(ctx, "SyncAll gmWorkspace", gm_workspace, n * 32)
        _check_bytes(ctx, "SyncAll ubWorkspace", ub_workspace, n * 32)
        cores, key = range(used), ("SyncAll", "soft", used)
    else:
        cores, key = range(n), ("SyncAll", "hard")
    ctx.emit(shared(PipeBarrierEvent, "ALL"))
    barrier(ctx, key, cores, "SyncAll")


# -- CrossCoreSetFlag / CrossCoreWaitFlag ---------------------------------------------------------------
def _cross_args(targs: tuple, api: str, default_pipe: PipeType | None) -> tuple[int, str]:
    mode = next((a for a in targs if isinstance(a, int) and not isinstance(a, bool)), 0)
    pipe = next((a for a in targs if isinstance(a, PipeType)), default_pipe)
    if mode not in (0, 1):
        raise TypeError(f"{api}: mode {mode} synchronises with the cube core (AIC), which is not emulated "
                        f"(modes 0 and 1 are)")
    if pipe is None or pipe is PipeType.PIPE_ALL:
        raise TypeError(f"{api}: a single pipe is needed (PIPE_V, PIPE_MTE2, PIPE_MTE3)")
    if pipe is PipeType.PIPE_S and default_pipe is None:
        raise TypeError(f"{api}: modes 0 and 1 do not take PIPE_S")
    return mode, pipe_name(pipe, api)


def _participants(ctx, mode: int) -> range:
    """Mode 0: every AIV of the launch; mode 1: the AIVs of this core's AI Core (one per block here:
    GetSubBlockNum is 1 for a vector kernel)."""
    return range(ctx.block_num) if mode == 0 else range(ctx.core_id, ctx.core_id + 1)


@value_template
def CrossCoreSetFlag(targs: tuple, flag: Any) -> None:
    """``CrossCoreSetFlag<modeId, pipe>(flagId)``: this core reports that its ``pipe`` work before the call
    is done (the flag's counter of this core goes up)."""
    mode, pipe = _cross_args(targs, "CrossCoreSetFlag", None)
    cross_set(current(), mode, pipe, flag)


def cross_set(ctx, mode: int, pipe: str, flag: Any) -> None:
    """The signal of CrossCoreSetFlag (mode 0 or 1, ``pipe`` a short pipe name): this core's counter of
    the flag goes up (the C API's arrive calls use it too)."""
    key = ("cross", mode, int(scalar_value(flag)) % CROSS_FLAGS)
    st = _launch(ctx)
    st.count(st.sets, key)[ctx.core_id] += 1
    ctx.state.setdefault("cross_pipe", {})[key] = pipe


@value_template
def CrossCoreWaitFlag(targs: tuple, flag: Any) -> None:
    """``CrossCoreWaitFlag<modeId = 0, pipe = PIPE_S>(flagId)``: the pipe waits until every participating
    core reported the flag as often as this core waited for it (counter semantics of the page)."""
    mode, pipe = _cross_args(targs, "CrossCoreWaitFlag", PipeType.PIPE_S)
    cross_wait(current(), mode, pipe, flag, f"CrossCoreWaitFlag({int(scalar_value(flag))})")


def cross_wait(ctx, mode: int, pipe: str, flag: Any, what: str) -> None:
    """The wait of CrossCoreWaitFlag: until every participating core signalled the flag as often as this
    core waited for it."""
    key = ("cross", mode, int(scalar_value(flag)) % CROSS_FLAGS)
    st = _launch(ctx)
    sets, waits = st.count(st.sets, key), st.count(st.waits, key)
    waits[ctx.core_id] += 1
    n = waits[ctx.core_id]
    cores = _participants(ctx, mode)
    src = ctx.state.get("cross_pipe", {}).get(key)
    if src is not None:
        ctx.emit(shared(Sync, _PIPES[src], _PIPES[pipe], None, "wait"))
    _wait(ctx, lambda: all(sets[c] >= n for c in cores), what)


# -- IBSet / IBWait ---------------------------------------------------------------------------------------
def _ib_key(ctx, what: str, gm: Any, ub: Any, block: Any, event: Any) -> tuple:
    b, e = int(scalar_value(block)), int(scalar_value(event))
    if not 0 <= b < ctx.block_num:
        ctx.report("BAD_PARAMETER", f"{what}: blockIdx {b} outside [0, {ctx.block_num})")
    _check_bytes(ctx, f"{what} ubWorkspace", ub, 32)
    _check_bytes(ctx, f"{what} gmWorkspace", gm, ctx.block_num * 32 * max(e, 1) + b * 32 + 32)
    return ("IB", id(gm.buf), gm.offset, b, e)


@template
def IBSet(t: TArgs, gm: Any, ub: Any, block: Any, event: Any) -> None:
    """``IBSet(gmWorkspace, ubWorkspace, blockIdx, eventID)``: the waited-for core signals (blockIdx, eventID)."""
    ctx = current()
    key = _ib_key(ctx, "IBSet", gm, ub, block, event)
    st = _launch(ctx)
    st.count(st.sets, key)[0] += 1
    ctx.emit(shared(PipeBarrierEvent, "ALL"))


@template
def IBWait(t: TArgs, gm: Any, ub: Any, block: Any, event: Any) -> None:
    """``IBWait(...)`` with IBSet's arguments: wait until that signal was given (once per wait)."""
    ctx = current()
    key = _ib_key(ctx, "IBWait", gm, ub, block, event)
    st = _launch(ctx)
    sets, waits = st.count(st.sets, key), st.count(st.waits, key)
    waits[ctx.core_id] += 1
    n = waits[ctx.core_id]
    _wait(ctx, lambda: sets[0] >= n, f"IBWait(blockIdx {int(scalar_value(block))}, event {int(scalar_value(event))})")


# -- deterministic order ----------------------------------------------------------------------------------
def _det_check(ctx, what: str, gm: Any, ub: Any) -> None:
    _check_bytes(ctx, f"{what} gmWorkspace", gm, ctx.block_num * 32)
    _check_bytes(ctx, f"{what} ubWorkspace", ub, ctx.block_num * 32 + 32)


def InitDetermineComputeWorkspace(gm: Any, ub: Any) -> None:
    """Sets up the blockIdx-ordered chain of WaitPreBlock / NotifyNextBlock (the workspace is checked)."""
    ctx = current()
    _det_check(ctx, "InitDetermineComputeWorkspace", gm, ub)
    ctx.state["determine"] = True


def _det_started(ctx, what: str) -> None:
    if not ctx.state.get("determine"):
        ctx.report("BAD_PARAMETER", f"{what} before InitDetermineComputeWorkspace")


def WaitPreBlock(gm: Any, ub: Any) -> None:
    """Core k's n-th WaitPreBlock waits for core k-1's n-th NotifyNextBlock (core 0 does not wait)."""
    ctx = current()
    _det_check(ctx, "WaitPreBlock", gm, ub)
    _det_started(ctx, "WaitPreBlock")
    st = _launch(ctx)
    sets, waits = st.count(st.sets, "determine"), st.count(st.waits, "determine")
    waits[ctx.core_id] += 1
    n, prev = waits[ctx.core_id], ctx.core_id - 1
    ctx.emit(shared(Sync, _PIPES["MTE3"], PIPE_S, None, "wait"))
    if prev >= 0:
        _wait(ctx, lambda: sets[prev] >= n, "WaitPreBlock")


def NotifyNextBlock(gm: Any, ub: Any) -> None:
    """Tells core k+1 this core is done with its current step."""
    ctx = current()
    _det_check(ctx, "NotifyNextBlock", gm, ub)
    _det_started(ctx, "NotifyNextBlock")
    st = _launch(ctx)
    st.count(st.sets, "determine")[ctx.core_id] += 1
    ctx.emit(shared(PipeBarrierEvent, "ALL"))
