"""The 8- and 4-bit float types in the quantization family (高阶API/量化操作): outputs of AscendQuant / Quantize
(fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t; fp4x2_e2m1_t / fp4x2_e1m2_t in PER_GROUP only) and sources of
AscendAntiQuant / AntiQuantize (fp8 / hifloat8), through the MemBase Cast pairs of Ascend 950.

Rounding (the pages' table 4): fp8 takes CAST_RINT only, hifloat8 CAST_ROUND (default) or CAST_HYBRID, fp4
RINT / ROUND / FLOOR / CEIL / TRUNC; another configured mode falls back to the type's default, as the pages
say. algorithm: assumed (the pages' formulas are the int8 ones with the output type changed): the float row
value x * scale (+ offset) is cast float -> fp8 / hifloat8 in one rounding; for fp4 (the Cast table converts
bfloat16 -> fp4 only) float -> bfloat16 first, with the same directed mode (exact: the fp4 values are
bfloat16 values) or CAST_RINT for RINT / ROUND (a value within half a bfloat16 ulp of an fp4 midpoint is
rounded twice). A 4-bit row of n elements is n / 2 bytes; its rows must stay 32 B aligned (n % 64 == 0).
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import lowfloat as lf
from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import BF16, type_name
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor

from . import quant_common as Q

R = RoundMode
B8_OUT = ("int8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t")
FP4_OUT = ("fp4x2_e2m1_t", "fp4x2_e1m2_t")
B8_IN = ("int8_t", "fp8_e4m3fn_t", "fp8_e5m2_t", "hifloat8_t")
_FP4_MODES = {R.CAST_RINT, R.CAST_ROUND, R.CAST_FLOOR, R.CAST_CEIL, R.CAST_TRUNC}
_FP4_SCALE = frozenset({("half", "half"), ("half", "float"), ("bfloat16_t", "bfloat16_t"), ("bfloat16_t", "float")})


def is_low(t) -> bool:
    return isinstance(t, LocalTensor) and lf.is_low(t.dtype)


def out_types(policy: int) -> tuple[str, ...]:
    """dstT names a quantization form takes (fp4 in PER_GROUP only)."""
    return B8_OUT + (FP4_OUT if policy == Q.GROUP else ())


def mode_for(dt, mode: RoundMode) -> RoundMode:
    """The configured round mode, or the output type's default where the type does not take it."""
    if dt == lf.HIF8:
        return mode if mode in (R.CAST_ROUND, R.CAST_HYBRID) else R.CAST_ROUND
    if dt in lf.PACKED4:
        return mode if mode in _FP4_MODES else R.CAST_RINT
    return R.CAST_RINT


def check_fp4(api: str, dst: LocalTensor, src: LocalTensor, scale, m: int, n: int) -> bool:
    """A 4-bit dst: the page's (src, scale) pairs, n / 2 bytes per row 32 B aligned, m x n elements inside."""
    if dst.dtype not in lf.PACKED4:
        return True
    s = type_name(scale.dtype) if isinstance(scale, LocalTensor) else type_name(src.dtype)
    if (type_name(src.dtype), s) not in _FP4_SCALE:
        Q.bad(api, f"(srcTensor, scale) = ({type_name(src.dtype)}, {s}) is not a pair of the page's fp4 table")
        return False
    if n % 64:
        Q.bad(api, f"n = {n} fp4 elements are not a multiple of 32 B (each row must be aligned)")
        return False
    if dst.count * 2 < m * n:
        Q.bad(api, f"m x n = {m} x {n} elements exceed the fp4 dst of {dst.count * 2}")
        return False
    return True


