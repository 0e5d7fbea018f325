"""Runtime hooks the C++ side calls through the bridge (``rt.*``, ``SYS.*``, ``PIPE.*``): object lifetimes,
VF instances and loops, kernel launches and cores, device memory (the ACL runtime), platform figures.
Every API semantic is delegated to the same toolkit functions the Python kernels use.
"""
from __future__ import annotations

import ctypes
import linecache
import os
import re
from copy import copy as shallow_copy
from dataclasses import dataclass, field
from typing import Any

from toolkit.ascendc import debug
from toolkit.ascendc.bufpool import LocalMemAllocator, TBufPool
from toolkit.ascendc.pipe import TBuf, TPipe, TPosition, TQue
from toolkit.ascendc.sync import TQueSync
from toolkit.ascendc.regbase import types as rt
from toolkit.ascendc.regbase.vf import vf_begin, vf_end
from toolkit.engine import runtime
from toolkit.engine.runtime import current, current_or_none

from . import bridge, loopdefer
from .memmap import host_bytes
from .program import LaunchState
from .rewrite import NO_DEFER

ACL_SUCCESS, ACL_ERROR_INVALID_PARAM = 0, 100000
H2H, H2D, D2H, D2D, DEFAULT = range(5)


def _prog():
    return bridge.PROGRAM


def _s(string_id: int) -> str:
    return bridge.PROGRAM.strings[string_id]


# -- objects ---------------------------------------------------------------------------------------
_REG_KINDS = {"RegTensor": "reg", "MaskReg": "mask", "UnalignRegForLoad": "unalign_load",
              "UnalignRegForStore": "unalign_store"}


def _reg_tensor(dtype: int, trait_num: int) -> rt.RegTensor:
    if trait_num == 2:
        raise NotImplementedError("RegTensor<T, RegTraitNumTwo> (two VL registers) is not emulated")
    return rt.RegTensor(bridge.DTYPES[dtype])


#: what ``new`` constructs for each C++ object kind (a, b: the constructor's encoded arguments)
_CONSTRUCTORS = {
    "TPipe": lambda a, b: TPipe(),
    "TQue": lambda a, b: TQue(TPosition(bridge.POSITIONS[a]), b),
    "TBuf": lambda a, b: TBuf(TPosition(bridge.POSITIONS[a])),
    "RegTensor": lambda a, b: _reg_tensor(a, b),
    "MaskReg": lambda a, b: rt.MaskReg(),
    "UnalignRegForLoad": lambda a, b: rt.UnalignRegForLoad(),
    "UnalignRegForStore": lambda a, b: rt.UnalignRegForStore(),
    "TBufPool": lambda a, b: TBufPool(TPosition(bridge.POSITIONS[a]), b),
    "LocalMemAllocator": lambda a, b: LocalMemAllocator(_enum_member("Hardware", a)),
    "TQueSync": lambda a, b: TQueSync(_enum_member("pipe_t", a), _enum_member("pipe_t", b)),
}


def _enum_member(name: str, value: int):
    from . import enums
    eid = enums.PIPE_ENUM_ID if name == "pipe_t" else next(e for e, _, n, _, _ in enums.ENUMS if n == name)
    return enums.DECODE[eid][value]


def new(kind_id: int, a: int, b: int) -> int:
    kind = _s(kind_id)
    make = _CONSTRUCTORS.get(kind)
    if make is None:
        raise KeyError(f"unknown object kind {kind}")
    handle = _prog().new_handle(make(a, b))
    if kind in _REG_KINDS:
        _prog().declared.add(handle)              # a named register: alive until its destructor
    return handle


def free(handle: int) -> None:
    prog = _prog()
    obj = prog.drop(handle)
    if handle not in prog.declared:
        return
    prog.declared.discard(handle)
    ctx = current_or_none()
    if ctx is not None and ctx.vf is not None:
        ctx.vf.undeclare(_REG_KINDS[type(obj).__name__])


def copy(handle: int) -> int:
    return _prog().new_handle(shallow_copy(_prog().objects[handle]))


# -- VF instances and loops -------------------------------------------------------------------------
@dataclass
class _Vf:
    rec: Any
    launch: str
    nparams: int
    where: tuple
    meta: dict = field(default_factory=dict)
    scalar_args: int = 0     #: parameters read by GetValue in the call's argument list
    lead: Any = None         #: (scheduler, context token) when this core runs the body for a batch


