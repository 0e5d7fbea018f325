"""The C API register moves and register set-up: ``asc_loadalign*`` / ``asc_storealign*`` (every dist and
post-update form), the unaligned pairs, gather / scatter, ``asc_copy``, masks (``asc_create_mask_b*``,
``asc_update_mask_b*``, ``asc_get_mask_spr_b*``), address registers and ``asc_mem_bar``: each the Reg
API function of the same semantic.

The C names spell the dist the Reg API takes as a template argument; where it depends on the element
width the register's type picks it (``asc_loadalign_brc_elem`` on a vector_half is DIST_BRC_B16).
Assumptions where the pages are silent: an ``int32_t offset`` of a form without post-update moves the
address by that many elements (MaskReg forms: bytes, the Reg MaskReg unit); the forms without a mask
argument (``_1st``, ``_intlv``, unmasked ``asc_gather_datablock``) use an all-true predicate;
``asc_update_addr_reg_b*(offset0 ..)`` pairs offset k with the k-th enclosing hardware loop counted from
the innermost (offset0: the innermost loop, as the page's parameter table says)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.regbase.mask import pset
from toolkit.ascendc.regbase.types import (
    AddrReg,
    DataCopyMode,
    LoadDist,
    MaskDist,
    MaskPattern,
    MaskReg,
    MemType,
    PostLiteral,
    RegTensor,
    StoreDist,
)
from toolkit.ascendc.regbase.vf import current_recorder
from toolkit.ascendc.tensor import UbPtr

from ._bind import bind

POST = PostLiteral.POST_MODE_UPDATE
BLOCK = DataCopyMode.DATA_BLOCK_COPY
_BITS = {1: "B8", 2: "B16", 4: "B32", 8: "B64"}
_W = {"b8": np.uint8, "b16": np.uint16, "b32": np.uint32}


def _sized(prefix: str, enum: type) -> Callable[[RegTensor], Any]:
    """The dist ``<prefix>_B<8*width>`` of a register's element type."""
    return lambda r: enum[f"{prefix}_{_BITS[r.dtype.itemsize]}"]


def _fixed(member: Any) -> Callable[[RegTensor], Any]:
    return lambda r: member


def _all_true(reg: RegTensor) -> MaskReg:
    return pset(current_recorder(), reg.dtype.itemsize, MaskPattern.ALL)


def _moved(p: UbPtr, k: Any, mask_form: bool) -> UbPtr:
    return UbPtr(p.addr + int(k), p.dtype) if mask_form else p + int(k)


def _named(name: str, fn: Callable, doc: str) -> Callable:
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}``: {doc}"
    return fn


def _load(name: str, dist: Callable | None, mdist: MaskDist | None = None, post: bool = False) -> Callable:
    """A LoadAlign family member: ``(dst, src [, offset | addr_reg])``, its dual (``dst0, dst1, src ...``)
    and block-strided (``dst, src, block_stride, repeat_stride, mask``) forms; ``post``: src moves."""
    def capi(dst: Any, *args: Any) -> None:
        if isinstance(dst, MaskReg):
            src, rest = args[0], args[1:]
            if post:
                return Reg.LoadAlign[POST, mdist](dst, src, *rest)
            if rest and not isinstance(rest[0], AddrReg):
                return Reg.LoadAlign[mdist](dst, _moved(src, rest[0], True))
            return Reg.LoadAlign[mdist](dst, src, *rest)
        dual = isinstance(args[0], RegTensor)
        regs, src, rest = ((dst, args[0]), args[1], args[2:]) if dual else ((dst,), args[0], args[1:])
        if len(rest) == 3:                                      # block_stride, repeat_stride, mask
            return Reg.LoadAlign[BLOCK, POST if post else PostLiteral.POST_MODE_NORMAL](dst, src, *rest)
        d = dist(dst)
        if post:
            return Reg.LoadAlign[POST, d](*regs, src, *rest)
        if rest and not isinstance(rest[0], AddrReg):
            return Reg.LoadAlign[d](*regs, _moved(src, rest[0], False))
        return Reg.LoadAlign[d](*regs, src, *rest)
    return _named(name, capi, "Reg::LoadAlign" + ("<POST_MODE_UPDATE>" if post else ""))


