"""The C API register functions (C-API/reg) on the Python route: numpy references written from the pages
for the element-wise, compare, logic, relayout, reduce, conversion and move functions on every documented
dtype the emulator runs, and for every compute and conversion name the Reg API call the page describes,
spelled here (the test's own reading of the page: ``asc_eq`` is ``Compare<CMPMODE::EQ>``, a conversion
name's CastTrait parsed by the test's own grammar), run side by side: same bytes, same opcodes."""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest

from tests.api_support import get, last_vf, put
from tests.reg_support import DST, SRC, lanes, run
from toolkit.ascendc import api
from toolkit.ascendc import capi_reg as C
from toolkit.ascendc import regbase as Reg
from toolkit.ascendc.dtypes import uint32_t
from toolkit.ascendc.regbase import types as rt
from toolkit.ascendc.tensor import UbPtr

F16, F32, F64, BF16 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16)
I8, U8, I16, U16, I32, U32, I64 = (np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                                         np.int64))
BY_NAME = {"int8_t": I8, "uint8_t": U8, "int16_t": I16, "uint16_t": U16, "int32_t": I32, "uint32_t": U32,
           "int64_t": I64, "half": F16, "bfloat16_t": BF16, "float": F32}
ALL9 = [I8, U8, I16, U16, I32, U32, F16, BF16, F32]


def full(dt):
    return C.asc_create_mask_b8(0) if np.dtype(dt).itemsize == 1 else \
        (C.asc_create_mask_b16(0) if np.dtype(dt).itemsize == 2 else C.asc_create_mask_b32(0))


def values(dt, seed=0, lo=-50, hi=50):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "u":
        lo = 0
    return rng.integers(lo, hi, lanes(dt)).astype(dt)


def documented(name):
    d = api.lookup(name)
    return [BY_NAME[t] for t in d.dtypes if t in BY_NAME]


def pairs(names):
    """(name, dtype) for every documented dtype of each name (a test per pair)."""
    return [pytest.param(n, dt, id=f"{n}-{dt}") for n in names for dt in documented(n)]


def exact(a, b):
    a, b = np.asarray(a), np.asarray(b)
    np.testing.assert_array_equal(a.view(f"u{a.dtype.itemsize}"), b.astype(a.dtype).view(f"u{a.dtype.itemsize}"))


# -- element-wise against numpy ----------------------------------------------------------------------
BINARY = {"asc_add": np.add, "asc_sub": np.subtract, "asc_mul": np.multiply, "asc_max": np.maximum,
          "asc_min": np.minimum}


def _ref(fn, a, b, dt):
    if dt.kind == "f" or dt == BF16:
        return fn(a.astype(F64), b.astype(F64)).astype(dt)
    return fn(a.astype(np.int64), b.astype(np.int64)).astype(dt)          # wraps


@pytest.mark.parametrize("name, dt", pairs(sorted(BINARY)))
def test_binary_ops_on_every_documented_dtype(ctx, name, dt):
    a, b = values(dt, 1), values(dt, 2)
    out, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], r[1], full(dt)), [a, b], [dt, dt], [dt])
    exact(out, _ref(BINARY[name], a, b, dt))


SCALAR = {"asc_add_scalar": np.add, "asc_mul_scalar": np.multiply, "asc_max_scalar": np.maximum,
          "asc_min_scalar": np.minimum}


@pytest.mark.parametrize("name, dt", pairs(sorted(SCALAR)))
def test_scalar_ops_on_every_documented_dtype(ctx, name, dt):
    a = values(dt, 3)
    out, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], 7, full(dt)), [a], [dt], [dt])
    exact(out, _ref(SCALAR[name], a, np.full_like(a, 7), dt))


def test_the_mask_zeroes_the_lanes_it_leaves_out(ctx):
    a, b = values(F32, 1), values(F32, 2)
    out, = run(ctx, lambda r, o: C.asc_add(o[0], r[0], r[1], C.asc_create_mask_b32(rt.MaskPattern.VL8.value)),
               [a, b], [F32, F32], [F32])
    exact(out, np.where(np.arange(64) < 8, a + b, 0))


CMP = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
       "le": np.less_equal}


