"""MemBase ``ReduceMax`` / ``ReduceMin`` / ``ReduceSum`` with a work tensor: the count form and the level-0
form ``(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride[, calIndex])``, as the library runs them
on dav-3510 (softmax spec 5.0: asc-devkit ``kernel_operator_vec_reduce_impl.h`` for 3510).

``ReduceMax(dst, src, sharedTmp, count, calIndex=false)`` is one VF (``ReduceNoIndexTemplate``):
``acc = Duplicate(lowest finite)``; per VL chunk ``mask = UpdateMask(count)``, a load,
``tmp = Max(acc, x, mask)``, ``acc = Select(tmp, acc, mask)``; then ``ReduceMax(acc, fullMask)`` and one
unaligned store to ``dst[0]``. ReduceMin mirrors it (seed: the largest finite value). With calIndex the
VF also keeps the index of each lane's best (a compare and a select per chunk) and dst gets
``[value, index]``, the index being the position's bits in the element type (smallest position on ties).
The level-0 form runs the same loop over ``repeatTime`` block-strided repeats (index: repeat * lanes +
lane, assumed). The work tensor is not touched (the 950 pages: it is not needed).

``ReduceSum(dst, src, sharedTmp, count)`` (softmax spec 5.0: ``ReduceSumCounterMode`` for 256 < count <= 4096
floats): pass 1 stores one tree sum per VL chunk to ``sharedTmp[j]`` (StoreUnAlign), a VEC_STORE ->
VEC_LOAD barrier, and the next pass tree-sums those partials, until one value remains in ``dst[0]``
(assumed for other counts: as many passes as needed, one when count <= one VL). The level-0 form's first
pass is one masked tree sum per repeat. The scalar side then takes a V_S event id from the TPipe, sets and
waits it, and reads ``dst[0]``, the value GetReduceRepeatSumSpr returns.

Cross-lane reductions use the RegBase ones (``regbase.reduce.reduce_lanes``: adjacent-pair tree).
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import np_dtype, scalar_value
from toolkit.ascendc.numerics import elementwise
from toolkit.ascendc.regbase.reduce import reduce_lanes
from toolkit.ascendc.regbase.types import ReduceType
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import kernel_frame
from toolkit.record.events import ITER, PIPE_S, PIPE_V, VLOOP, ScalarOp, Sync

from .elementwise import MemBaseApi, type_name
from .level0 import BLOCK, VL, parse_mask
from .types import F16, F32, dts
from .vfstream import _Ids, emit

LANES = 64                                   # float lanes per VL (256 B)
SUM_MIN_COUNT, SUM_MAX_COUNT = 4 * LANES, LANES * LANES
LOWEST = np.array(0xFF7FFFFF, dtype=np.uint32).view(np.float32)   # -FLT_MAX, the ReduceMax seed
V_S_EVENT_ID = 0          #: the id the TPipe hands out for V_S (the only one in use; softmax spec open question 4)
_MEMBAR = ("RV_MEMBAR", -1, (), "VST_VLD")   # LocalMemBar<VEC_STORE, VEC_LOAD>, as regbase records it
_MAXMIN_TYPES = dts("int16_t uint16_t half int32_t uint32_t float int64_t uint64_t")
_SUM_TYPES = dts("half float int32_t uint32_t int64_t uint64_t")


def _seed(kind: ReduceType, dt: np.dtype):
    """The accumulator's start: the lowest (MAX) / largest (MIN) finite value of the type."""
    if dt == F32:
        return LOWEST if kind == ReduceType.MAX else -LOWEST
    if dt == F16:
        return dt.type(-65504.0 if kind == ReduceType.MAX else 65504.0)
    info = np.iinfo(dt)
    return dt.type(info.min if kind == ReduceType.MAX else info.max)