def vf_call_site(file_id: int, line: int, nargs: int, scalar_args: int = 0) -> None:
    _prog().vf_call_site = ((_s(file_id), line), nargs, scalar_args)


def vf_begin_hook(name_id: int, nparams: int, no_fusion: int, file_id: int, line: int, keyable: int = 0,
                  key_addr: int = 0, key_len: int = 0) -> int:
    """A ``__simd_vf__`` body starts (``VfGate``). Returns a handle, or 0 when the body must be skipped:
    in lock-step the core parks with the VF's static identity (name, call site, the bytes of its
    parameters with ``__ubuf__`` pointers as UB addresses); the group's lowest core runs the body once
    over the group's core axis and the others skip it."""
    prog = _prog()
    ctx = current()
    site, prog.vf_call_site = prog.vf_call_site, None
    launch, where = ("asc_vf_call", site[0]) if site else ("direct", (_s(file_id), line))
    scalar_args = site[2] if site else 0
    meta = {"no_fusion": True} if no_fusion else {}
    lead = None
    if ctx.scheduler is not None and ctx.vf is None:
        from toolkit.engine.lockstep import Lead, LeaderRequest
        static = ctypes.string_at(key_addr, key_len) if keyable else ("core", ctx.core_id)
        got = ctx.scheduler.park(LeaderRequest((name_id, launch, where, nparams, no_fusion, scalar_args, static)))
        if not isinstance(got, Lead):
            return 0                                  # the group's leader ran the body for this core
        lead = (ctx.scheduler, runtime.enter(got.batch))
        ctx = got.batch
    rec = vf_begin(ctx, _s(name_id))
    return prog.new_handle(_Vf(rec, launch, nparams, where, meta, scalar_args, lead))


def vf_end_hook(handle: int, unwinding: int) -> None:
    st = _prog().drop(handle)
    ctx = current_or_none()
    if st is None or ctx is None or ctx.vf is not st.rec:
        return
    try:
        if unwinding:
            ctx.vf = None
        else:
            vf_end(ctx, st.rec, st.launch, st.nparams, st.where, st.scalar_args, st.meta)
    finally:
        if st.lead is not None:
            scheduler, token = st.lead
            runtime.leave(token)
            if not unwinding:                         # never park while a native exception unwinds
                scheduler.lead_done()


@dataclass
class _LoopGuard:
    rec: Any
    hardware: bool
    unroll: int
    loop: Any = None
    immediate: bool = False      #: the loop bound is a literal (the rewrite's hardware code 2)
    where: tuple | None = None
    refused: bool = False        #: a loop site known not to batch (toolkit.asc.loopdefer.start)


def loop_begin(hardware: int, unroll: int, reason_id: int, file_id: int, line: int) -> int:
    ctx = current_or_none()
    if ctx is None or ctx.vf is None:
        return 0
    raw_ub, hardware = bool(hardware & NO_DEFER), hardware & ~NO_DEFER
    if not hardware:
        ctx.report("VF_SOFTWARE_LOOP", f"loop in VF {ctx.vf.name} is a software loop: {_s(reason_id)}",
                   where=(_s(file_id), line))
    where = (_s(file_id), line)
    if raw_ub:                                    # C++ touches UB itself in this VF: never recorded
        from toolkit.ascendc.regbase.loopbatch import remember_refusal
        remember_refusal(ctx, where, "the VF body reads or writes UB through a pointer (or prints)")
    return _prog().new_handle(_LoopGuard(ctx.vf, bool(hardware), unroll, immediate=hardware == 2,
                                         where=where))


def loop_iter(handle: int) -> None:
    g = _prog().objects[handle]
    if not g.hardware:
        return
    if g.loop is None:
        g.loop = g.rec.loop_enter(None, immediate=g.immediate, where=g.where)
        if g.unroll:
            g.rec.unroll_hints.append(int(g.unroll))
        if loopdefer.start(g, handle):            # its calls are recorded, then replayed (batched)
            return
    g.rec.loop_iteration(g.loop)


def loop_end(handle: int) -> None:
    g = _prog().drop(handle)
    if g is not None and g.loop is not None and g.rec.loops and g.rec.loops[-1] is g.loop:
        if g.refused and g.loop.iteration >= 1:   # a loop known not to batch: counted as the others
            from toolkit.ascendc.regbase.loopbatch import count_refused
            count_refused(g.where)
        g.rec.loop_exit()


