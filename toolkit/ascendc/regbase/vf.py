"""VF functions: the ``__simd_vf__`` marker, hardware loops (``VLOOP``), ``asc_vf_call`` and recording.

Calling a ``__simd_vf__`` function (directly or through ``asc_vf_call[F](...)``) runs its body once on
the current core with a fresh :class:`VfRecorder`; every Reg API call appends one instruction record.
At VF end the recorder applies the compiler effects we model (documented in ``compile_passes``),
checks the unaligned-store flush, and emits one :class:`~toolkit.record.events.VfCall` event.
"""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable

import numpy as np

from toolkit.ascendc.dtypes import CScalar
from toolkit.ascendc.tensor import ScalarRead, ScalarReadInt, UbPtr
from toolkit.compiler.passes import compile_passes
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import (
    SOURCE_LOCATION,
    VfRuleError,
    kernel_caller,
    kernel_frame,
)
from toolkit.record.events import ITER, Instr, VfCall
from toolkit.record.events import VLOOP as VLOOP_OP

from .loopbatch import abandon_batch, start_batch


class _Loop:
    __slots__ = ("trips", "iteration", "plts", "record", "flat", "immediate")

    def __init__(self, trips: int | None, record: int, flat: bool = False, immediate: bool = False):
        self.trips = trips
        self.record = record      # index of the loop's RV_VLOOP record
        self.iteration = -1
        self.plts: list[tuple[int, Any, Any, int]] = []   # (record index, site, count_in, iteration)
        self.flat = flat          # not a hardware loop: nested beyond the loop levels (see loop_enter)
        self.immediate = immediate  # its trip count is a literal (the compiler may unroll it)


_new_instr = tuple.__new__           # an Instr from all its fields, without NamedTuple.__new__'s frame