def _chunk_loop(ids: _Ids, out: list, trips: int, body, plt: tuple | None, load: str = "RV_VLD") -> None:
    """``for i < trips { [mask = UpdateMask(rem)]; x = load; body }`` (``plt``: (count, lanes) or None)."""
    out.append((VLOOP, -1, (), trips))
    rem = plt[0] if plt else 0
    for _ in range(trips):
        out.append((ITER, -1, (), 1))
        p = -1
        if plt:
            p = ids()
            out.append(("RV_PLT", p, (), rem))
            rem = max(rem - plt[1], 0)
        x = ids()
        out.append((load, x, (), "NORM" if load == "RV_VLD" else "DATA_BLOCK_COPY"))
        body(p, x)


@functools.lru_cache(maxsize=256)
def _max_stream(count: int, b8_pset: bool, kind: str = "MAX", lanes: int = LANES, index: bool = False,
                level0: int = 0) -> list:
    """The records of ReduceNoIndexTemplate (``level0``: that many block-strided repeats, else a count)."""
    vop, rop = ("RV_VMAX", "RV_VCMAX") if kind == "MAX" else ("RV_VMIN", "RV_VCMIN")
    ids, out = _Ids(), []
    full = ids()
    out.append(("RV_PSET", full, (), 4))
    dup_mask = full
    if b8_pset:
        dup_mask = ids()
        out.append(("RV_PSET", dup_mask, (), 1))
    acc = [ids()]
    out.append(("RV_VDUP", acc[0], (dup_mask,), None))
    if level0:
        m = ids()
        out.append(("RV_PMOV", m, (), None))

    def body(p: int, x: int) -> None:
        pm = p if p >= 0 else m
        t, a = ids(), ids()
        out.append((vop, t, (acc[0], x, pm), None))
        if index:
            c, s = ids(), ids()
            out.append(("RV_VCMP", c, (t, acc[0], pm), None))
            out.append(("RV_VSEL", s, (c, pm), None))
        out.append(("RV_VSEL", a, (t, acc[0], pm), None))
        acc[0] = a

    if level0:
        _chunk_loop(ids, out, level0, body, None, "RV_VSLDB")
    else:
        _chunk_loop(ids, out, -(-count // lanes), body, (count, lanes))
    r, u, u2 = ids(), ids(), ids()
    out.append((rop, r, (acc[0], full), None))
    out.append(("RV_VSTUI", u2, (r, u), 4))
    out.append(("RV_VSTAS", -1, (u2,), None))
    return out


def reduce_max_stream(count: int, machine) -> list:
    """The instruction records of ``ReduceNoIndexTemplate<MAX, float>`` over ``count`` elements."""
    return _max_stream(count, machine.params["numerics"]["unmasked_implicit_pset"] == "b8")


def _sum_passes(first: int, lanes: int) -> list[int]:
    """Element counts of the passes of a sum whose first pass reads ``first`` values (VL chunks of ``lanes``)."""
    passes = [first]
    while passes[-1] > lanes:
        passes.append(-(-passes[-1] // lanes))
    return passes


@functools.lru_cache(maxsize=256)
def reduce_sum_stream(count: int, lanes: int = LANES, level0: int = 0) -> list:
    """The instruction records of ``ReduceSumCounterMode`` over ``count`` elements (``level0``: a first
    pass of that many block-strided repeats)."""
    ids, out = _Ids(), []
    passes = ([level0] + (_sum_passes(level0, lanes) if level0 > 1 else [])) if level0 else _sum_passes(count, lanes)
    if level0:
        m = ids()
        out.append(("RV_PMOV", m, (), None))
    for k, n in enumerate(passes):
        u = [ids()]

        def body(p: int, x: int) -> None:
            r, u2 = ids(), ids()
            out.append(("RV_VCADD", r, (x, p if p >= 0 else m), None))
            out.append(("RV_VSTUI", u2, (r, u[0]), 4))
            u[0] = u2

        if level0 and k == 0:
            _chunk_loop(ids, out, n, body, None, "RV_VSLDB")
        else:
            _chunk_loop(ids, out, -(-n // lanes), body, (n, lanes))
        out.append(("RV_VSTAS", -1, (u[0],), None))
        if k + 1 < len(passes):
            out.append(_MEMBAR)
    return out


def _read(ctx, api: str, t: LocalTensor, nbytes: int) -> tuple[np.ndarray, np.ndarray]:
    ctx.ub.check(t.addr, nbytes, api, 32)
    if ctx.dry_run:
        return np.zeros(nbytes, np.uint8), np.ones(nbytes, bool)
    return ctx.ub.data[t.addr:t.addr + nbytes], ctx.ub.defined[t.addr:t.addr + nbytes]


def _read_chunks(ctx, api: str, t: LocalTensor, count: int, lanes: int = LANES) -> tuple[np.ndarray, np.ndarray]:
    """Values (chunks x lanes) and per-element definedness of ``count`` elements loaded VL by VL."""
    trips = -(-count // lanes)
    w = t.dtype.itemsize
    raw, dd = _read(ctx, api, t, trips * lanes * w)
    d = dd.reshape(-1, w).all(axis=1)
    active = np.arange(trips * lanes) < count
    return raw.view(t.dtype).reshape(trips, lanes), (d | ~active).reshape(trips, lanes)


def _read_repeats(ctx, api: str, t: LocalTensor, repeat: int, srep: int, m) -> tuple[np.ndarray, np.ndarray]:
    """Values (repeats x lanes, inactive lanes whatever) and per-lane definedness (inactive: True) of
    ``repeat`` level-0 repeats with block stride 1."""
    w = t.dtype.itemsize
    lanes = VL // w
    span = ((repeat - 1) * srep * BLOCK + VL) if repeat else 0
    raw, dd = _read(ctx, api, t, span)
    x = np.zeros((repeat, lanes), t.dtype)
    d = np.ones((repeat, lanes), bool)
    for r in range(repeat):
        o = r * srep * BLOCK
        x[r] = raw[o:o + VL].view(t.dtype)
        d[r] = dd[o:o + VL].reshape(-1, w).all(axis=1) | ~m.active
    return x, d


def _store(ctx, api: str, addr: int, values: np.ndarray, defined: np.ndarray) -> None:
    w = values.dtype.itemsize
    n = values.size * w
    ctx.ub.check(addr, n, api, w)
    if not ctx.dry_run:
        raw = np.ascontiguousarray(values).view(np.uint8)
        ctx.ub.write(addr, raw, np.repeat(defined, w))


def _count_of(ctx, api: str, count: Any) -> int:
    n = int(scalar_value(count))
    if n <= 0:
        ctx.report("BAD_PARAMETER", f"{api}: count {n} must be positive")
    return n


def _level0_args(ctx, api: str, src: LocalTensor, mask: Any, repeatTime: Any, srcRepStride: Any):
    repeat, srep = int(scalar_value(repeatTime)), int(scalar_value(srcRepStride))
    if repeat < 0 or not 0 <= srep <= 0xFFFF:
        ctx.report("BAD_PARAMETER", f"{api}: repeatTime {repeat} / srcRepStride {srep} out of range")
    return repeat, srep, parse_mask(ctx, api, mask, VL // src.dtype.itemsize)


def _maxmin(kind: ReduceType, api: str):
    def fn(dst: LocalTensor, src: LocalTensor, sharedTmpBuffer: LocalTensor, *args: Any, calIndex: Any = None) -> None:
        ctx = current()
        if calIndex is not None:
            args = (*args, calIndex)
        dt = src.dtype
        if dt not in _MAXMIN_TYPES or dst.dtype != dt:
            ctx.report("BAD_PARAMETER", f"{api}: {type_name(dt)} -> {type_name(dst.dtype)} is not supported")
        lanes = VL // dt.itemsize
        calc = bool(args[-1]) if len(args) in (2, 4) else False
        if len(args) <= 2:                                    # (count[, calIndex])
            count = _count_of(ctx, api, args[0])
            x, d = _read_chunks(ctx, api, src, count, lanes)
            active = (np.arange(x.size) < count).reshape(x.shape)
            level0, form = 0, {"form": "count", "count": count}
        else:                                                  # (mask, repeatTime, srcRepStride[, calIndex])
            if dt.itemsize == 8:
                ctx.report("BAD_PARAMETER", f"{api}: 64-bit types are supported by the count form only")
            repeat, srep, m = _level0_args(ctx, api, src, *args[:3])
            x, d = _read_repeats(ctx, api, src, repeat, srep, m)
            active = np.broadcast_to(m.active, x.shape)
            count, level0, form = repeat * lanes, repeat, {"form": "level0", "repeat": repeat, "mask": m.kind}
        vals = _best(kind, dt, x, active)
        if calc:
            flat = np.where(active, x, _seed(kind, dt)).ravel()
            hit = (np.isnan(flat) if np.isnan(vals).any() else flat == vals) & active.ravel()
            pos = int(np.argmax(hit)) if hit.any() else 0
            if dt == F16 and pos > 0xFFFF:
                ctx.report("BAD_PARAMETER", f"{api}: a half index above 65535 cannot be stored")
            idx = np.array([pos], dtype=np.dtype(f"u{dt.itemsize}")).view(dt)
            out, ok = np.concatenate([np.array([vals], dt), idx]), np.array([bool(d.all())] * 2)
        else:
            out, ok = np.array([vals], dt), np.array([bool(d.all())])
        _store(ctx, api, dst.addr, out, ok)
        b8 = ctx.machine.params["numerics"]["unmasked_implicit_pset"] == "b8"
        emit(ctx, api, 4, _max_stream(count, b8, kind.name, lanes, calc, level0), {"dtype": type_name(dt), **form})
    fn.__doc__ = (f"``{api}(dst, src, sharedTmpBuffer, count, calIndex = false)`` or ``{api}(dst, src, "
                  f"sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex = false)``: dst[0] = the "
                  f"{kind.name.lower()} (dst[1] its index with calIndex).")
    return fn


def _best(kind: ReduceType, dt: np.dtype, x: np.ndarray, active: np.ndarray):
    """The library's lane-wise running max/min from the seed, then the cross-lane reduction."""
    acc = np.full(x.shape[1], _seed(kind, dt), dt)
    op = elementwise("max" if kind == ReduceType.MAX else "min", dt)
    for j in range(x.shape[0]):
        acc = np.where(active[j], op(acc, x[j]), acc)
    value, _ = reduce_lanes(kind, acc, np.ones(x.shape[1], bool))
    return value


def _reduce_sum(dst: LocalTensor, src: LocalTensor, sharedTmpBuffer: LocalTensor, *args: Any) -> None:
    """``ReduceSum(dst, src, sharedTmpBuffer, count)`` or ``ReduceSum(dst, src, sharedTmpBuffer, mask,
    repeatTime, srcRepStride)``: partial sums to sharedTmpBuffer, their sum to dst[0]; then the library's
    V_S flag pair and scalar read of dst[0]."""
    api, ctx = "ReduceSum", current()
    dt = src.dtype
    if dt not in _SUM_TYPES or dst.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: {type_name(dt)} -> {type_name(dst.dtype)} is not supported")
    lanes = VL // dt.itemsize
    if not ctx.pipes:
        ctx.report("BAD_PARAMETER", "ReduceSum needs a TPipe on the core: the library takes its V_S event id "
                   "from it (a LocalTensor on a raw address crashes it on hardware, error 507035)")
    if len(args) == 1:
        count = _count_of(ctx, api, args[0])
        x, d = _read_chunks(ctx, api, src, count, lanes)
        active = (np.arange(x.size) < count).reshape(x.shape)
        level0, form = 0, {"form": "count", "count": count}
    else:
        if dt.itemsize == 8:
            ctx.report("BAD_PARAMETER", f"{api}: 64-bit types are supported by the count form only")
        repeat, srep, m = _level0_args(ctx, api, src, *args)
        x, d = _read_repeats(ctx, api, src, max(repeat, 0), srep, m)
        active = np.broadcast_to(m.active, x.shape)
        count, level0, form = repeat, repeat, {"form": "level0", "repeat": repeat, "mask": m.kind}
    partial = reduce_lanes(ReduceType.SUM, x, active)[0].astype(dt)       # one tree sum per chunk (row)
    pdef = d.all(axis=1)
    while partial.size > 1:
        _store(ctx, api, sharedTmpBuffer.addr, partial, pdef)
        ctx.ub.check(sharedTmpBuffer.addr, lanes * dt.itemsize, api, 32)  # the next pass loads whole VLs
        trips = -(-partial.size // lanes)
        pad = np.zeros(trips * lanes, dt)
        pad[:partial.size] = partial
        act = (np.arange(trips * lanes) < partial.size).reshape(trips, lanes)
        pdef = np.array([pdef[k * lanes:(k + 1) * lanes].all() for k in range(trips)])
        partial = reduce_lanes(ReduceType.SUM, pad.reshape(trips, lanes), act)[0].astype(dt)
    total = partial[0] if partial.size else dt.type(0)
    _store(ctx, api, dst.addr, np.array([total], dt), np.array([bool(pdef.all())]))
    _store(ctx, api, int(ctx.machine.params["membase"]["spr_ub_addr"]), np.array([total], dt), np.ones(1, bool))
    emit(ctx, api, 4, reduce_sum_stream(count, lanes, level0), {"dtype": type_name(dt), **form})
    ctx.emit(Sync(PIPE_V, PIPE_S, V_S_EVENT_ID, "set"))
    ctx.emit(Sync(PIPE_V, PIPE_S, V_S_EVENT_ID, "wait"))
    if not ctx.dry_run:
        ctx.ub.require_defined(dst.addr, dt.itemsize, "ReduceSum (the library's scalar read of dst[0])")
    ctx.emit(ScalarOp("ub_read", dt.itemsize, kernel_frame()))


def GetReduceRepeatSumSpr(T: Any) -> Any:
    """``GetReduceRepeatSumSpr<T>()``: the result of the last ReduceSum count form (kept by the library in a
    variable its scalar read filled; modelled in reserved UB, machine file ``[membase] spr_ub_addr``)."""
    ctx = current()
    dt = np_dtype(T)
    if dt not in (F16, F32):
        ctx.report("BAD_PARAMETER", f"GetReduceRepeatSumSpr takes half or float, not {type_name(dt)}")
    addr = int(ctx.machine.params["membase"]["spr_ub_addr"])
    if ctx.dry_run:
        return 0.0
    return float(ctx.ub.data[addr:addr + dt.itemsize].view(dt)[0])


class _WithPattern(MemBaseApi):
    """The basic API and the high-level ``<T, pattern, isReuseSource>`` form of the same C++ name (高阶API/归约操作,
    toolkit.ascendc.highlevel.reduce_pattern): a ``pattern`` template argument or keyword selects the latter."""

    def _hl(self):
        from toolkit.ascendc.highlevel.reduce_pattern import BY_NAME
        return BY_NAME[self.__name__]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if "pattern" in kwargs:
            return self._hl()(*args, **kwargs)
        return super().__call__(*args, **kwargs)

    def __getitem__(self, targs: Any):
        key = targs if isinstance(targs, tuple) else (targs,)
        if any(getattr(a, "name", None) == "pattern" for a in key):
            return self._hl()[targs]
        return super().__getitem__(targs)


ReduceMax = _WithPattern(_maxmin(ReduceType.MAX, "ReduceMax"), "ReduceMax", batchable=False)   # reads UB per core
ReduceMin = _WithPattern(_maxmin(ReduceType.MIN, "ReduceMin"), "ReduceMin", batchable=False)
ReduceSum = _WithPattern(_reduce_sum, "ReduceSum", batchable=False)
