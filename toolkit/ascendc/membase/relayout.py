"""MemBase data relayout: ``Transpose`` (16 x 16 blocks of 16-bit data; the TransposeParamsExt form adds
[N,C,H,W] <-> [N,H,W,C]), ``TransDataTo5HD`` (16 source and 16 destination 32 B blocks per repeat), and
``Interleave`` / ``DeInterleave``.

* Transpose(dst, src): dst = src.T for one 16 x 16 matrix of a 16-bit type (512 B).
* TransDataTo5HD: repeat r reads block i at ``srcList[i] + r*srcRepStride*32 B`` and writes block j at
  ``dstList[j] + r*dstRepStride*32 B`` (when repeatTimes is 1 the page says the strides apply once:
  both start at the list address plus one stride). 16-bit: dst_j[i] = src_i[j]. 32-bit (8 per block):
  dst_{2j}[i] = src_i[j], dst_{2j+1}[i] = src_{8+i}[j] (assumed from the instruction's 16 x 8 shape).
  8-bit: the 16 bytes of each source block's low / high half (srcHighHalf) form a 16 x 16 matrix whose
  transpose goes to the low / high half (dstHighHalf) of the destination blocks.
* Interleave(dst0, dst1, src0, src1, count): z = [src0_0, src1_0, src0_1, ...]; dst0 = z[:count],
  dst1 = z[count:]. DeInterleave: z = src0 ++ src1; dst0 = z[0::2], dst1 = z[1::2].
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import scalar_value
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .elementwise import MemBaseApi, check_dtype, type_name
from .executor import Operand, apply
from .level0 import BLOCK, from_arrays
from .types import U64, dts
from .vfstream import count_stream, emit

UB_ADDR_MASK = 0xFFFFFFFF


class TransposeType(Enum):
    TRANSPOSE_TYPE_NONE = 0
    TRANSPOSE_NZ2ND_0213 = 1
    TRANSPOSE_NZ2NZ_0213 = 2
    TRANSPOSE_NZ2NZ_012_WITH_N = 3
    TRANSPOSE_NZ2ND_012_WITH_N = 4
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6
    TRANSPOSE_ND2ND_ONLY = 7
    TRANSPOSE_ND_UB_GM = 8
    TRANSPOSE_GRAD_ND_UB_GM = 9
    TRANSPOSE_ND2ND_B16 = 10
    TRANSPOSE_NCHW2NHWC = 11
    TRANSPOSE_NHWC2NCHW = 12
    TRANSPOSE_ND2ND_021 = 13          # 13-16: the high-level Transpose (高阶API/张量变换/Transpose-96.md)
    TRANSPOSE_ND2ND_102 = 14
    TRANSPOSE_ND2ND_210 = 15
    TRANSPOSE_ND2NZ_WITH_INTLV = 16


@dataclass
class TransposeParamsExt:
    nSize: int = 0
    cSize: int = 0
    hSize: int = 0
    wSize: int = 0
    transposeType: Any = TransposeType.TRANSPOSE_ND2ND_B16


@dataclass
class TransDataTo5HDParams:
    dstHighHalf: bool = False
    srcHighHalf: bool = False
    repeatTimes: int = 1
    dstRepStride: int = 0
    srcRepStride: int = 0


_B16 = dts("int16_t uint16_t half")
_EXT = dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float")


def _permute(ctx, api: str, dst: LocalTensor, src: LocalTensor, perm: np.ndarray, opcode: str) -> None:
    """dst[k] = src[perm[k]] as one VF step (every element is read before any is written)."""
    n = perm.size
    dt = dst.dtype
    step = np.zeros(n, np.int64)
    dacc = from_arrays(("perm-d", n), np.arange(n, dtype=np.int64), step, 1, n * dt.itemsize)
    sacc = from_arrays(("perm-s", n, hash(perm.tobytes())), perm.astype(np.int64), step.copy(), 1,
                       (int(perm.max()) + 1) * dt.itemsize if n else 0)
    if n:
        apply(ctx, api, Operand(dst.addr, dt, dacc), [Operand(src.addr, src.dtype, sacc)], lambda v: v[0])
    emit(ctx, api, 3, count_stream(opcode, n, 256 // dt.itemsize, ((dst.addr, dt.itemsize), (src.addr, dt.itemsize))),
         {"dtype": type_name(dt), "form": "count", "count": n})


def _transpose(dst: LocalTensor, src: LocalTensor, sharedTmpBuffer: LocalTensor | None = None, *params: Any) -> None:
    """``Transpose(dst, src)`` (16 x 16, 16-bit) or ``Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt)``
    (the .asc route sends the struct's five fields)."""
    api = "Transpose"
    ctx = current()
    if _hl_form(sharedTmpBuffer, params):             # the high-level forms (a ConfusionTransposeTiling last)
        from toolkit.ascendc.highlevel.transform_layout import hl_transpose
        hl_transpose(dst, src, *((sharedTmpBuffer,) if sharedTmpBuffer is not None else ()), *params)
        return
    transposeParams = params[0] if len(params) == 1 else TransposeParamsExt(*params) if params else None
    if transposeParams is not None and not isinstance(transposeParams.transposeType, TransposeType):
        transposeParams.transposeType = TransposeType(int(transposeParams.transposeType))
    dt = dst.dtype
    if src.dtype != dt:
        ctx.report("BAD_PARAMETER", f"{api}: dst and src types differ")
    if src.addr == dst.addr:
        ctx.report("BAD_PARAMETER", f"{api}: dst and src must not be the same buffer")
    kind = TransposeType.TRANSPOSE_ND2ND_B16 if transposeParams is None else transposeParams.transposeType
    if kind == TransposeType.TRANSPOSE_ND2ND_B16:
        check_dtype(ctx, api, dt, _B16)
        perm = np.arange(256).reshape(16, 16).T.ravel()
    elif kind in (TransposeType.TRANSPOSE_NCHW2NHWC, TransposeType.TRANSPOSE_NHWC2NCHW):
        check_dtype(ctx, api, dt, _EXT)
        p = transposeParams
        n, c, h, w = (int(scalar_value(v)) for v in (p.nSize, p.cSize, p.hSize, p.wSize))
        if not (0 <= c <= 4095 and 0 <= h * w <= 4095) or (h * w * dt.itemsize) % 32:
            ctx.report("BAD_PARAMETER", f"{api}: cSize {c} must be <= 4095 and hSize * wSize ({h * w}) <= 4095 "
                       f"with hSize * wSize * sizeof(T) a multiple of 32 B")
        _check_tmp(ctx, api, sharedTmpBuffer, dt, c, kind)
        idx = np.arange(n * c * h * w).reshape((n, c, h, w) if kind == TransposeType.TRANSPOSE_NCHW2NHWC
                                               else (n, h, w, c))
        perm = np.transpose(idx, (0, 2, 3, 1) if kind == TransposeType.TRANSPOSE_NCHW2NHWC else (0, 3, 1, 2)).ravel()
    else:
        ctx.report("BAD_PARAMETER", f"{api}: transposeType {getattr(kind, 'name', kind)} is not supported")
        return
    _permute(ctx, api, dst, src, perm, "RV_VTRANS")


def _hl_form(tmp: Any, params: tuple) -> bool:
    last = params[-1] if params else tmp
    return type(last).__name__ == "ConfusionTransposeTiling"


def _check_tmp(ctx, api: str, tmp: LocalTensor | None, dt: np.dtype, c: int, kind: TransposeType) -> None:
    """The sharedTmpBuffer the page asks for: (cSize + 2) (NCHW2NHWC) or (2 cSize + 1) (NHWC2NCHW) tiles of
    h0 x w0 elements (h0 = 32 for 8-bit types, else 16; w0 = 32 B of elements)."""
    h0, w0 = (32 if dt.itemsize == 1 else 16), 32 // dt.itemsize
    tiles = c + 2 if kind == TransposeType.TRANSPOSE_NCHW2NHWC else 2 * c + 1
    need = tiles * h0 * w0 * dt.itemsize
    have = 0 if tmp is None else tmp.count * tmp.dtype.itemsize
    if have < need:
        ctx.report("BAD_PARAMETER", f"{api}: sharedTmpBuffer holds {have} B, the conversion needs {need} B")
    elif tmp is not None:
        ctx.ub.check(tmp.addr, need, api, 32)


Transpose = MemBaseApi(_transpose, "Transpose",
                       batchable=lambda args: not _hl_form(args[2] if len(args) > 2 else None, tuple(args[3:])))


def _list_tensor(ctx, slot: int, lst: Any) -> LocalTensor:
    """An address list given as 16 addresses or tensors, stored (scalar stores, as the C++ array forms do)
    into reserved UB (machine file ``[membase] list_ub_addr``): the tensor form's list."""
    t = LocalTensor(int(ctx.machine.params["membase"]["list_ub_addr"]) + slot * 128, U64, 16)
    for k, x in enumerate(lst):
        t.SetValue(k, x.addr if isinstance(x, LocalTensor) else int(scalar_value(x)))
    return t


def _addresses(ctx, api: str, lst: Any) -> list[int]:
    """16 UB byte addresses of a LocalTensor<uint64_t> holding them."""
    if isinstance(lst, LocalTensor):
        if lst.dtype != U64:
            ctx.report("BAD_PARAMETER", f"{api}: an address list tensor is uint64_t, not {type_name(lst.dtype)}")
        ctx.ub.check(lst.addr, 128, api, 32)
        if ctx.dry_run:
            return [lst.addr] * 16
        ctx.ub.require_defined(lst.addr, 128, f"{api} (the address list)")
        raw = np.asarray(ctx.ub.data[lst.addr:lst.addr + 128]).view(np.uint64)
        return [int(a) & UB_ADDR_MASK for a in raw]
    out = [x.addr if isinstance(x, LocalTensor) else int(scalar_value(x)) & UB_ADDR_MASK for x in lst]
    if len(out) != 16:
        ctx.report("BAD_PARAMETER", f"{api}: an address list has 16 entries, got {len(out)}")
    return out


def _trans_5hd(dst: Any, src: Any, params: TransDataTo5HDParams, targs: Any = None) -> None:
    """``TransDataTo5HD<T>(dstList, srcList, TransDataTo5HDParams)`` (lists of 16 addresses or tensors, or
    uint64_t tensors holding them); the element type is T (or the tensors')."""
    api = "TransDataTo5HD"
    ctx = current()
    dt = targs.type(0) if targs is not None and targs.types else None
    if dt is None:
        dt = next((x.dtype for x in (dst if isinstance(dst, (list, tuple)) else [])
                   if isinstance(x, LocalTensor)), np.dtype(np.float16))
    check_dtype(ctx, api, dt, _EXT)
    if not isinstance(dst, LocalTensor):
        dst, src = _list_tensor(ctx, 0, dst), _list_tensor(ctx, 1, src)
    trans_5hd_addresses(ctx, api, dt, _addresses(ctx, api, dst), _addresses(ctx, api, src), params)


def trans_5hd_addresses(ctx, api: str, dt: np.dtype, daddr: list[int], saddr: list[int],
                        params: TransDataTo5HDParams) -> None:
    """TransDataTo5HD over 16 destination and 16 source UB addresses (the C API's VA registers hold them:
    no list in UB)."""
    check_dtype(ctx, api, dt, _EXT)
    repeat = int(scalar_value(params.repeatTimes))
    drep, srep = int(scalar_value(params.dstRepStride)), int(scalar_value(params.srcRepStride))
    if not 0 <= repeat <= 255:
        ctx.report("BAD_PARAMETER", f"{api}: repeatTimes {repeat} is outside [0, 255]")
    for r in range(repeat):
        k = r + (1 if repeat == 1 else 0)
        _one_5hd(ctx, api, dt, [a + k * drep * BLOCK for a in daddr], [a + k * srep * BLOCK for a in saddr],
                 bool(params.dstHighHalf), bool(params.srcHighHalf))
    emit(ctx, api, 5, count_stream("RV_VTRANS", repeat * 16, 16, ((daddr[0], BLOCK), (saddr[0], BLOCK))),
         {"dtype": type_name(dt), "form": "level0", "repeat": repeat})


def _one_5hd(ctx, api: str, dt: np.dtype, dsts: list[int], srcs: list[int], dhigh: bool, shigh: bool) -> None:
    ub = ctx.ub
    for a in (*dsts, *srcs):
        ub.check(a, BLOCK, api, 32)
    if ctx.dry_run:
        return
    blocks = np.stack([np.asarray(ub.data[a:a + BLOCK]) for a in srcs])          # 16 x 32 bytes
    dd = np.stack([np.asarray(ub.defined[a:a + BLOCK]) for a in srcs])
    w = dt.itemsize
    if w == 1:
        half = slice(16, 32) if shigh else slice(0, 16)
        out, od = blocks[:, half].T, dd[:, half].T                               # 16 x 16
        for j, a in enumerate(dsts):
            ub.write(a + (16 if dhigh else 0), np.ascontiguousarray(out[j]), np.ascontiguousarray(od[j]))
        return
    e = blocks.view(f"u{w}")                                                     # 16 x (32 / w)
    ed = dd.reshape(16, -1, w).all(axis=2)
    cols = e.shape[1]
    for j in range(16):
        c, part = (j, slice(0, 16)) if cols == 16 else (j // 2, slice(8 * (j % 2), 8 * (j % 2) + 8))
        vals, defs = e[part, c], ed[part, c]
        ub.write(dsts[j], np.ascontiguousarray(vals).view(np.uint8), np.repeat(defs, w))


TransDataTo5HD = MemBaseApi(_trans_5hd, "TransDataTo5HD", batchable=False)


def _pairs(api: str, interleave: bool):
    def fn(dst0: LocalTensor, dst1: LocalTensor, src0: LocalTensor, *rest: Any) -> None:
        ctx = current()
        dt = dst0.dtype
        if len(rest) == 1:                # DeInterleave(dst0, dst1, src, srcCount): the two halves of src
            total = int(scalar_value(rest[0]))
            n = total // 2
            if total % 2:
                ctx.report("BAD_PARAMETER", f"{api}: srcCount {total} must be even")
            src1 = LocalTensor(src0.addr + n * dt.itemsize, src0.dtype, max(src0.count - n, 0))
        else:
            src1, count = rest
            n = int(scalar_value(count))
        if n < 0 or n % 2:
            ctx.report("BAD_PARAMETER", f"{api}: count {n} must be even and not negative")
        if any(t.dtype != dt for t in (dst1, src0, src1)):
            ctx.report("BAD_PARAMETER", f"{api}: operand types differ")
        check_dtype(ctx, api, dt, dts("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float "
                                      "int64_t uint64_t"))
        lanes = 256 // dt.itemsize
        k = np.arange(2 * n, dtype=np.int64)
        if interleave:                    # z[k] = (src0, src1)[k % 2][k // 2]
            which, pos = k % 2, k // 2
        else:                             # dst0 = z[0::2], dst1 = z[1::2] of z = src0 ++ src1
            z = np.concatenate([k[0::2], k[1::2]])
            which, pos = z // n if n else z, z % n if n else z
        step = np.zeros(n, np.int64)
        for d, sl in ((dst0, slice(0, n)), (dst1, slice(n, 2 * n))):
            w, p = which[sl], pos[sl]
            for side, s in ((0, src0), (1, src1)):
                sel = np.flatnonzero(w == side)
                if not sel.size:
                    continue
                dacc = from_arrays((api, "d", n, side, sl.start), sel, step[:sel.size].copy(), 1, n * dt.itemsize)
                sacc = from_arrays((api, "s", n, side, sl.start), p[sel], step[:sel.size].copy(), 1, n * dt.itemsize)
                apply(ctx, api, Operand(d.addr, dt, dacc), [Operand(s.addr, dt, sacc)], lambda v: v[0])
        emit(ctx, api, 5, count_stream("RV_VINTLV" if interleave else "RV_VDINTLV", n, lanes,
                                       ((dst0.addr, dt.itemsize), (dst1.addr, dt.itemsize), (src0.addr, dt.itemsize),
                                        (src1.addr, dt.itemsize)), ndst=2), {"dtype": type_name(dt), "form": "count",
                                                                             "count": n})
    fn.__doc__ = f"``{api}(dst0, dst1, src0, src1, count)``" + (" or ``(dst0, dst1, src, srcCount)``." if not interleave
                                                                else ".")
    return MemBaseApi(fn, api)


Interleave = _pairs("Interleave", True)
DeInterleave = _pairs("DeInterleave", False)