@pytest.mark.parametrize("name, dt", pairs(f"asc_{op}" for op in sorted(CMP)))
def test_compares_and_select_on_every_documented_dtype(ctx, name, dt):
    """The predicate of a compare (and of its _scalar form), read through asc_select (1 where set, 0 elsewhere)."""
    op = CMP[name[4:]]
    a, b = values(dt, 4, -3, 3), values(dt, 5, -3, 3)
    ones, zeros = np.ones(lanes(dt), dt), np.zeros(lanes(dt), dt)

    def body(r, o, scalar=False):
        p = Reg.MaskReg()
        if scalar:
            getattr(C, f"{name}_scalar")(p, r[0], 1, full(dt))
        else:
            getattr(C, name)(p, r[0], r[1], full(dt))
        C.asc_select(o[0], r[2], r[3], p)
    out, = run(ctx, body, [a, b, ones, zeros], [dt] * 4, [dt])
    exact(out, op(a, b).astype(dt))
    out, = run(ctx, lambda r, o: body(r, o, True), [a, b, ones, zeros], [dt] * 4, [dt])
    exact(out, op(a, np.ones_like(a)).astype(dt))


BITWISE = {"asc_and": np.bitwise_and, "asc_or": np.bitwise_or, "asc_xor": np.bitwise_xor}


@pytest.mark.parametrize("name", sorted(BITWISE))
@pytest.mark.parametrize("dt", [I8, U8, I16, U16, I32, U32])
def test_bitwise_ops(ctx, name, dt):
    a, b = values(dt, 6, 0, 120), values(dt, 7, 0, 120)
    out, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], r[1], full(dt)), [a, b], [dt, dt], [dt])
    exact(out, BITWISE[name](a, b))
    out, = run(ctx, lambda r, o: C.asc_not(o[0], r[0], full(dt)), [a], [dt], [dt])
    exact(out, np.invert(a))


def test_shifts_by_register_and_scalar(ctx):
    a, s = values(I16, 8, -1000, 1000), np.arange(128).astype(I16) % 5
    out, = run(ctx, lambda r, o: C.asc_shiftleft(o[0], r[0], r[1], full(I16)), [a, s], [I16, I16], [I16])
    exact(out, (a.astype(np.int64) << s).astype(I16))
    out, = run(ctx, lambda r, o: C.asc_shiftright_scalar(o[0], r[0], 2, full(I16)), [a], [I16], [I16])
    exact(out, a >> 2)                                     # signed: arithmetic


UNARY = {"asc_abs": np.abs, "asc_neg": np.negative, "asc_relu": lambda x: np.maximum(x, 0)}


@pytest.mark.parametrize("name, dt", pairs(sorted(UNARY)))
def test_unary_ops_on_every_documented_dtype(ctx, name, dt):
    a = values(dt, 9)
    out, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], full(dt)), [a], [dt], [dt])
    exact(out, UNARY[name](a))


def test_fused_ops_follow_their_formulas(ctx):
    a, b, d = (np.linspace(-4, 4, 64).astype(F32) * k for k in (1, 0.5, 0.25))
    out, = run(ctx, lambda r, o: (C.asc_duplicate(o[0], r[2], full(F32)), C.asc_madd(r[2], r[0], r[1], full(F32)),
                                  C.asc_copy(o[0], r[2], full(F32))), [a, b, d], [F32] * 3, [F32])
    exact(out, (d.astype(F64) * a + b).astype(F32))                       # dst = dst * src0 + src1
    out, = run(ctx, lambda r, o: C.asc_abs_sub(o[0], r[0], r[1], full(F32)), [a, b], [F32, F32], [F32])
    exact(out, np.abs(a - b))
    out, = run(ctx, lambda r, o: (C.asc_copy(o[0], r[1], full(F32)), C.asc_axpy(o[0], r[0], 2.0, full(F32))),
               [a, b], [F32, F32], [F32])
    exact(out, (2.0 * a.astype(F64) + b).astype(F32))