# -- launches ----------------------------------------------------------------------------------------
def launch_begin(name_id: int, file_id: int, line: int, block_dim: int) -> int:
    prog = _prog()
    debug.SINK = _text_sink                       # device text of the program's kernels: per core
    prog.launch = LaunchState(prog, _s(name_id), (_s(file_id), line), block_dim)
    return prog.new_handle(prog.launch)


def launch_arg(handle: int, index: int, addr: int, dtype: int) -> None:
    state = _prog().objects[handle]
    found = _prog().arena.find(addr) if addr else None
    while len(state.args) <= index:
        state.args.append(None)
    if found is not None:
        buf = found[0]
        names = _prog().kernel_params.get(state.base_name, [])
        if index < len(names) and buf.name.startswith("gm") and buf.name[2:].isdigit():
            buf.name = names[index]               # diagnostics name the buffer after the kernel parameter
        state.args[index] = (buf, found[1], bridge.DTYPES.get(dtype, bridge.DTYPES[2]))


def launch_run(handle: int, body: int) -> None:
    state = _prog().objects[handle]
    try:
        state.run(body)
    except OSError as err:                    # more cores than UBs the address space can hold
        state.failed = True
        _prog().host_error(f"{state.name}<<<{state.block_dim}>>>: {err} (the emulator maps a UB per core; "
                           f"this launch has more cores than it can map)", "", state.where)


def launch_end(handle: int) -> None:
    from .record import launch_record
    prog = _prog()
    state = prog.drop(handle)
    prog.launch = None
    flush_device_text()
    if state.failed:
        return
    prog.launches += 1
    prog.write(launch_record(state, prog))


# -- device text (printf, DumpTensor, assert messages): per core, printed when the launch ends ----------
_DEVICE_TEXT: dict[int, list[str]] = {}


def _text_sink(core: int | None, text: str) -> None:
    if core is None:                              # host code (no core runs): at once, after the C output
        _write_out(text)
    else:
        _DEVICE_TEXT.setdefault(core, []).append(text)


def _write_out(text: str) -> None:
    ctypes.CDLL(None).fflush(None)                # the program's buffered stdio output comes first
    os.write(1, text.encode("utf-8", "replace"))


def flush_device_text() -> None:
    """The launch ended: each core's text, core after core (toolkit.ascendc.debug)."""
    text = "".join("".join(_DEVICE_TEXT[c]) for c in sorted(_DEVICE_TEXT))
    _DEVICE_TEXT.clear()
    if text:
        _write_out(text)


def device_print(addr: int, n: int) -> None:
    ctx = current_or_none()
    _text_sink(ctx.core_id if ctx is not None else None, ctypes.string_at(addr, n).decode("utf-8", "replace"))


def kernel_assert(addr: int, n: int) -> None:
    if current_or_none() is not None:
        debug.kernel_assert(ctypes.string_at(addr, n).decode("utf-8", "replace"))


# -- LocalTensor::operator(): a scalar UB element reference -------------------------------------------
def ub_element(addr: int, nbytes: int) -> None:
    """Bounds checked; the element is taken as defined (a read and a write look alike from here); the
    scalar unit's access is recorded as a UB read (assumed: the timing of a read, the slower one)."""
    from toolkit.record.diagnostics import kernel_frame
    from toolkit.record.events import ScalarOp, shared
    ctx = current()
    ctx.ub.check(addr, nbytes, "LocalTensor::operator()")
    ctx.ub.defined[addr:addr + nbytes] = True
    ctx.emit(shared(ScalarOp, "ub_read", nbytes, kernel_frame()))


# -- DataCopy with SliceInfo arrays, NDDMA (hand-written C++ forms: toolkit/ascendc/dma_nd.py) ------------
def slice_copy(dst: Any, src: Any, dim: int, *fields: int) -> None:
    from toolkit.ascendc.dma_nd import SliceInfo, slice_copy as run
    infos = [SliceInfo(*fields[k:k + 5]) for k in range(0, len(fields), 5)]
    run(dst, src, infos[:dim], infos[dim:])


def nd_dma(dst: Any, src: Any, nearest: bool, lp_all: int, rp_all: int, constant: Any, *fields: int) -> None:
    from toolkit.ascendc.dma_nd import nd_dma as run
    run(dst, src, nearest, lp_all, rp_all, constant, [tuple(fields[k:k + 5]) for k in range(0, len(fields), 5)])


# -- device memory (ACL) -----------------------------------------------------------------------------
def gm_alloc(size: int) -> int:
    return _prog().arena.alloc(size).data.ctypes.data


