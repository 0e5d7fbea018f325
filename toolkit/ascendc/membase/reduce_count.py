"""MemBase ``ReduceMax`` / ``ReduceSum`` count forms with a work tensor, as the library runs them on
dav-3510 (softmax spec 5.0: asc-devkit ``kernel_operator_vec_reduce_impl.h`` for 3510).

``ReduceMax(dst, src, sharedTmp, count, calIndex=false)`` is one VF (``ReduceNoIndexTemplate``):
``acc = Duplicate(lowest finite)``; per VL chunk ``mask = UpdateMask(count)``, a post-increment load,
``tmp = Max(acc, x, mask)``, ``acc = Select(tmp, acc, mask)``; then ``ReduceMax(acc, fullMask)`` and one
unaligned store of lane 0 to ``dst[0]``. The work tensor is not touched.

``ReduceSum(dst, src, sharedTmp, count)`` for ``4*64 < count <= 64*64`` (float) is one VF
(``ReduceSumCounterMode``): pass 1 stores one tree sum per VL chunk to ``sharedTmp[j]`` (StoreUnAlign),
a VEC_STORE -> VEC_LOAD barrier, pass 2 tree-sums those partials into ``dst[0]``. The scalar side then
takes a V_S event id from the TPipe, sets and waits it, and reads ``dst[0]``.

Cross-lane reductions use the RegBase ones (``regbase.reduce.reduce_lanes``: adjacent-pair tree).
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.numerics import elementwise
from toolkit.ascendc.regbase.reduce import reduce_lanes
from toolkit.ascendc.regbase.types import ReduceType
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import ITER, PIPE_S, PIPE_V, VLOOP, ScalarOp, Sync

from .elementwise import MemBaseApi, type_name
from .vfstream import _Ids, emit

F32 = np.dtype(np.float32)
LANES = 64                                   # float lanes per VL (256 B)
SUM_MIN_COUNT, SUM_MAX_COUNT = 4 * LANES, LANES * LANES
LOWEST = np.array(0xFF7FFFFF, dtype=np.uint32).view(np.float32)   # -FLT_MAX, the ReduceMax seed
V_S_EVENT_ID = 0          #: the id the TPipe hands out for V_S (the only one in use; softmax spec open question 4)
_MEMBAR = ("RV_MEMBAR", -1, (), "VST_VLD")   # LocalMemBar<VEC_STORE, VEC_LOAD>, as regbase records it


def _chunk_loop(ids: _Ids, out: list, count: int, body) -> None:
    """``for (uint16_t i = 0; i < ceil(count/64); ++i) { mask = UpdateMask(count); x = load; body }``."""
    trips = -(-count // LANES)
    out.append((VLOOP, -1, (), trips))
    rem = count
    for _ in range(trips):
        out.append((ITER, -1, (), 1))
        p = ids()
        out.append(("RV_PLT", p, (), rem))
        rem = max(rem - LANES, 0)
        x = ids()
        out.append(("RV_VLD", x, (), "NORM"))
        body(p, x)


@functools.lru_cache(maxsize=256)
def _max_stream(count: int, b8_pset: bool) -> list:
    ids, out = _Ids(), []
    full = ids()
    out.append(("RV_PSET", full, (), 4))
    dup_mask = full
    if b8_pset:
        dup_mask = ids()
        out.append(("RV_PSET", dup_mask, (), 1))
    acc = [ids()]
    out.append(("RV_VDUP", acc[0], (dup_mask,), None))

    def body(p: int, x: int) -> None:
        t, a = ids(), ids()
        out.append(("RV_VMAX", t, (acc[0], x, p), None))
        out.append(("RV_VSEL", a, (t, acc[0], p), None))
        acc[0] = a

    _chunk_loop(ids, out, count, body)
    r, u, u2 = ids(), ids(), ids()
    out.append(("RV_VCMAX", r, (acc[0], full), None))
    out.append(("RV_VSTUI", u2, (r, u), 4))
    out.append(("RV_VSTAS", -1, (u2,), None))
    return out


def reduce_max_stream(count: int, machine) -> list:
    """The instruction records of ``ReduceNoIndexTemplate<MAX, float>`` over ``count`` elements."""
    return _max_stream(count, machine.params["numerics"]["unmasked_implicit_pset"] == "b8")


@functools.lru_cache(maxsize=256)
def reduce_sum_stream(count: int) -> list:
    """The instruction records of ``ReduceSumCounterMode<float>`` over ``count`` elements."""
    ids, out = _Ids(), []
    for n in (count, -(-count // LANES)):            # pass 1 over src, pass 2 over the partials
        u = [ids()]

        def body(p: int, x: int) -> None:
            r, u2 = ids(), ids()
            out.append(("RV_VCADD", r, (x, p), None))
            out.append(("RV_VSTUI", u2, (r, u[0]), 4))
            u[0] = u2

        _chunk_loop(ids, out, n, body)
        out.append(("RV_VSTAS", -1, (u[0],), None))
        if n == count:
            out.append(_MEMBAR)
    return out


def _read_chunks(ctx, api: str, t: LocalTensor, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Values (chunks x 64) and per-element definedness of ``count`` floats loaded VL by VL."""
    trips = -(-count // LANES)
    nbytes = trips * LANES * 4
    ctx.ub.check(t.addr, nbytes, api, 32)
    if ctx.dry_run:
        return np.zeros((trips, LANES), F32), np.ones((trips, LANES), bool)
    raw = ctx.ub.data[t.addr:t.addr + nbytes]
    d = ctx.ub.defined[t.addr:t.addr + nbytes].reshape(-1, 4).all(axis=1)
    active = np.arange(trips * LANES) < count
    return raw.view(F32).reshape(trips, LANES), (d | ~active).reshape(trips, LANES)


def _store(ctx, api: str, addr: int, values: np.ndarray, defined: np.ndarray) -> None:
    n = values.size * 4
    ctx.ub.check(addr, n, api, 4)
    if not ctx.dry_run:
        raw = np.ascontiguousarray(values, dtype=F32).view(np.uint8)
        ctx.ub.write(addr, raw, np.repeat(defined, 4))


def _check(ctx, api: str, dst: LocalTensor, src: LocalTensor, count: int) -> None:
    if src.dtype != F32 or dst.dtype != F32:
        raise NotImplementedError(f"{api} count form: only float is modelled (got {type_name(src.dtype)})")
    if count <= 0:
        ctx.report("BAD_PARAMETER", f"{api}: count {count} must be positive")


def _reduce_max(dst: LocalTensor, src: LocalTensor, sharedTmpBuffer: LocalTensor, count: Any,
                calIndex: bool = False) -> None:
    """``ReduceMax<float>(dst, src, sharedTmpBuffer, count, calIndex = false)``: dst[0] = max (VCMAX)."""
    api, ctx = "ReduceMax", current()
    count = int(scalar_value(count))
    _check(ctx, api, dst, src, count)
    if calIndex:
        raise NotImplementedError("ReduceMax with calIndex = true (value and index) is not modelled")
    x, d = _read_chunks(ctx, api, src, count)
    active = (np.arange(x.size) < count).reshape(x.shape)
    acc = np.full(LANES, LOWEST, F32)
    vmax = elementwise("max", F32)
    for j in range(x.shape[0]):
        acc = np.where(active[j], vmax(acc, x[j]), acc)
    value, _ = reduce_lanes(ReduceType.MAX, acc, np.ones(LANES, bool))
    _store(ctx, api, dst.addr, np.array([value], F32), np.array([bool(d.all())]))
    emit(ctx, api, 4, reduce_max_stream(count, ctx.machine), {"dtype": "float", "form": "count", "count": count})


def _reduce_sum(dst: LocalTensor, src: LocalTensor, sharedTmpBuffer: LocalTensor, count: Any) -> None:
    """``ReduceSum<float>(dst, src, sharedTmpBuffer, count)``: chunk sums to sharedTmpBuffer, their sum
    to dst[0]; then the library's V_S flag pair and scalar read of dst[0]."""
    api, ctx = "ReduceSum", current()
    count = int(scalar_value(count))
    _check(ctx, api, dst, src, count)
    if not SUM_MIN_COUNT < count <= SUM_MAX_COUNT:
        raise NotImplementedError(f"ReduceSum count form: only {SUM_MIN_COUNT} < count <= {SUM_MAX_COUNT} "
                                  f"(one VF, ReduceSumCounterMode) is modelled, got {count}")
    if not ctx.pipes:
        ctx.report("BAD_PARAMETER", "ReduceSum needs a TPipe on the core: the library takes its V_S event id "
                   "from it (a LocalTensor on a raw address crashes it on hardware, error 507035)")
    x, d = _read_chunks(ctx, api, src, count)
    active = (np.arange(x.size) < count).reshape(x.shape)
    partial = reduce_lanes(ReduceType.SUM, x, active)[0]          # one tree sum per chunk (row)
    pdef = d.all(axis=1)
    _store(ctx, api, sharedTmpBuffer.addr, partial, pdef)
    ctx.ub.check(sharedTmpBuffer.addr, LANES * 4, api, 32)        # pass 2 loads one whole VL of partials
    lanes = np.zeros(LANES, F32)
    lanes[:partial.size] = partial
    total, _ = reduce_lanes(ReduceType.SUM, lanes, np.arange(LANES) < partial.size)
    _store(ctx, api, dst.addr, np.array([total], F32), np.array([bool(pdef.all())]))
    emit(ctx, api, 4, reduce_sum_stream(count), {"dtype": "float", "form": "count", "count": count})
    ctx.emit(Sync(PIPE_V, PIPE_S, V_S_EVENT_ID, "set"))
    ctx.emit(Sync(PIPE_V, PIPE_S, V_S_EVENT_ID, "wait"))
    if not ctx.dry_run:
        ctx.ub.require_defined(dst.addr, 4, "ReduceSum (the library's scalar read of dst[0])")
    ctx.emit(ScalarOp("ub_read", 4, kernel_frame()))


ReduceMax = MemBaseApi(_reduce_max, "ReduceMax", batchable=False)      # reads UB per core (not on rows)
ReduceSum = MemBaseApi(_reduce_sum, "ReduceSum", batchable=False)