# -- relayout, fill, index, reduce ---------------------------------------------------------------------
def test_intlv_deintlv_pack_unpack(ctx):
    a, b = values(U16, 10, 0, 60000), values(U16, 11, 0, 60000)
    o0, o1 = run(ctx, lambda r, o: C.asc_intlv(o[0], o[1], r[0], r[1]), [a, b], [U16, U16], [U16, U16])
    both = np.stack([a, b], axis=1).reshape(-1)
    exact(o0, both[:128]), exact(o1, both[128:])
    o0, o1 = run(ctx, lambda r, o: C.asc_deintlv(o[0], o[1], r[0], r[1]), [a, b], [U16, U16], [U16, U16])
    exact(o0, np.concatenate([a, b])[0::2]), exact(o1, np.concatenate([a, b])[1::2])
    w = values(U32, 12, 0, 1 << 30)
    lo, hi = run(ctx, lambda r, o: (C.asc_pack_to_low(o[0], r[0]), C.asc_pack_to_high(o[1], r[0])), [w], [U32],
                 [U16, U16])
    exact(lo, np.concatenate([w.astype(U16), np.zeros(64, U16)]))
    exact(hi, np.concatenate([np.zeros(64, U16), w.astype(U16)]))
    n = values(U8, 13, 0, 255)
    lo, hi = run(ctx, lambda r, o: (C.asc_unpack_lower(o[0], r[0]), C.asc_unpack_upper(o[1], r[0])), [n], [U8],
                 [U16, U16])
    exact(lo, n[:128].astype(U16)), exact(hi, n[128:].astype(U16))


def test_duplicate_arange_and_reductions(ctx):
    a = values(F32, 14)
    out, = run(ctx, lambda r, o: C.asc_duplicate(o[0], r[0], full(F32)), [a], [F32], [F32])
    exact(out, np.full(64, a[0]))
    out, = run(ctx, lambda r, o: C.asc_duplicate_scalar(o[0], 2.5), [a], [F32], [F32])
    exact(out, np.full(64, 2.5))
    up, down = run(ctx, lambda r, o: (C.asc_arange(o[0], 3), C.asc_arange_descend(o[1], 3)), [], [], [I32, I32])
    exact(up, 3 + np.arange(64)), exact(down, 3 + np.arange(64)[::-1])
    x = values(I16, 15)
    s, mx, mn = run(ctx, lambda r, o: (C.asc_reduce_sum(o[0], r[0], full(I16)), C.asc_reduce_max(o[1], r[0], full(I16)),
                                       C.asc_reduce_min(o[2], r[0], full(I16))), [x], [I16], [I32, I16, I16])
    assert s[0] == x.astype(np.int64).sum() and mx[0] == x.max() and mn[0] == x.min()
    assert not s[1:].any() and not mx[2:].any() and not mn[2:].any()
    assert mx[1] == np.argmax(x) and mn[1] == np.argmin(x)          # lane 1: the index (the page)


# -- every compute name is the Reg call its page describes ---------------------------------------------
EQUIV = {"asc_abs_sub": ("AbsSub",), "asc_madd": ("MulDstAdd",), "asc_axpy": ("Axpy",),
         "asc_prelu": ("Prelu",), "asc_leakyrelu": ("LeakyRelu",), "asc_div": ("Div",), "asc_exp": ("Exp",),
         "asc_ln": ("Ln",), "asc_sqrt": ("Sqrt",), "asc_pair_reduce_sum": ("PairReduceElem", rt.PairReduce.SUM),
         "asc_reduce_sum_datablock": ("ReduceDataBlock", rt.ReduceType.SUM),
         "asc_reduce_max_datablock": ("ReduceDataBlock", rt.ReduceType.MAX),
         "asc_reduce_min_datablock": ("ReduceDataBlock", rt.ReduceType.MIN),
         "asc_squeeze": ("Squeeze", rt.GatherMaskMode.NO_STORE_REG)}
_SCALAR = {"asc_axpy", "asc_leakyrelu"}
_BIN = {"asc_abs_sub", "asc_madd", "asc_prelu", "asc_div"}


def _side_by_side(ctx, fn, name, dt, a, b):
    def body(r, o):
        m = full(dt)
        if name in _SCALAR:
            C.asc_copy(o[0], r[1], m)
            fn(o[0], r[0], 0.5, m)
        elif name in _BIN:
            C.asc_copy(o[0], r[1], m)
            fn(o[0], r[0], r[1], m)
        else:
            fn(o[0], r[0], m)
    return run(ctx, body, [a, b], [dt, dt], [dt])[0], [i[0] for i in last_vf(ctx).instrs]


