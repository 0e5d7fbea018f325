"""MemBase ``Cast`` between the 8- / 4-bit types of Ascend 950 and half / float / bfloat16_t / int16_t (the
Cast page's Ascend 950 table; values and rounding from :mod:`toolkit.ascendc.lowfloat`).

* fp8_e4m3fn_t / fp8_e5m2_t -> float (exact), float -> fp8 (CAST_RINT);
* hifloat8_t -> half / float (exact), half / float -> hifloat8_t (CAST_ROUND: nearest, ties away from zero;
  CAST_HYBRID: the Reg Cast page's bit rule, :func:`toolkit.ascendc.lowfloat.hif8_hybrid`, assumed to be
  the MemBase one too);
* fp4x2_e2m1_t / fp4x2_e1m2_t -> bfloat16_t (exact), bfloat16_t -> fp4 (RINT / FLOOR / CEIL / ROUND / TRUNC,
  saturating: fp4 has no Inf / NaN, NaN -> 0);
* int4b_t -> int16_t / half / bfloat16_t (exact), int16_t -> int4b_t (saturating), half -> int4b_t (the round
  mode, saturating; NaN -> 0).

Overflow of float -> fp8 / hifloat8 follows the machine setting ``float_to_bf16_overflow`` (CTRL[48],
api-facts 8: saturate, or keep Inf / NaN). A 4-bit operand's count is in 4-bit elements and must be even (the page's
rule for int4b_t); the 4-bit forms run as pairs: each byte of the packed side meets two elements of the wide
side (one element twice as wide), so the VF streams are those of the wide type; the level-0 form too, its
mask halved to the pairs (:func:`pair_level0`).
"""
from __future__ import annotations

import numpy as np

from toolkit.ascendc import lowfloat as lf
from toolkit.ascendc.dtypes import BF16
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor

R = RoundMode
F16, F32, I16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int16)
_DIRECTED = frozenset({R.CAST_RINT, R.CAST_FLOOR, R.CAST_CEIL, R.CAST_ROUND, R.CAST_TRUNC})
_NONE = frozenset({R.CAST_NONE})
_HIF = frozenset({R.CAST_ROUND, R.CAST_HYBRID})

#: (src, dst) -> round modes of the page's Ascend 950 table for the 8- / 4-bit types
ALLOWED_LOW: dict[tuple[np.dtype, np.dtype], frozenset] = {
    (lf.INT4B, I16): _NONE, (lf.INT4B, F16): _NONE, (lf.INT4B, BF16): _NONE,
    (lf.FP4X2_E2M1, BF16): _NONE, (lf.FP4X2_E1M2, BF16): _NONE,
    (lf.HIF8, F16): _NONE, (lf.HIF8, F32): _NONE, (lf.FP8_E5M2, F32): _NONE, (lf.FP8_E4M3FN, F32): _NONE,
    (I16, lf.INT4B): _NONE, (F16, lf.INT4B): _DIRECTED, (F16, lf.HIF8): _HIF,
    (BF16, lf.FP4X2_E2M1): _DIRECTED, (BF16, lf.FP4X2_E1M2): _DIRECTED,
    (F32, lf.HIF8): _HIF, (F32, lf.FP8_E5M2): frozenset({R.CAST_RINT}), (F32, lf.FP8_E4M3FN): frozenset({R.CAST_RINT}),
}


def codes(v: np.ndarray) -> np.ndarray:
    """The bytes of an array of a low type (uint8, same shape)."""
    return np.ascontiguousarray(v).view(np.uint8)


def _mode_name(mode: RoundMode) -> str:
    return "RINT" if mode == R.CAST_NONE else mode.name[5:]


def encode_values(x: np.ndarray, dst: np.dtype, mode: RoundMode, overflow: str) -> np.ndarray:
    """Element codes (uint8; 4-bit codes for the packed types) of ``x`` in ``dst``."""
    return lf.encode_from(x, dst, _mode_name(mode), overflow == "saturate")


def decode_values(c: np.ndarray, src: np.dtype, dst: np.dtype) -> np.ndarray:
    return lf.decode_to(c, src, dst)


def pair_views(dst: LocalTensor, src: LocalTensor, count: int) -> tuple[LocalTensor, LocalTensor, int]:
    """The packed side as bytes and the wide side as elements twice as wide: ``count // 2`` of each."""
    def view(t: LocalTensor, dt: np.dtype) -> LocalTensor:
        return LocalTensor(t.addr, dt, t.count * t.dtype.itemsize // dt.itemsize, t.position, t.slot)
    wide = src if dst.dtype in lf.PACKED4 else dst
    pair = np.dtype(f"u{2 * wide.dtype.itemsize}")
    d = view(dst, np.dtype(np.uint8) if dst.dtype in lf.PACKED4 else pair)
    s = view(src, np.dtype(np.uint8) if src.dtype in lf.PACKED4 else pair)
    return d, s, count // 2


def packed_fn(sdt: np.dtype, ddt: np.dtype, mode: RoundMode, overflow: str, first: str):
    """The compute of a packed pair view (see :func:`pair_views`): source array -> destination array."""
    if ddt in lf.PACKED4:
        def to_packed(v: list) -> np.ndarray:
            x = np.ascontiguousarray(v[0]).view(sdt)          # (rows, 2n) wide elements
            return lf.pack4(encode_values(x, ddt, mode, overflow), first)
        return to_packed

    def from_packed(v: list) -> np.ndarray:
        c = lf.unpack4(np.ascontiguousarray(v[0]), first)     # (rows, 2n) 4-bit codes
        return np.ascontiguousarray(decode_values(c, sdt, ddt)).view(np.dtype(f"u{2 * ddt.itemsize}"))
    return from_packed


def byte_fn(sdt: np.dtype, ddt: np.dtype, mode: RoundMode, overflow: str):
    """The compute of an 8-bit conversion: source array -> destination array (of the dtype of dst)."""
    if lf.is_low(ddt):
        return lambda v: encode_values(v[0], ddt, mode, overflow).view(ddt)
    return lambda v: decode_values(codes(v[0]), sdt, ddt)


def pair_level0(ctx, name: str, form):
    """The level-0 form of a 4-bit Cast on the pair views: the mask over the 128 b16 lanes of a repeat becomes
    one over its 64 pairs (continuous: n / 2, n even; bit mode: bit 2p, bits 2p and 2p + 1 equal: the page's
    rule for int4b_t). Strides are 32 B blocks on both views, unchanged. Counter mode / isSetMask = false: not
    modelled (a diagnostic)."""
    from toolkit.ascendc.dtypes import scalar_value

    from .elementwise import Level0
    if form.state.counter or not form.isSetMask:
        ctx.report("BAD_PARAMETER", f"{name}: a 4-bit level-0 Cast under counter mode / isSetMask = false is not "
                   f"modelled")
    m = form.mask
    if isinstance(m, (list, tuple, np.ndarray)):
        words = [int(scalar_value(w)) & ((1 << 64) - 1) for w in m] + [0]
        bits = words[0] | (words[1] << 64)
        pairs = [(bits >> 2 * p) & 3 for p in range(64)]
        if any(v in (1, 2) for v in pairs):
            ctx.report("BAD_PARAMETER", f"{name}: a 4-bit bit-mode mask sets both bits of a pair or neither")
        new = [sum(1 << p for p, v in enumerate(pairs) if v), 0]
    else:
        n = int(scalar_value(m))
        if n % 2:
            ctx.report("BAD_PARAMETER", f"{name}: a 4-bit continuous mask must be even (got {n})")
        new = n // 2
    return Level0(new, form.repeat, form.strides, True, form.state)