def store_row(dst: LocalTensor, i: int, n: int, x: LocalTensor, h: LocalTensor, mode: RoundMode) -> None:
    """Row ``i`` of the float values ``x`` (n) into the low-type ``dst`` (``h``: a half row as scratch)."""
    dt = dst.dtype
    mode = mode_for(dt, mode)
    if dt not in lf.PACKED4:
        MB.Cast(dst[i * n], x, mode, n)
        return
    hb = h.ReinterpretCast(BF16)
    MB.Cast(hb, x, mode if mode in (R.CAST_FLOOR, R.CAST_CEIL, R.CAST_TRUNC) else R.CAST_RINT, n)
    MB.Cast(dst[i * n // 2], hb, mode, n)


def fp8_tail(dst: LocalTensor, h: LocalTensor, f: LocalTensor, count: int, mode: RoundMode) -> None:
    """The half path's last step for a low dst: half -> hifloat8 directly; half -> fp8 through float (the Cast
    table has float -> fp8 only), 64 elements at a time through the float scratch ``f``."""
    if dst.dtype == lf.HIF8:
        MB.Cast(dst, h, mode_for(lf.HIF8, mode), count)
        return
    for c in range(0, count, 64):
        ln = min(64, count - c)
        MB.Cast(f, h[c], R.CAST_NONE, ln)
        MB.Cast(dst[c], f, R.CAST_RINT, ln)


def anti_fp4(api: str, dst: LocalTensor, src: LocalTensor, scale: LocalTensor, tmp, k: int, transpose: bool) -> None:
    """AscendAntiQuant's float4 PER_GROUP form (groupSize 32): dst[i][j] = scale[i / 32][j] * src[i][j]
    (isTranspose: scale[i][j / 32]), the fp8_e8m0_t scale 2**(E - 127). Rows: fp4 -> bfloat16 -> float, the scale
    row's bytes widened to uint32 and shifted into the float exponent field (E = 0, 2**-127, reads as 0 and
    E = 0xFF, NaN, as Inf there: assumed edge cases), float Mul, CAST_RINT to half / bfloat16 (assumed)."""
    if not (Q.check_types(api, "dst", dst, ("half", "bfloat16_t")) and Q.check_types(api, "src", src, FP4_OUT)):
        return
    total = src.count * 2
    if k <= 0 or total % k:
        Q.bad(api, f"k = {k} does not divide the source's {total} fp4 elements")
        return
    rows, n = (total // k, k) if transpose else (k, total // k)
    fp4_rows(api, dst, src, scale, tmp, rows, n, 32, not transpose)


def fp4_rows(api: str, dst: LocalTensor, src: LocalTensor, scale: LocalTensor, tmp, rows: int, n: int, group: int,
             along_rows: bool) -> None:
    """dst = 2**(E - 127) x src over rows x n (``along_rows``: scale [ceil(rows / group), n], else
    [rows, ceil(n / group)]); see :func:`anti_fp4`."""
    if type_name(scale.dtype) != "fp8_e8m0_t":
        Q.bad(api, f"an fp4 source takes an fp8_e8m0_t scale (got {type_name(scale.dtype)})")
        return
    if n % 64 or dst.count < rows * n or src.count * 2 < rows * n:
        Q.bad(api, f"a row of n = {n} fp4 elements must be 32 B aligned (n % 64 == 0) and dst / src hold {rows * n}")
        return
    from .tmpbuf import carve, tmp_buffer
    need = 2 * Q.align32(4 * n) + 2 * Q.align32(2 * n)
    buf = tmp_buffer(api, tmp, need)
    x, off = carve(buf, Q.F32, n, 0)
    w, off = carve(buf, np.dtype(np.uint32), n, off)
    b16, off = carve(buf, BF16, n, off)
    u16 = carve(buf, np.dtype(np.uint16), n, off)[0]
    width = -(-n // group)
    for i in range(rows):
        MB.Cast(b16, src[i * n // 2], R.CAST_NONE, n)
        MB.Cast(x, b16, R.CAST_NONE, n)
        if along_rows:
            MB.Cast(u16, scale[(i // group) * n].ReinterpretCast(np.uint8), R.CAST_NONE, n)
            MB.Cast(w, u16, R.CAST_NONE, n)
            MB.ShiftLeft(w, w, 23, n)
            MB.Mul(x, x, w.ReinterpretCast(Q.F32), n)
        else:
            for c in range(0, n, group):
                e = int(scale.GetValue(i * width + c // group))
                MB.Muls(x[c], x[c], float("nan") if e == 255 else 2.0 ** (e - 127), min(group, n - c))
        Q.narrow_float(dst[i * n], x, n)