@pytest.mark.parametrize("name, dt", pairs(sorted(EQUIV)))
def test_compute_names_run_their_reg_api(ctx, name, dt):
    short, *targs = EQUIV[name]
    reg_fn = getattr(Reg, short)
    reg_fn = reg_fn[tuple(targs)] if targs else reg_fn
    a, b = (np.abs(values(dt, 17)) + 1).astype(dt), (np.abs(values(dt, 18)) + 1).astype(dt)
    got, got_ops = _side_by_side(ctx, getattr(C, name), name, dt, a, b)
    want, want_ops = _side_by_side(ctx, reg_fn, name, dt, a, b)
    exact(got, want)
    assert got_ops == want_ops


# -- conversions -----------------------------------------------------------------------------------
_GRAMMAR = re.compile(r"asc_(?P<src>[a-z0-9]+?)2(?P<dst>float|half|bfloat16|u?int(?:8|16|32|64))"
                      r"(?:_(?P<round>rna|rn|rd|ru|rz|ro))?(?P<sat>_sat)?(?:_v(?P<part>\d))?$")
_ROUND = {"rn": "CAST_RINT", "rna": "CAST_ROUND", "rd": "CAST_FLOOR", "ru": "CAST_CEIL", "rz": "CAST_TRUNC",
          "ro": "CAST_ODD", None: "UNKNOWN"}
_CT = {"float": F32, "half": F16, "bfloat16": BF16, "int8": I8, "uint8": U8, "int16": I16, "uint16": U16,
       "int32": I32, "uint32": U32, "int64": I64}


def _emulated_conversions():
    out = []
    for name in C.convert.__all__:
        m = _GRAMMAR.match(name)
        if m and m["src"] in _CT:
            out.append((name, m))
    return out


def test_the_conversion_grammar_covers_every_emulated_name():
    names = {n for n, _ in _emulated_conversions()}
    refused = {n for n in C.convert.__all__ if n not in names and n not in C.convert.ROUNDINGS}
    assert len(names) > 250 and all(re.search("e4m3|e5m2|hif8|e1m2|e2m1|int4", n) for n in refused)


def _sample(dt):
    if dt.kind == "f" or dt == BF16:
        return np.linspace(-300.75, 300.75, lanes(dt)).astype(dt)
    return values(dt, 16, -120, 120)


@pytest.mark.parametrize("name, m", _emulated_conversions(), ids=lambda x: x if isinstance(x, str) else "")
def test_conversion_is_its_cast_trait(ctx, name, m):
    src, dst = _CT[m["src"]], _CT[m["dst"]]
    ratio = max(src.itemsize, dst.itemsize) // min(src.itemsize, dst.itemsize)
    part = int(m["part"] or 1) - 1
    layout = rt.RegLayout(part) if ratio > 1 else rt.RegLayout.UNKNOWN
    prefix = f"asc_{m['src']}2{m['dst']}"
    has_sat = any(n.startswith((prefix + "_", prefix)) and "_sat" in n[len(prefix):] for n in C.convert.__all__)
    sat = rt.SatMode.SAT if m["sat"] else (rt.SatMode.NO_SAT if has_sat else rt.SatMode.UNKNOWN)
    trait = rt.CastTrait(layout, sat, rt.MaskMergeMode.ZEROING, rt.RoundMode[_ROUND[m["round"]]])
    x = _sample(src)
    got, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], full(src)), [x], [src], [dst])
    want, = run(ctx, lambda r, o: Reg.Cast[trait](o[0], r[0], full(src)), [x], [src], [dst])
    exact(got, want)


@pytest.mark.parametrize("suffix, fn", [("rn", np.rint), ("rd", np.floor), ("ru", np.ceil), ("rz", np.trunc),
                                        ("rna", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))])
def test_float2int32_rounds_as_its_name_says(ctx, suffix, fn):
    x = np.array([2.5, -2.5, 1.5, -0.5, 0.49, 7.75, -7.75, 3.0] * 8, F32)
    out, = run(ctx, lambda r, o: getattr(C, f"asc_float2int32_{suffix}")(o[0], r[0], full(F32)), [x], [F32], [I32])
    exact(out, fn(x.astype(F64)).astype(I32))