class VfRecorder:
    """Instruction stream and register bookkeeping of one VF instance."""

    def __init__(self, name: str, machine, batch: int = 1):
        self.name = name
        self.machine = machine
        self.batch = batch              # cores running this VF instance at once (lock-step), 1 otherwise
        self.instrs: list = []
        self.next_id = 0
        self.loops: list[_Loop] = []
        self.pset_ids: dict[tuple, int] = {}
        self.declared = {"reg": 0, "mask": 0, "unalign_load": 0, "unalign_store": 0}
        self.peak = dict(self.declared)
        self.unalign_stores: list = []
        self.unroll_hints: list[int] = []
        self.software_loops: set = set()   # loops reported as software loops (beyond the loop levels)
        self.ar: Any = 0                 # the AR special register (regbase/unaligned.py), per core of the batch
        self.squeeze_bytes: Any = None   # bytes a Squeeze<STORE_REG> kept, for the next AR-form StoreUnAlign
        self.allow_batch = True          # hardware loops may run batched (regbase/loopbatch.py)
        self.rerun = None                # the batch whose body left its loop early: run the instance again
        self.ub_writes = -1              # the UB's write count when the instance began (vf_begin)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def emit(self, opcode: str, dst: int = -1, srcs: tuple = (), aux: Any = None, *, mask: int = -1,
             dist: str | None = None, ub_addr: int = -1, ub_bytes: int = 0) -> None:
        """Append one :class:`~toolkit.record.events.Instr` (its loop context is the current nesting depth)."""
        self.instrs.append(_new_instr(Instr, (opcode, dst, srcs, aux, mask, dist, ub_addr, ub_bytes, len(self.loops))))

    def declare(self, kind: str, obj: Any = None) -> None:
        """One more register of ``kind`` alive (``undeclare`` when it dies: the C++ route's destructors)."""
        self.declared[kind] += 1
        self.peak[kind] = max(self.peak[kind], self.declared[kind])
        regs = self.machine.params["registers"]
        if kind == "unalign_store":
            self.unalign_stores.append(obj)
        limit = {"unalign_load": regs["unalign_load"], "unalign_store": regs["unalign_store"]}.get(kind)
        if limit is not None and self.declared[kind] > limit:
            current().report("REGISTER_LIMIT", f"VF {self.name} declares {self.declared[kind]} {kind} registers "
                             f"(limit {limit})")

    def undeclare(self, kind: str) -> None:
        self.declared[kind] = max(self.declared[kind] - 1, 0)

    # -- loops ------------------------------------------------------------------------------------
    def loop_enter(self, trips: int | None, immediate: bool = False, where: tuple | None = None) -> _Loop:
        """A hardware loop is entered; ``trips`` None: known only at :meth:`loop_exit` (C++ route).

        Beyond the machine's hardware loop levels a loop is not an error of the program: the compiler
        unrolls a loop whose trip count is an immediate (``immediate``: the C++ loop bound is a literal),
        this one or an enclosing one, and makes it a software loop (scalar branches, warned once per loop)
        when none is. Either way this loop records no RV_VLOOP and its iterations run as straight-line code
        of the enclosing loop (a flat loop: not on ``loops``)."""
        levels = self.machine.params["registers"]["loop_levels"]
        if len(self.loops) >= levels:
            unrolled = immediate or any(lp.immediate for lp in self.loops)
            if not unrolled and where not in self.software_loops:
                self.software_loops.add(where)
                current().report("VF_SOFTWARE_LOOP", f"loop in VF {self.name} is a software loop: hardware loops "
                                 f"nest at most {levels} levels and no loop of this nest has a literal trip count",
                                 **({"where": where} if where else {}))
            return _Loop(trips, -1, flat=True)
        loop = _Loop(trips, len(self.instrs), immediate=immediate)
        self.loops.append(loop)
        self.emit(VLOOP_OP, -1, (), trips)
        return loop

    def loop_iteration(self, loop: _Loop) -> None:
        """Start of the next iteration of ``loop`` (the innermost open loop)."""
        if loop.flat:
            return
        loop.iteration += 1
        depth = len(self.loops)
        self.instrs.append(_new_instr(Instr, (ITER, -1, (), depth, -1, None, -1, 0, depth)))

    def loop_exit(self, trips: int | None = None) -> None:
        loop = self.loops.pop()
        if loop.trips is None:
            loop.trips = trips if trips is not None else loop.iteration + 1
            self.instrs[loop.record] = self.instrs[loop.record]._replace(aux=loop.trips)
        if loop.trips >= 2 and loop.plts:
            self._hoist_invariant_plts(loop)

    def note_plt(self, site: Any, count_in: int) -> None:
        """Remember a PLT issued directly in the innermost loop (for loop-invariant hoisting)."""
        if self.loops:
            loop = self.loops[-1]
            loop.plts.append((len(self.instrs) - 1, site, count_in, loop.iteration))

    def _hoist_invariant_plts(self, loop: _Loop) -> None:
        """A PLT whose count input is the same in every iteration is loop-invariant: the compiler hoists
        it, so only the first instance stays (its consumers' later reads see a value ready early)."""
        by_site: dict[Any, list] = {}
        for rec in loop.plts:
            by_site.setdefault(rec[1], []).append(rec)
        for recs in by_site.values():
            if (len(recs) == loop.trips and len({r[2] for r in recs}) == 1
                    and [r[3] for r in recs] == list(range(loop.trips))):
                for idx, *_ in recs[1:]:
                    self.instrs[idx] = None

    # -- end of VF ------------------------------------------------------------------------------
    def finish(self, ctx) -> list:
        for ureg in self.unalign_stores:
            if ureg.ar_open:
                ctx.report("UNALIGN_STORE_NOT_FLUSHED", f"VF {self.name} ends after an AR-form StoreUnAlign without "
                           f"its StoreUnAlignPost: the trailing bytes are never written", where=ureg.site)
            pending = ureg.pending.shape[-1]
            if ureg.pending_addr is not None and pending:
                ctx.report("UNALIGN_STORE_NOT_FLUSHED",
                           f"VF {self.name} ends with {pending} byte(s) pending in an UnalignRegForStore "
                           f"(StoreUnAlignPost missing): UB [{ureg.pending_addr}, "
                           f"{ureg.pending_addr + pending}) is never written",
                           address=ureg.pending_addr, size=int(pending), where=ureg.site)
        regs = self.machine.params["registers"]
        d = self.peak
        if d["reg"] > regs["reg_tensor"] or d["mask"] > regs["mask_reg"]:
            ctx.report("REGISTER_SPILL", f"VF {self.name} declares {d['reg']} RegTensor / {d['mask']} MaskReg "
                       f"(file: {regs['reg_tensor']} / {regs['mask_reg']})")
        raw = ctx.intern_stream([i for i in self.instrs if i is not None])
        # the passes are a function of the stream: a stream seen before in this launch (a VF body run again
        # on the same addresses) is compiled once
        compiled = ctx.shared.setdefault("compiled_streams", {})
        got = compiled.get(id(raw))
        if got is None:
            got = compiled[id(raw)] = ctx.intern_stream(compile_passes(list(raw)))
        return got


