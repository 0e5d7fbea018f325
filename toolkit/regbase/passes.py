"""Compiler effects applied to a recorded VF stream before it becomes an event.

The vendor traces count what the compiler emitted, not what the source says. We model three effects,
all generic (no kernel knowledge):

1. *Mask CSE and hoisting*: a ``CreateMask`` (PSET) has no inputs, so identical ones are emitted once
   per VF (done at record time in ``mask.py``); a PLT whose count input is identical in every
   iteration of its loop is hoisted (done at loop exit in ``vf.py``).
2. *Dead code elimination* (here): a pure register instruction whose result is never read is dropped
   (e.g. ``MaskReg mask = CreateMask(ALL)`` immediately overwritten by ``UpdateMask`` in the loop).
   PLT is kept (it also updates the scalar count), stores and loop markers are never dead.
3. Implicit predicates of unmasked APIs (``Duplicate(dst, scalar)``): see ``arith.py``.
"""
from __future__ import annotations

from ..events import ITER
from ..machine.isa import SIDE_EFFECTS

_NEVER_DEAD = SIDE_EFFECTS | {ITER}


def compile_passes(instrs: list) -> list:
    reads: dict[int, int] = {}
    for ins in instrs:
        for s in ins[2]:
            reads[s] = reads.get(s, 0) + 1
    alive = [True] * len(instrs)
    changed = True
    while changed:
        changed = False
        for k in range(len(instrs) - 1, -1, -1):
            if not alive[k]:
                continue
            op, dst, srcs = instrs[k][:3]
            if dst >= 0 and op not in _NEVER_DEAD and reads.get(dst, 0) == 0:
                alive[k] = False
                changed = True
                for s in srcs:
                    reads[s] -= 1
    if all(alive):
        return instrs
    return [ins for ins, a in zip(instrs, alive) if a]
