"""Which Python ``__simd_vf__`` functions touch UB with scalar accesses (or print): the static check
that keeps such a VF on its own core in lock-step (``toolkit.engine.lockstep.VfRequest``).

In lock-step the cores that reach a VF with equal parameters run its body once over their core axis.
The vector APIs see every core; ``LocalTensor.GetValue`` / ``SetValue`` / ``Print`` and device printing
are one Python value, one write or one text for one core, and so is ``GetBlockIdx()`` (the names:
``toolkit.ascendc.percore``). SIMD_VF functions may do scalar UB accesses (ordered by
``LocalMemBar<..., SCALAR_*>``), so a VF whose code, or a kernel function it calls, names one of them
runs per core. The check reads the compiled code (the names it uses, nested code objects
included; the globals and closure cells those names resolve to, a few calls deep), so it needs no
source. A name made at run time (``getattr(t, "Get" + "Value")``) is not seen: such a call in a VF
shared by several cores is refused with a diagnostic (``toolkit.engine.runtime.one_core``). The ``.asc``
route's counterpart is ``toolkit.asc.rawub``.
"""
from __future__ import annotations

import types

from toolkit.ascendc.percore import CORE_NAMES, PRINT_NAMES, SCALAR_METHODS

_WATCHED = SCALAR_METHODS | PRINT_NAMES | CORE_NAMES
_DEPTH = 4


def touches_ub(fn) -> bool:
    """Whether the kernel function ``fn`` (a VF's Python function) does scalar UB access or prints."""
    return _touches(fn, 0, set())


def _touches(fn, depth: int, seen: set) -> bool:
    code = fn.__code__
    if code in seen:
        return False
    if depth > _DEPTH:
        return True                                 # too deep to follow: taken as touching (exact)
    seen.add(code)
    names = _names(code)
    if names & _WATCHED:
        return True
    cells = {}
    for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            cells[name] = cell.cell_contents
        except ValueError:                          # a cell not yet filled
            continue
    for name in names | set(cells):
        f = cells[name] if name in cells else fn.__globals__.get(name)
        f = getattr(f, "fn", f)                     # another VF object: its function
        if isinstance(f, types.FunctionType) and not f.__module__.startswith("toolkit."):
            if _touches(f, depth + 1, seen):
                return True
    return False


def _names(code) -> set[str]:
    """Every global, attribute and method name ``code`` and the code nested in it use."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _names(c)
    return out


__all__ = ["touches_ub"]