def _store(name: str, dist: Callable | None, mdist: MaskDist | None = None, post: bool = False,
           maskless: bool = False) -> Callable:
    """A StoreAlign family member: ``(dst, src [, offset | addr_reg], mask)``, the MaskReg forms ``(dst,
    mask_src [, offset | addr_reg])``, the dual ``(dst, src0, src1 [, offset])`` and block-strided forms;
    ``maskless``: the form takes no mask (an all-true one is used)."""
    def capi(dst: UbPtr, src: Any, *args: Any) -> None:
        if isinstance(src, MaskReg):
            if post:
                return Reg.StoreAlign[POST, mdist](dst, src, *args)
            if args and not isinstance(args[0], AddrReg):
                return Reg.StoreAlign[mdist](_moved(dst, args[0], True), src)
            return Reg.StoreAlign[mdist](dst, src, *args)
        regs, rest = ((src, args[0]), args[1:]) if args and isinstance(args[0], RegTensor) else ((src,), args)
        if len(rest) == 3:                                      # block_stride, repeat_stride, mask
            return Reg.StoreAlign[BLOCK, POST if post else PostLiteral.POST_MODE_NORMAL](dst, src, *rest)
        if maskless:
            rest = (*rest, _all_true(src))
        d = dist(src)
        if post:
            return Reg.StoreAlign[POST, d](dst, *regs, *rest)
        if len(rest) == 2 and not isinstance(rest[0], AddrReg):
            return Reg.StoreAlign[d](_moved(dst, rest[0], False), *regs, rest[1])
        return Reg.StoreAlign[d](dst, *regs, *rest)
    return _named(name, capi, "Reg::StoreAlign" + ("<POST_MODE_UPDATE>" if post else ""))


_LD = LoadDist
_NORM, _BLK, _UNPACK4 = _fixed(_LD.DIST_NORM), _fixed(_LD.DIST_BLK), _fixed(_LD.DIST_UNPACK4_B8)
_E2B, _BRC, _US, _DS = _sized("DIST_E2B", _LD), _sized("DIST_BRC", _LD), _sized("DIST_US", _LD), _sized("DIST_DS", _LD)
_UNPACK, _DINTLV = _sized("DIST_UNPACK", _LD), _sized("DIST_DINTLV", _LD)
_MN, _MUS, _MDS, _MPACK = MaskDist.DIST_NORM, MaskDist.DIST_US, MaskDist.DIST_DS, MaskDist.DIST_PACK
_SN, _FIRST = _fixed(StoreDist.DIST_NORM), _sized("DIST_FIRST_ELEMENT", StoreDist)
_PACK, _PACK4, _INTLV = _sized("DIST_PACK", StoreDist), _fixed(StoreDist.DIST_PACK4_B32), _sized("DIST_INTLV", StoreDist)

