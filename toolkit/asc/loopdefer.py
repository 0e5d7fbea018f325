"""Hardware loops of the ``.asc`` route as array operations: a loop's calls are recorded, then replayed once
over all its iterations (``toolkit.ascendc.regbase.loopbatch``), or one by one.

A C++ hardware loop is a ``VfLoop`` guard (``include/asc/vf.h``): ``rt.loop_begin``, ``rt.loop_iter`` per
iteration, ``rt.loop_end`` in its destructor. From the first ``loop_iter`` of a hardware loop in a VF (loop
batching on, no recording open) every call of the body reaching :func:`toolkit.asc.bridge.dispatch` is
recorded instead of run (:class:`Recording`) and gets a placeholder result: a new handle for a call that
returns an object (``rt.new`` / ``rt.copy`` of a register, a mask an API makes, an inner loop's guard),
nothing for a void call. ``UpdateMask<T>(count)`` also returns its count, which is plain arithmetic
(computed here). Any other call needs its result now: what was recorded is replayed first, one call at
a time as the normal path runs it (:func:`replay_serial`), and the loop goes on unrecorded.

At ``loop_end``, when every iteration recorded the same calls at the same lines, the body is replayed
once (``loopdefer_batch``): each call's arguments merged over the iterations (equal values stay, differing
ints and UB addresses become per-iteration values, registers are the same object in every iteration).
Anything the batch refuses (``NotBatchable`` or any error) undoes it and the calls are replayed
serially, so results, records and diagnostics are the normal path's.

A fatal diagnostic during a replay stops the core as the normal path does; the difference: C++ ran on
past the aborting call until the replay (a flush, or the loop's end). A replay at ``loop_end`` runs in a
destructor that swallows aborts, so C++ learns of it at its next call (:data:`STATE.pending`): every
call but a destructor's then returns ``ABORT`` (the core unwinds from there), and a core that ends
first is taken as aborted (``LaunchState._finish_core``).
"""
from __future__ import annotations

from typing import Any

from toolkit.ascendc import api as apidefs
from toolkit.ascendc.regbase.types import MemType
from toolkit.engine.runtime import current
from toolkit.record.diagnostics import SOURCE_LOCATION, KernelAbort

from . import bridge

_REG_APIS = "AscendC::Reg::"
_SELF = {"rt.new": "new", "rt.free": "free", "rt.copy": "copy", "rt.loop_begin": "obj",
         "rt.loop_iter": "void", "rt.loop_end": "end"}
_UNWIND_OK = ("rt.free", "rt.loop_end", "rt.vf_end")      # destructor hooks, run while a core unwinds
_KINDS: dict[int, str | None] = {}                        # id(api) -> how a call of it is recorded
_MAY_REF: set[int] = set()                                # id(api) of APIs with a by-reference form


class _State:
    rec: "Recording | None" = None   #: the loop being recorded
    pending = False                  #: a replay in a destructor aborted the core: C++ is told at its next call


STATE = _State()


class Placeholder:
    """What a placeholder handle points to until the call that makes its object is replayed."""

    __slots__ = ("handle",)

    def __init__(self, handle: int):
        self.handle = handle


class Entry:
    """One recorded call: the dispatch arguments and the placeholder handle it returned (0: none)."""

    __slots__ = ("api", "fid", "line", "words", "ph", "kind")

    def __init__(self, api, fid: int, line: int, words: tuple, ph: int, kind: str):
        self.api, self.fid, self.line, self.words, self.ph, self.kind = api, fid, line, words, ph, kind


def kind_of(api) -> str | None:
    """How a call of ``api`` is recorded: "void", "obj" (returns a handle), "new", "free", "copy", "end",
    "mask_count" (UpdateMask), or None (its result is needed now: not recorded)."""
    got = _KINDS.get(id(api), "?")
    if got == "?":
        got = _KINDS[id(api)] = _classify(api)
    return got


def _classify(api) -> str | None:
    name = api.name
    if name in _SELF:
        return _SELF[name]
    if not name.startswith(_REG_APIS):
        return None
    d = apidefs.lookup(name)
    if d is None:
        return None
    forms = [f for f in d.forms if f.emulated]
    if name == "AscendC::Reg::UpdateMask":
        return "mask_count"
    if not forms or any(a.kind == "sout" for f in forms for a in f.args):
        return None
    rets = {f.ret for f in forms}
    if any(a.kind in ("sref", "ubref") for f in forms for a in f.args):
        _MAY_REF.add(id(api))                     # a form passes an argument by reference: checked per call
    return "void" if rets == {"void"} else "obj" if rets == {"MaskReg"} else None