def test_the_part_suffix_places_the_narrow_elements(ctx):
    x = _sample(F32)
    v1, v2 = run(ctx, lambda r, o: (C.asc_float2half_rn(o[0], r[0], full(F32)),
                                    C.asc_float2half_rn_v2(o[1], r[0], full(F32))), [x], [F32], [F16, F16])
    exact(v1[0::2], x.astype(F16)), exact(v1[1::2], np.zeros(64, F16))
    exact(v2[1::2], x.astype(F16)), exact(v2[0::2], np.zeros(64, F16))
    h = _sample(F16)
    w1, w2 = run(ctx, lambda r, o: (C.asc_half2float(o[0], r[0], full(F16)), C.asc_half2float_v2(o[1], r[0], full(F16))),
                 [h], [F16], [F32, F32])
    exact(w1, h[0::2].astype(F32)), exact(w2, h[1::2].astype(F32))


@pytest.mark.parametrize("name, fn", [("asc_rint", np.rint), ("asc_floor", np.floor), ("asc_ceil", np.ceil),
                                      ("asc_trunc", np.trunc),
                                      ("asc_round", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))])
@pytest.mark.parametrize("dt", [F16, F32, BF16])
def test_same_type_roundings(ctx, name, fn, dt):
    x = np.linspace(-9.75, 9.75, lanes(dt)).astype(dt)
    out, = run(ctx, lambda r, o: getattr(C, name)(o[0], r[0], full(dt)), [x], [dt], [dt])
    exact(out, fn(x.astype(F64)))


def test_the_byte_float_conversions_run(ctx):
    """asc_float2e4m3_rn: Reg::Cast to fp8_e4m3fn_t (lowfloat), element j in byte 4 j (part ZERO)."""
    import ml_dtypes
    from toolkit.ascendc import lowfloat
    x = _sample(F32)
    out, = run(ctx, lambda r, o: C.asc_float2e4m3_rn(o[0], r[0], full(F32)), [x], [F32], [lowfloat.FP8_E4M3FN])
    exact(out.view(np.uint8)[0::4], x.astype(ml_dtypes.float8_e4m3fn).view(np.uint8))


# -- moves, masks, address registers ------------------------------------------------------------------
def _vf(body):
    @Reg.__simd_vf__
    def vf():
        body()
    vf()


def test_load_dists_follow_their_pages(ctx):
    x = np.arange(512).astype(U16)
    put(ctx, SRC, x)
    got = {}

    def body():
        for name in ("asc_loadalign", "asc_loadalign_brc_elem", "asc_loadalign_upsample", "asc_loadalign_downsample",
                     "asc_loadalign_unpack", "asc_loadalign_brc_datablock", "asc_loadalign_brc_elem2datablock"):
            r = Reg.RegTensor[U16]()
            getattr(C, name)(r, UbPtr(SRC, U16), 16)           # int32_t offset: 16 elements on
            C.asc_storealign(UbPtr(DST, U16), r, full(U16))
            got[name] = get(ctx, DST, U16, 128)
        d0, d1 = Reg.RegTensor[U16](), Reg.RegTensor[U16]()
        C.asc_loadalign_deintlv(d0, d1, UbPtr(SRC, U16))
        C.asc_storealign_intlv(UbPtr(DST, U16), d1, d0)
        got["swap"] = get(ctx, DST, U16, 256)
    _vf(body)
    s = x[16:]
    exact(got["asc_loadalign"], s[:128])
    exact(got["asc_loadalign_brc_elem"], np.full(128, s[0]))
    exact(got["asc_loadalign_upsample"], np.repeat(s[:64], 2))
    exact(got["asc_loadalign_downsample"], s[:256:2])
    exact(got["asc_loadalign_unpack"].view(U32), s[:64].astype(U32))
    exact(got["asc_loadalign_brc_datablock"], np.tile(s[:16], 8))
    exact(got["asc_loadalign_brc_elem2datablock"], np.repeat(s[:8], 16))
    exact(got["swap"], x[:256].reshape(-1, 2)[:, ::-1].reshape(-1))


