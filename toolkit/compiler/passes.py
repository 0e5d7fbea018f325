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

from collections import Counter
from itertools import chain

from toolkit.machine.isa import SIDE_EFFECTS
from toolkit.record.events import ITER

_NEVER_DEAD = SIDE_EFFECTS | {ITER}


def compile_passes(instrs: list) -> list:
    reads = Counter(chain.from_iterable(ins[2] for ins in instrs))
    # only pure register writes can die: sweep just those, last first (a reader follows its writer, so one
    # sweep frees whole chains; sweeps repeat until nothing changes, as before)
    candidates = [k for k, ins in enumerate(instrs) if ins[1] >= 0 and ins[0] not in _NEVER_DEAD]
    candidates.reverse()
    dead = set()
    changed = True
    while changed:
        changed = False
        for k in candidates:
            if k in dead:
                continue
            dst, srcs = instrs[k][1:3]
            if reads[dst] == 0:
                dead.add(k)
                changed = True
                for s in srcs:
                    reads[s] -= 1
    if not dead:
        return instrs
    return [ins for k, ins in enumerate(instrs) if k not in dead]