def gm_free(addr: int) -> int:
    return ACL_SUCCESS if _prog().arena.free(addr) else ACL_ERROR_INVALID_PARAM


def _view(addr: int, n: int, device: bool):
    if not device:
        return host_bytes(addr, n)
    found = _prog().arena.find(addr)
    if found is None or found[1] + n > found[0].size:
        return None
    buf, off = found
    return buf.data[off:off + n]


def memcpy(dst: int, dest_max: int, src: int, count: int, kind: int) -> int:
    if count > dest_max or kind not in (H2H, H2D, D2H, D2D, DEFAULT):
        return ACL_ERROR_INVALID_PARAM
    arena = _prog().arena
    dev_dst = kind in (H2D, D2D) or (kind == DEFAULT and arena.find(dst) is not None)
    dev_src = kind in (D2H, D2D) or (kind == DEFAULT and arena.find(src) is not None)
    d, s = _view(dst, count, dev_dst), _view(src, count, dev_src)
    if d is None or s is None:
        return ACL_ERROR_INVALID_PARAM
    if count:
        ctypes.memmove(d.ctypes.data, s.ctypes.data, count)
    return ACL_SUCCESS


def memset(addr: int, max_count: int, value: int, count: int) -> int:
    d = _view(addr, count, True)
    if d is None or count > max_count:
        return ACL_ERROR_INVALID_PARAM
    d[:] = value & 0xFF
    return ACL_SUCCESS


def platform(what: int, arg: int = 0) -> int:
    m = _prog().machine
    if what == 0:
        return m.aiv_cores
    if what == 1:
        return max(m.aiv_cores // 2, 1)
    return m.ub_budget_bytes if arg == 5 else 0     # CoreMemType::UB


# -- InitBuffer / InitBufPool / Alloc: the buffer takes the name the source gives it --------------------
_INIT_BUFFER = re.compile(r"Init(?:Buffer|BufPool)\s*\(\s*([A-Za-z_][\w.\->\[\]]*)")
_ALLOCATED = re.compile(r"([A-Za-z_]\w*)\s*=\s*[\w.\->]*\bAlloc\s*<")


def _source_text(lines: int = 3) -> str:
    file, line = bridge.SOURCE_LOCATION.get() or ("?", 0)
    return "".join(linecache.getline(file, k) for k in range(line, line + lines))


def _name_from_source(buf: Any) -> None:
    if buf.name is None:
        m = _INIT_BUFFER.search(_source_text())
        if m:
            buf.name = re.split(r"\.|->", m.group(1).split("[")[0])[-1].rstrip("_") or None


def init_buffer(pipe: Any, buf: Any, *rest: Any) -> bool:
    _name_from_source(buf)
    return pipe.InitBuffer(buf, *rest)


def init_buf_pool(pipe: Any, pool: Any, *rest: Any) -> bool:
    _name_from_source(pool)
    return pipe.InitBufPool(pool, *rest)


def alloc(*args: Any):
    """LocalMemAllocator::Alloc (the bridge passes the template arguments first, then the allocator)."""
    allocator = next(a for a in args if isinstance(a, LocalMemAllocator))
    rest = [a for a in args if a is not allocator]
    m = _ALLOCATED.search(_source_text(1))
    allocator.pending_name = m.group(1).rstrip("_") if m else None
    return allocator.Alloc(*rest)


RT = {"new": new, "free": free, "copy": copy, "vf_call_site": vf_call_site, "vf_begin": vf_begin_hook,
      "vf_end": vf_end_hook, "loop_begin": loop_begin, "loop_iter": loop_iter, "loop_end": loop_end,
      "launch_begin": launch_begin, "launch_arg": launch_arg, "launch_run": launch_run, "launch_end": launch_end,
      "gm_alloc": gm_alloc, "gm_free": gm_free, "memcpy": memcpy, "memset": memset, "platform": platform,
      "device_print": device_print, "kernel_assert": kernel_assert, "ub_element": ub_element,
      "slice_copy": slice_copy, "nd_dma": nd_dma}
#: APIs whose .asc route adds a step to the semantic function (keyed by the API definition's name)
ADAPTERS = {"AscendC::TPipe::InitBuffer": init_buffer, "AscendC::TBufPool::InitBuffer": init_buffer,
            "AscendC::TPipe::InitBufPool": init_buf_pool, "AscendC::TBufPool::InitBufPool": init_buf_pool,
            "AscendC::LocalMemAllocator::Alloc": alloc}