def VLOOP(start_or_stop: Any, stop: Any = None, *, unroll: int | None = None):
    """A hardware loop (``for (uint16_t i = start; i < stop; ++i)`` inside a VF, VLOOPv2 on hardware).

    ``unroll`` is the ``#pragma unroll`` hint: kept as metadata only, the body executes as written.
    Loop entries (RVECLP events) are counted for loops that run at least once.
    """
    start, end = (0, start_or_stop) if stop is None else (start_or_stop, stop)
    start, end = int(getattr(start, "value", start)), int(getattr(end, "value", end))
    rec = current().vf
    if rec is None:
        raise VfRuleError("VLOOP is a VF construct: call it inside a __simd_vf__ function")
    trips = max(end - start, 0) & 0xFFFF
    return _loop_iter(rec, start, trips, unroll)


def _loop_iter(rec: VfRecorder, start: int, trips: int, unroll):
    if trips == 0:
        return
    loop = rec.loop_enter(trips)
    if unroll:
        rec.unroll_hints.append(int(unroll))
    try:
        batch = start_batch(rec, loop, start, trips, sys._getframe(1)) if trips >= 2 and not loop.flat else None
        if batch is not None:
            rec.loop_iteration(loop)
            try:
                yield batch.index
            except GeneratorExit:         # the body left the loop (break, return): undone, the VF runs again
                batch.left_early()
                raise
            if batch.finish():
                return
        for i in range(trips):
            rec.loop_iteration(loop)
            yield start + i
    finally:
        if not loop.flat:
            rec.loop_exit()


class SimdVf:
    """A ``__simd_vf__`` function. Calling it runs one VF instance on the current core."""

    def __init__(self, fn: Callable):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.name = fn.__name__
        self.no_fusion = False
        self._per_core: bool | None = None

    @property
    def per_core(self) -> bool:
        """Whether lock-step must run this VF on each core alone (scalar UB access or printing in its
        source: :mod:`toolkit.ascendc.regbase.vfscalar`)."""
        if self._per_core is None:
            from .vfscalar import touches_ub
            self._per_core = touches_ub(self.fn)
        return self._per_core

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        _run_vf(self, "direct", args, kwargs, kernel_frame())

    def __get__(self, obj, objtype=None):
        # A VF defined as a static function inside a kernel class stays unbound.
        return self


def __simd_vf__(fn: Callable) -> SimdVf:
    """Mark a function as a VF (``__simd_vf__``): its Reg API calls are recorded as one VF instance."""
    return SimdVf(fn)


def __no_simd_vf_fusion__(vf: SimdVf) -> SimdVf:
    """``__no_simd_vf_fusion__``: this VF is never merged with a neighbour by compiler VF fusion."""
    vf.no_fusion = True
    return vf


def __simd_callee__(fn: Callable) -> Callable:
    """``__simd_callee__`` helper: inlined into the calling VF (a plain call here)."""
    return fn


def _copy_arg(a: Any) -> Any:
    """VF parameters are passed by value: pointers and scalar variables are copied."""
    if isinstance(a, UbPtr):
        return UbPtr(a.addr, a.dtype)
    if isinstance(a, CScalar):
        return type(a)(a.value)
    return a


def _run_vf(vf: SimdVf, launch: str, args: tuple, kwargs: dict, where: tuple) -> None:
    ctx = current()
    if ctx.scheduler is not None and ctx.vf is None:          # lock-step: run with the other cores
        from toolkit.engine.lockstep import VfRequest
        return ctx.scheduler.park(VfRequest(vf, launch, args, kwargs, where, ctx.core_id if vf.per_core else None))
    execute_vf(ctx, vf, launch, args, kwargs, where)