class Recording:
    """The calls of one hardware loop's iterations (see the module docstring)."""

    def __init__(self, guard, handle: int, ctx):
        self.guard, self.handle, self.ctx = guard, handle, ctx
        self.iters: list[list[Entry]] = [[]]
        self.owner: dict[int, int] = {}          # placeholder handle -> the iteration that made it

    def offer(self, api, fid: int, line: int, words: tuple) -> Any:
        """Record a call of C++ (its placeholder result), or :data:`RUN` (it must run now)."""
        kind = kind_of(api)
        if kind is None:
            return RUN
        if kind == "new" and bridge.PROGRAM.strings[words[1]] not in _REG_KIND_NAMES:
            return RUN
        if id(api) in _MAY_REF and kind != "mask_count" and _has_refs(words):
            return RUN                                  # a by-reference argument C++ reads back now
        if api.name == _MEMBAR and _orders_scalar_access(words):
            return RUN                                  # C++ reads or writes UB itself next (or did)
        marker = self._marker(api, words)
        if marker is not RUN:
            return marker
        result: Any = None
        ph = 0
        if kind in ("obj", "new", "copy", "mask_count"):
            ph = bridge.PROGRAM.new_handle(None)
            bridge.PROGRAM.objects[ph] = Placeholder(ph)
            self.owner[ph] = len(self.iters) - 1
            result = ph
        if kind == "mask_count":
            count = _update_mask_count(words)
            if count is None:
                bridge.PROGRAM.drop(ph)
                del self.owner[ph]
                return RUN
            result = (ph, count)
        self.iters[-1].append(Entry(api, fid, line, words, ph, kind))
        return result

    def _marker(self, api, words: tuple) -> Any:
        """This loop's own ``loop_iter`` (a new iteration: None) or ``loop_end`` (:data:`_LOOP_END`), else RUN."""
        if len(words) > 1 and words[1] == self.handle:
            if api.name == "rt.loop_iter":
                self.iters.append([])
                return None
            if api.name == "rt.loop_end":
                return _LOOP_END
        return RUN

    def offer_entry(self, e: Entry) -> Any:
        """Record a replayed call (its placeholder is already made), or :data:`RUN`."""
        marker = self._marker(e.api, e.words)
        if marker is not RUN:
            return marker
        if e.kind is None or e.kind == "run":
            return RUN
        if e.ph:
            self.owner[e.ph] = len(self.iters) - 1
        self.iters[-1].append(e)
        return None


RUN = object()          #: offer(): the call runs now (what was recorded is replayed first)
_LOOP_END = object()
_MEMBAR = "AscendC::Reg::LocalMemBar"
_SCALAR_MEM = frozenset({MemType.SCALAR_LOAD, MemType.SCALAR_STORE, MemType.SCALAR_ALL})
_REG_KIND_NAMES = frozenset({"RegTensor", "MaskReg", "UnalignRegForLoad", "UnalignRegForStore"})


def _has_refs(words: tuple) -> bool:
    """Whether a call's words hold a by-reference argument (walking the groups as ``bridge.decode``)."""
    i, n = 0, len(words)
    while i < n:
        kind = words[i] & 0xFF
        if kind == bridge.T_REF or kind == bridge.T_UBREF:
            return True
        i += bridge.group_len(words, i)
    return False


def _orders_scalar_access(words: tuple) -> bool:
    """Whether a ``LocalMemBar<src, dst>`` orders the VF's scalar UB accesses (``SCALAR_*``): C++ reads or
    writes UB through a ``__ubuf__`` pointer on one side of it, which no recorded call would see (a load
    deferred past a scalar store, a scalar load before the deferred store it waits for)."""
    targs, _, _ = bridge.decode(words)
    return any(isinstance(t, MemType) and t in _SCALAR_MEM for t in targs)


def _update_mask_count(words: tuple) -> int | None:
    """The count ``UpdateMask<T>(count)`` leaves (count -= VL / sizeof(T), saturating at 0), or None."""
    targs, _, refs = bridge.decode(words)
    if len(refs) != 1 or not targs or not hasattr(targs[0], "itemsize"):
        return None
    lanes = 256 // targs[0].itemsize
    c = int(refs[0].value)
    return 0 if c < lanes else c - lanes


# -- the bridge's side -------------------------------------------------------------------------------
def start(guard, handle: int) -> bool:
    """The first ``loop_iter`` of the hardware loop ``guard`` (entered: ``guard.loop`` set): record it?"""
    from toolkit.ascendc.regbase.loopbatch import deferrable, refused
    if STATE.rec is not None or guard.loop is None or guard.loop.flat or not deferrable(guard.rec):
        return False
    if refused(guard.where):
        guard.refused = True
        return False
    STATE.rec = Recording(guard, handle, current())
    return True