LOADS = [
    _load("asc_loadalign", _NORM, _MN), _load("asc_loadalign_postupdate", _NORM, _MN, post=True),
    _load("asc_loadalign_brc_elem", _BRC), _load("asc_loadalign_brc_elem_postupdate", _BRC, post=True),
    _load("asc_loadalign_brc_datablock", _BLK), _load("asc_loadalign_brc_datablock_postupdate", _BLK, post=True),
    _load("asc_loadalign_brc_elem2datablock", _E2B),
    _load("asc_loadalign_brc_elem2datablock_postupdate", _E2B, post=True),
    _load("asc_loadalign_upsample", _US, _MUS), _load("asc_loadalign_upsample_postupdate", _US, _MUS, post=True),
    _load("asc_loadalign_downsample", _DS, _MDS),
    _load("asc_loadalign_downsample_postupdate", _DS, _MDS, post=True),
    _load("asc_loadalign_unpack", _UNPACK), _load("asc_loadalign_unpack_postupdate", _UNPACK, post=True),
    _load("asc_loadalign_unpack4", _UNPACK4), _load("asc_loadalign_unpack4_postupdate", _UNPACK4, post=True),
    _load("asc_loadalign_deintlv", _DINTLV), _load("asc_loadalign_deintlv_postupdate", _DINTLV, post=True),
    # deprecated names (asc_loadalign_v1 / v4 pages): BRC, BRCV2 = DataBlock, BRCV3 = elem2datablock, UNPACKV2
    _load("asc_loadalign_brc", _BRC), _load("asc_loadalign_brc_v2", _BLK), _load("asc_loadalign_brc_v3", _E2B),
    _load("asc_loadalign_unpack_v2", _UNPACK4),
    _load("asc_loadalign_brc_postupdate", _BRC, post=True), _load("asc_loadalign_brc_postupdate_v2", _BLK, post=True),
    _load("asc_loadalign_brc_postupdate_v3", _E2B, post=True),
    _load("asc_loadalign_unpack_postupdate_v2", _UNPACK4, post=True),
]
STORES = [
    _store("asc_storealign", _SN, _MN), _store("asc_storealign_postupdate", _SN, _MN, post=True),
    _store("asc_storealign_1st", _FIRST, maskless=True),
    _store("asc_storealign_1st_postupdate", _FIRST, post=True, maskless=True),
    _store("asc_storealign_intlv", _INTLV, maskless=True),
    _store("asc_storealign_pack", _PACK, _MPACK), _store("asc_storealign_pack_postupdate", _PACK, _MPACK, post=True),
    _store("asc_storealign_pack_quarter", _PACK4),
    _store("asc_storealign_pack_quarter_postupdate", _PACK4, post=True),
    _store("asc_storealign_pack_v2", _PACK4), _store("asc_storealign_pack_postupdate_v2", _PACK4, post=True),
]


def _unaligned() -> list[Callable]:
    def asc_loadunalign_postupdate(dst: RegTensor, ureg: Any, src: UbPtr, *rest: Any) -> None:
        if rest and isinstance(rest[0], AddrReg):               # (.., addr_reg& offset, uint32_t inc)
            return Reg.LoadUnAlign(dst, ureg, src, rest[0], 0)
        return Reg.LoadUnAlign[PostLiteral.POST_MODE_UPDATE](dst, ureg, src, *rest)

    def asc_storeunalign(dst: UbPtr, ureg: Any, src: RegTensor, count: Any) -> None:
        Reg.StoreUnAlign(UbPtr(dst.addr, dst.dtype), src, ureg, count)       # dst is not moved

    def asc_storeunalign_postupdate(dst: UbPtr, ureg: Any, src: Any, *rest: Any) -> None:
        Reg.StoreUnAlign(dst, src, ureg, *rest)          # AR form, MaskReg form, count form (dst moves), addr_reg

    def asc_storeunalign_post(dst: UbPtr, ureg: Any, *rest: Any) -> None:
        Reg.StoreUnAlignPost(UbPtr(dst.addr, dst.dtype), ureg, *rest)

    def asc_storeunalign_post_postupdate(dst: UbPtr, ureg: Any, offset: Any) -> None:
        Reg.StoreUnAlignPost[PostLiteral.POST_MODE_UPDATE](dst, ureg, offset)

    return [_named(f.__name__, f, doc) for f, doc in (
        (asc_loadunalign_postupdate, "Reg::LoadUnAlign (post-update or AddrReg form)"),
        (asc_storeunalign, "Reg::StoreUnAlign count form, the address kept"),
        (asc_storeunalign_postupdate, "Reg::StoreUnAlign (AR form after a squeeze, MaskReg, count or AddrReg)"),
        (asc_storeunalign_post, "Reg::StoreUnAlignPost, the address kept"),
        (asc_storeunalign_post_postupdate, "Reg::StoreUnAlignPost<POST_MODE_UPDATE>"))]