def test_postupdate_moves_the_pointer_and_stores_pack(ctx):
    x = np.arange(128).astype(U32) * 3
    put(ctx, SRC, x)
    put(ctx, DST, np.zeros(256, U32))
    ptrs = {}

    def body():
        src, dst = UbPtr(SRC, U32), UbPtr(DST, U32)
        r = Reg.RegTensor[U32]()
        count = uint32_t(70)
        for _ in Reg.VLOOP(2):
            m = C.asc_update_mask_b32(count)
            C.asc_loadalign_postupdate(r, src, 64)
            C.asc_storealign_postupdate(dst, r, 64, m)
        ptrs["src"], ptrs["dst"], ptrs["count"] = src.addr, dst.addr, count.value
        C.asc_storealign_pack(UbPtr(DST + 1024, U16), r, full(U32))
        C.asc_storealign_1st(UbPtr(DST + 2048, U32), r)
    _vf(body)
    assert (ptrs["src"], ptrs["dst"], ptrs["count"]) == (SRC + 512, DST + 512, 0)
    exact(get(ctx, DST, U32, 128), np.where(np.arange(128) < 70, x, 0))
    exact(get(ctx, DST + 1024, U16, 64), x[64:].astype(U16))
    assert get(ctx, DST + 2048, U32, 1)[0] == x[64]


def test_unaligned_load_and_store_gather_scatter(ctx):
    x = np.arange(300).astype(I16)
    put(ctx, SRC, x)
    put(ctx, DST, np.zeros(512, I16))

    def body():
        r, g = Reg.RegTensor[I16](), Reg.RegTensor[I16]()
        ul, us = Reg.UnalignRegForLoad(), Reg.UnalignRegForStore()
        C.asc_loadunalign_pre(ul, UbPtr(SRC + 6, I16))
        C.asc_loadunalign(r, ul, UbPtr(SRC + 6, I16))
        C.asc_storeunalign(UbPtr(DST + 2, I16), us, r, 100)
        C.asc_storeunalign_post(UbPtr(DST + 2, I16), us)
        idx = Reg.RegTensor[U16]()
        C.asc_arange_descend(idx, 0)                                 # 127 .. 0
        C.asc_gather(g, UbPtr(SRC, I16), idx, full(I16))
        C.asc_storealign(UbPtr(DST + 512, I16), g, full(I16))
        C.asc_scatter(UbPtr(DST + 768, I16), r, idx, full(I16))
    _vf(body)
    exact(get(ctx, DST + 2, I16, 100), x[3:103])
    exact(get(ctx, DST + 512, I16, 128), x[:128][::-1])
    exact(get(ctx, DST + 768, I16, 128), x[3:131][::-1])


def test_masks_copy_and_mem_bar(ctx):
    got = {}

    def body():
        m = C.asc_create_mask_b16(rt.MaskPattern.M4.value)
        got["m4"] = np.asarray(m.bits[0])
        n = Reg.MaskReg()
        C.asc_not(n, m, full(U16))
        C.asc_copy(n, n, m)                                          # PMOV under m: all zero
        got["copy"] = np.asarray(n.bits[0])
        C.asc_mem_bar(1)                                             # VST_VLD
        got["bar"] = last_vf_instrs()[-1]
        got["spr"] = np.asarray(C.asc_get_mask_spr_b32().bits[0])

    def last_vf_instrs():
        return ctx.vf.instrs
    _vf(body)
    assert got["m4"][0::2][::4].all() and not got["m4"][0::2][1::4].any()
    assert not got["copy"].any() and got["spr"].all()
    assert got["bar"][0] == "RV_MEMBAR" and got["bar"][3] == "VST_VLD"


def test_update_addr_reg_follows_the_enclosing_loops(ctx):
    """offset0 pairs with the innermost loop, offset1 with the next one out (the page's parameter table)."""
    offsets = []

    def body():
        for _ in Reg.VLOOP(2):
            for _ in Reg.VLOOP(3):
                offsets.append(C.asc_update_addr_reg_b32(1, 10).offset)
    _vf(body)
    assert offsets == [i * 10 + j for i in range(2) for j in range(3)]


@pytest.mark.parametrize("suffix, fn", [("rn", np.rint), ("rd", np.floor), ("ru", np.ceil),
                                        ("rna", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))])
def test_float2int32_has_the_scalar_form_of_the_scalar_api(suffix, fn):
    """C-API/scalar_compute's asc_float2int32_<round>(float) shares the name: one float in, an int out."""
    for v in (2.5, -2.5, 0.5, -7.75, 3e9, -3e9):
        want = int(np.clip(fn(np.float64(np.float32(v))), -2**31, 2**31 - 1))
        assert getattr(C, f"asc_float2int32_{suffix}")(v) == want