def dispatch(api, fid: int, line: int, words: tuple) -> Any:
    """A call of C++ while a loop is recorded or a core's abort is pending: its result, or :data:`RUN`."""
    if STATE.pending:
        if api.name not in _UNWIND_OK:
            STATE.pending = False
            return bridge.ABORT
        if api.name == "rt.vf_end":             # the VF ends as it does when an abort unwinds it
            words = (*words[:-1], 1)
        return execute(Entry(api, fid, line, words, 0, "void"))
    while STATE.rec is not None:
        r = STATE.rec
        got = r.offer(api, fid, line, words)
        if got is _LOOP_END:
            if end_loop(r, api, fid, line, words) is bridge.ABORT:
                STATE.pending = True           # loop_end is a destructor: C++ hears of it at its next call
            return None
        if got is not RUN:
            return got
        if flush(r, api) is bridge.ABORT:
            return bridge.ABORT
    return RUN


def flush(r: Recording, api) -> Any:
    """Replay what ``r`` recorded, one call at a time; the loop goes on unrecorded (and the loop's site is
    remembered as one that does not batch: ``api``, called in its body, returns what C++ reads at once)."""
    from toolkit.ascendc.regbase.loopbatch import _refuse
    STATE.rec = None
    _refuse(r.ctx, r.guard.where, f"{api.name.rsplit('::', 1)[-1]} passes C++ a value it reads at once", True)
    return replay_serial(r, len(r.iters))


def end_loop(r: Recording, api, fid: int, line: int, words: tuple) -> Any:
    """The recorded loop ends: replay its body batched, or serially; then its ``loop_end``."""
    from .loopdefer_batch import replay_batched
    STATE.rec = None
    stopped = not replay_batched(r) and replay_serial(r, len(r.iters)) is bridge.ABORT
    execute(Entry(api, fid, line, words, 0, "void"))     # (after an abort too: the unwinding runs it)
    return bridge.ABORT if stopped else None


def replay_serial(r: Recording, count: int) -> Any:
    """Iterations ``0 .. count-1`` as the normal path runs them (ABORT: a fatal diagnostic stopped the core)."""
    rec, loop = r.guard.rec, r.guard.loop
    for it in r.iters[:count]:
        rec.loop_iteration(loop)
        for e in it:
            if feed(e) is bridge.ABORT:
                STATE.rec = None
                return bridge.ABORT
    return None


def feed(e: Entry) -> Any:
    """One replayed call: into the recording a replay opened (an inner loop), or run."""
    while STATE.rec is not None:
        r = STATE.rec
        got = r.offer_entry(e)
        if got is _LOOP_END:
            return end_loop(r, e.api, e.fid, e.line, e.words)
        if got is not RUN:
            return got
        if flush(r, e.api) is bridge.ABORT:
            return bridge.ABORT
    return execute(e)


def execute(e: Entry) -> Any:
    """Run one call exactly as ``bridge.dispatch`` does; bind its placeholder to the object it made."""
    prog = bridge.PROGRAM
    SOURCE_LOCATION.set((prog.strings[e.fid], e.line))
    try:
        targs, args, refs = bridge.decode(e.words)
        result = e.api(targs, args)
        if not e.ph:
            return bridge.encode(result, refs)
        if e.kind in ("new", "copy") or e.api.name == "rt.loop_begin":
            rebind(result, e.ph)
        else:
            bind(result, e.ph)
        return e.ph
    except KernelAbort as stop:
        prog.aborted(stop.diag)
        return bridge.ABORT
    except Exception as exc:
        return bridge._unsupported(e.api, exc)


def bind(obj: Any, ph: int) -> None:
    prog = bridge.PROGRAM
    prog.objects[ph] = obj
    prog._handles[id(obj)] = ph


def rebind(fresh: int, ph: int) -> None:
    """The object a replayed call made under handle ``fresh`` takes the placeholder's handle ``ph``."""
    prog = bridge.PROGRAM
    obj = prog.objects.pop(fresh)
    if prog._handles.get(id(obj)) == fresh:
        del prog._handles[id(obj)]
    bind(obj, ph)
    if fresh in prog.declared:
        prog.declared.discard(fresh)
        prog.declared.add(ph)


def core_ended() -> bool:
    """A core's kernel returned: whether an abort of a replay was still pending (the core aborted)."""
    STATE.rec = None
    was, STATE.pending = STATE.pending, False
    return was