def _discrete() -> list[Callable]:
    def asc_gather_datablock(dst: RegTensor, src: UbPtr, index: RegTensor, mask: MaskReg | None = None) -> None:
        Reg.GatherB(dst, src, index, _all_true(dst) if mask is None else mask)

    def asc_scatter(dst: Any, src: Any, index: RegTensor, mask: MaskReg) -> None:
        if isinstance(dst, RegTensor):                          # the (src, dst, index, mask) spelling
            dst, src = src, dst
        Reg.Scatter(dst, src, index, mask)

    def asc_copy(dst: Any, src: Any, *rest: Any) -> None:
        if isinstance(dst, MaskReg) and isinstance(src, RegTensor):      # (vector_bool&, vector_u16/u32, part)
            return Reg.MaskGenWithRegTensor[src.dtype, int(rest[0])](dst, src)
        Reg.Move(dst, src, *rest)                               # registers: MERGING; predicates: PMOV

    return [_named(f.__name__, f, doc) for f, doc in (
        (asc_gather_datablock, "Reg::GatherB"), (asc_scatter, "Reg::Scatter"),
        (asc_copy, "Reg::Move (MERGING), or Reg::MaskGenWithRegTensor<T, part>"))]


def _addr_reg(name: str, width: Any) -> Callable:
    def capi(*offsets: Any) -> AddrReg:
        loops = current_recorder().loops
        pairs = []
        for k, stride in enumerate(offsets):
            index = loops[-1 - k].iteration if k < len(loops) else 0
            pairs += [max(index, 0), int(getattr(stride, "value", stride))]
        return Reg.CreateAddrReg[width](*pairs)
    return _named(name, capi, "Reg::CreateAddrReg with the iteration indices of the enclosing hardware loops")


def _create_mask(name: str, width: Any) -> Callable:
    def capi(pattern: Any) -> MaskReg:
        return Reg.CreateMask[width, MaskPattern(int(getattr(pattern, "value", pattern)))]()
    return _named(name, capi, "Reg::CreateMask with the PAT_* pattern")


#: asc_mem_bar's MEM_TYPE values, in the page's order: (source, destination) of LocalMemBar
MEM_TYPES = [("VV_ALL", "VEC_ALL", "VEC_ALL"), ("VST_VLD", "VEC_STORE", "VEC_LOAD"),
             ("VLD_VST", "VEC_LOAD", "VEC_STORE"), ("VST_VST", "VEC_STORE", "VEC_STORE"),
             ("VS_ALL", "VEC_ALL", "SCALAR_ALL"), ("VST_LD", "VEC_STORE", "SCALAR_LOAD"),
             ("VLD_ST", "VEC_LOAD", "SCALAR_STORE"), ("VST_ST", "VEC_STORE", "SCALAR_STORE"),
             ("SV_ALL", "SCALAR_ALL", "VEC_ALL"), ("ST_VLD", "SCALAR_STORE", "VEC_LOAD"),
             ("LD_VST", "SCALAR_LOAD", "VEC_STORE"), ("ST_VST", "SCALAR_STORE", "VEC_STORE"),
             ("SS_ALL", "SCALAR_ALL", "SCALAR_ALL"), ("ST_LD", "SCALAR_STORE", "SCALAR_LOAD"),
             ("LD_ST", "SCALAR_LOAD", "SCALAR_STORE"), ("ST_ST", "SCALAR_STORE", "SCALAR_STORE")]


def asc_mem_bar(mem_type: Any) -> None:
    """``asc_mem_bar(MEM_TYPE)``: Reg::LocalMemBar<source, destination> of the MEM_TYPE value."""
    _, src, dst = MEM_TYPES[int(getattr(mem_type, "value", mem_type))]
    Reg.LocalMemBar[MemType[src], MemType[dst]]()


_FUNCS = [*LOADS, *STORES, *_unaligned(), *_discrete(), asc_mem_bar,
          bind("asc_load", Reg.Load), bind("asc_store", Reg.Store), bind("asc_gather", Reg.Gather),
          bind("asc_loadunalign_pre", Reg.LoadUnAlignPre), bind("asc_loadunalign", Reg.LoadUnAlign),
          *[bind(f"asc_update_mask_{w}", Reg.UpdateMask, t) for w, t in _W.items()],
          *[bind(f"asc_get_mask_spr_{w}", Reg.MoveMask, t) for w, t in _W.items() if w != "b8"],
          *[_create_mask(f"asc_create_mask_{w}", t) for w, t in _W.items()],
          *[_addr_reg(f"asc_{kind}_{w}", t) for kind in ("update_addr_reg", "create_iter_reg") for w, t in _W.items()]]
globals().update({f.__name__: f for f in _FUNCS})
__all__ = [f.__name__ for f in _FUNCS]