def execute_vf(ctx, vf: SimdVf, launch: str, args: tuple, kwargs: dict, where: tuple) -> None:
    """One VF instance on ``ctx`` (a core, or a batch of cores in lock-step). A batched hardware loop that
    fails inside its body (regbase/loopbatch.py) is undone and the instance runs again unbatched."""
    rec = vf_begin(ctx, vf.name)
    try:
        _vf_body(vf, args, kwargs)
        again = rec.rerun is not None and abandon_batch(rec, None)      # a batched loop left early
    except Exception as err:
        if not abandon_batch(rec, err):
            raise
        again = True
    except BaseException as err:
        abandon_batch(rec, err)
        raise
    finally:
        ctx.vf = None
    if again:
        rec = vf_begin(ctx, vf.name)
        rec.allow_batch = False
        try:
            _vf_body(vf, args, kwargs)
        finally:
            ctx.vf = None
    scalar_args = sum(1 for a in (*args, *kwargs.values()) if isinstance(a, (ScalarRead, ScalarReadInt)))
    vf_end(ctx, rec, launch, len(args) + len(kwargs), where, scalar_args,
           {"no_fusion": True} if vf.no_fusion else None)


def _vf_body(vf: SimdVf, args: tuple, kwargs: dict) -> None:
    with np.errstate(all="ignore"):
        vf.fn(*[_copy_arg(a) for a in args], **{k: _copy_arg(v) for k, v in kwargs.items()})


def vf_begin(ctx, name: str) -> VfRecorder:
    """Open one VF instance on core ``ctx`` (both routes: a Python ``__simd_vf__`` call, a C++ VfScope)."""
    if ctx.vf is not None:
        raise VfRuleError(f"VF {name} called inside VF {ctx.vf.name}: only __simd_callee__ functions nest")
    rec = VfRecorder(name, ctx.machine, getattr(ctx, "batch", 1))
    rec.ub_writes = getattr(ctx.ub, "writes", -1)
    ctx.vf = rec
    return rec


def vf_end(ctx, rec: VfRecorder, launch: str, nparams: int, where: tuple, scalar_args: int = 0,
           meta: dict | None = None) -> None:
    """Close the VF ``rec``: compiler passes, end-of-VF checks, one VfCall event."""
    ctx.vf = None
    instrs = rec.finish(ctx)
    meta = dict(meta or {})
    if rec.unroll_hints:
        meta["unroll_hints"] = rec.unroll_hints
    if scalar_args:
        meta["scalar_args"] = scalar_args
    ctx.emit(VfCall(rec.name, launch, nparams, ctx.intern_stream(instrs), where, meta))
    _publish_ar(ctx, rec.ar)


def _publish_ar(ctx, ar: Any) -> None:
    """The AR register a VF leaves is what GetSpr<SpecialPurposeReg::AR>() reads after it (per core)."""
    members = getattr(ctx, "members", [ctx])
    values = [int(v) for v in np.asarray(ar).tolist()] if np.ndim(ar) else [int(ar)] * len(members)
    if len(members) > 1 and members[0].state is members[1].state and len(set(values)) > 1:
        from toolkit.engine.percore import Unsupported        # a uniform group's one state: not per core
        raise Unsupported("a VF leaving a per-core AR register")
    for m, v in zip(members, values):
        m.state["AR"] = v


class _AscVfCall:
    """``asc_vf_call<F>(args...)`` spelled ``asc_vf_call[F](args...)`` (or ``asc_vf_call(F, args...)``)."""

    def __getitem__(self, vf: SimdVf) -> Callable[..., None]:
        if not isinstance(vf, SimdVf):
            raise TypeError("asc_vf_call needs a __simd_vf__ function")
        return lambda *a, **kw: _run_vf(vf, "asc_vf_call", a, kw, kernel_frame())

    def __call__(self, vf: SimdVf, *args: Any, **kwargs: Any) -> None:
        self[vf](*args, **kwargs)


asc_vf_call = _AscVfCall()


def current_recorder() -> VfRecorder:
    rec = current().vf
    if rec is None:
        raise VfRuleError("RegBase APIs exist only inside a __simd_vf__ function")
    return rec


def plt_site() -> tuple | None:
    """Static identity of the kernel line issuing an UpdateMask: (code object, line) of a Python kernel,
    the (file, line) of the C++ call on the .asc route."""
    loc = SOURCE_LOCATION.get()
    if loc is not None:
        return loc
    f = kernel_caller()
    return (id(f.f_code), f.f_lineno) if f is not None else None
