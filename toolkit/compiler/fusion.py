"""Compiler VF fusion (``--cce-simd-vf-fusion=true``), modelled on a core's event stream after the run.

Two VF instances that follow each other on the vector pipe with nothing else of the core in between (no
DMA, queue operation, flag, barrier or scalar access) are one VF for the hardware when fusion is on: one
launch, one parameter push of both parameter lists, the second body after the first behind a conservative
VST->VLD barrier (the compiler cannot prove the bodies' UB accesses independent). A VF marked
``__no_simd_vf_fusion__`` (``meta["no_fusion"]``) is never merged, nor is a MemBase call's library VF.
Fusion is off by default, as the vendor samples are profiled (``--cce-simd-vf-fusion=false``); both routes
apply this one pass when asked (``launch(..., vf_fusion=True)``, ``migrate-check run --vf-fusion``).
"""
from __future__ import annotations

from toolkit.record.events import Instr, VfCall

_BARRIER = Instr("RV_MEMBAR", -1, (), "VST_VLD")


def _shift(ins: Instr, by: int) -> Instr:
    return ins._replace(dst=ins.dst + by if ins.dst >= 0 else ins.dst,
                        srcs=tuple(s + by if s >= 0 else s for s in ins.srcs),
                        mask=ins.mask + by if ins.mask >= 0 else ins.mask)


def _max_id(instrs) -> int:
    top = 0
    for ins in instrs:
        top = max(top, ins.dst, ins.mask, *ins.srcs) if ins.srcs else max(top, ins.dst, ins.mask)
    return top


def _fusible(ev) -> bool:
    return isinstance(ev, VfCall) and ev.launch != "membase" and not ev.meta.get("no_fusion")


def merge(a: VfCall, b: VfCall) -> VfCall:
    by = _max_id(a.instrs)
    instrs = (*a.instrs, _BARRIER, *(_shift(i, by) for i in b.instrs))
    meta = {k: v for k, v in a.meta.items() if k != "fused"}
    meta["fused"] = [*a.meta.get("fused", [a.name]), b.name]
    if a.meta.get("scalar_args") or b.meta.get("scalar_args"):
        meta["scalar_args"] = a.meta.get("scalar_args", 0) + b.meta.get("scalar_args", 0)
    return VfCall(f"{a.name}+{b.name}", a.launch, a.nparams + b.nparams, instrs, a.where, meta)


def fuse_vfs(events: list) -> list:
    """The core's events with every run of adjacent fusible VFs merged into one VF."""
    out: list = []
    for ev in events:
        if _fusible(ev) and out and _fusible(out[-1]):
            out[-1] = merge(out[-1], ev)
        else:
            out.append(ev)
    return out
