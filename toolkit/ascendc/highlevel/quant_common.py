"""What the quantization APIs (高阶API/量化操作) share: their policy enums and configuration, the parameter
structs, the float row buffers carved from the temporary buffer, and the per-row view of a scale / offset
operand under each policy.

A configuration reaches the kernel functions either as the Python dataclass (the Python route) or as the
int the ``.asc`` wrappers pack from the C++ ``constexpr`` config (``__asc::quant_cfg``): bits 0-2 the policy,
bit 3 hasOffset, bit 4 isTranspose, bits 8-15 the RoundMode value, bits 16-23 kDim + 1."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from toolkit.ascendc import membase as MB
from toolkit.ascendc.dtypes import scalar_value, type_name
from toolkit.ascendc.membase.params import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from .tmpbuf import carve, tmp_buffer

F32 = np.dtype(np.float32)
F16 = np.dtype(np.float16)
I8 = np.dtype(np.int8)
I32 = np.dtype(np.int32)
U8 = np.dtype(np.uint8)
U64 = np.dtype(np.uint64)


def _policy(name: str, doc: str) -> type[Enum]:
    members = ("PER_TENSOR", "PER_CHANNEL", "PER_TOKEN", "PER_GROUP", "PER_CHANNEL_PER_GROUP", "PER_TOKEN_PER_GROUP")
    cls = Enum(name, {m: k for k, m in enumerate(members)})
    cls.__doc__ = doc
    return cls


QuantizePolicy = _policy("QuantizePolicy", "Quantize's policy (the page lists the first four)")
DequantizePolicy = _policy("DequantizePolicy", "Dequantize's policy (the page lists the first four)")
AntiQuantizePolicy = _policy("AntiQuantizePolicy", "AntiQuantize's policy (the page lists the first four)")
AscendQuantPolicy = _policy("AscendQuantPolicy", "AscendQuant's PER_TOKEN / PER_GROUP policy (the others reserved)")
AscendDeQuantPolicy = _policy("AscendDeQuantPolicy", "AscendDequant's PER_TOKEN / PER_GROUP policy")
AscendAntiQuantPolicy = _policy("AscendAntiQuantPolicy", "AscendAntiQuant's PER_TOKEN / PER_GROUP policy")


class DeQuantMode(Enum):
    """AscendDequant: whether ``{1, n, calCount}`` is run as ``{n / calCount, calCount, calCount}``."""

    DEQUANT_WITH_SINGLE_ROW = 0
    DEQUANT_WITH_MULTI_ROW = 1


TENSOR, CHANNEL, TOKEN, GROUP = 0, 1, 2, 3


@dataclass
class QuantCfg:
    """A decoded configuration (any of the six config structs: the fields a struct lacks keep their default)."""

    policy: int = TENSOR
    hasOffset: bool = True
    isTranspose: bool = False
    roundMode: RoundMode = RoundMode.CAST_RINT
    kDim: int = 1

    def pack(self) -> int:
        return (int(self.policy) | (8 if self.hasOffset else 0) | (16 if self.isTranspose else 0)
                | (self.roundMode.value << 8) | ((int(self.kDim) + 1) << 16))


def decode_cfg(cfg: Any, policy: Any = None) -> QuantCfg:
    """The configuration from a packed int, a QuantCfg (or any object with its field names) and a policy."""
    if cfg is None:
        out = QuantCfg()
    elif isinstance(cfg, (int, np.integer)):
        v = int(cfg)
        out = QuantCfg(v & 7, bool(v & 8), bool(v & 16), RoundMode((v >> 8) & 0xFF), ((v >> 16) & 0xFF) - 1)
    else:
        out = QuantCfg(**{k: getattr(cfg, k) for k in QuantCfg.__dataclass_fields__ if hasattr(cfg, k)})
        if isinstance(out.policy, Enum):
            out.policy = out.policy.value
    if policy is not None:
        out.policy = policy.value if isinstance(policy, Enum) else int(policy)
    return out


def split_tmp(args: tuple) -> tuple[LocalTensor | None, list]:
    """(the sharedTmpBuffer: the first uint8_t tensor of ``args``, or None; the other arguments)."""
    rest = list(args)
    for k, a in enumerate(rest):
        if isinstance(a, LocalTensor) and a.dtype == U8:
            return rest.pop(k), rest
    return None, rest


def token_rows(api: str, para: Any, config: Any, policy: Any, param: str) -> tuple[QuantCfg, int, int] | None:
    """The PER_TOKEN / PER_GROUP ``para`` form (an AscendQuantParam): (configuration, rows, n), the rows
    bounded by calCount; None after reporting another policy."""
    cfg = decode_cfg(config, policy)
    if cfg.policy not in (TOKEN, GROUP):
        bad(api, f"the {param} form runs PER_TOKEN or PER_GROUP only")
        return None
    n = int(para.n)
    return cfg, min(int(para.m), int(para.calCount) // max(n, 1)), n


def policy_cfg(api: str, config: Any, scale: Any) -> QuantCfg | None:
    """The configuration of Quantize / Dequantize / AntiQuantize (``config`` as :func:`decode_cfg` takes it),
    or None after reporting a policy outside PER_TENSOR..PER_GROUP or a scale of the wrong kind (PER_TENSOR:
    a scalar; the others: a tensor)."""
    cfg = decode_cfg(config)
    if cfg.policy > GROUP:
        bad(api, f"policy {cfg.policy} is not one of PER_TENSOR, PER_CHANNEL, PER_TOKEN, PER_GROUP")
        return None
    if (cfg.policy == TENSOR) == isinstance(scale, LocalTensor):
        bad(api, "PER_TENSOR takes a scalar scale, the other policies a scale tensor")
        return None
    return cfg


# -- parameter structs ------------------------------------------------------------------------------------
@dataclass
class DequantParams:
    m: int = 0
    n: int = 0
    calCount: int = 0


@dataclass
class AscendQuantParam:
    m: int = 0
    n: int = 0
    calCount: int = 0
    groupSize: int = 0


@dataclass
class AscendDeQuantParam(AscendQuantParam):
    pass


@dataclass
class AscendAntiQuantParam(AscendQuantParam):
    pass


@dataclass
class QuantizeParams:
    m: int = 0
    n: int = 0
    groupSize: int = 0


@dataclass
class DequantizeParams(QuantizeParams):
    pass


@dataclass
class AntiQuantizeParams(QuantizeParams):
    pass


@dataclass
class AntiQuantShapeInfo:
    offsetHeight: int = 0
    offsetWidth: int = 0
    scaleHeight: int = 0
    scaleWidth: int = 0


# -- checks and buffers ---------------------------------------------------------------------------------
def bad(api: str, message: str) -> None:
    current().report("BAD_PARAMETER", f"{api}: {message}")


def check_types(api: str, what: str, t: LocalTensor | None, allowed: tuple[str, ...]) -> bool:
    if t is None or type_name(t.dtype) in allowed:
        return True
    bad(api, f"{what} element type {type_name(t.dtype)} is not one of {', '.join(allowed)} (the page's table)")
    return False


def _combos(text: str) -> frozenset:
    """'a b c, d e f' -> {(a, b, c), (d, e, f)} with h / bf / f / i32 / i8 / u64 short for the type names."""
    short = {"h": "half", "bf": "bfloat16_t", "f": "float", "i32": "int32_t", "i8": "int8_t", "u64": "uint64_t"}
    return frozenset(tuple(short[w] for w in item.split()) for item in text.split(","))


#: the pages' tables of type combinations
QUANT_SRC_SCALE = _combos("h h, bf bf, f f, h f, bf f")                         # (src, scale / offset)
DEQ_TOKEN = _combos("i32 h h, i32 bf bf, i32 f f, i32 f h, i32 f bf, f h h, f bf bf, f f f, f f h, f f bf")
DEQ_CHANNEL = _combos("h u64, f f, f bf, bf bf, bf f")                         # (dst, deqScale tensor)
ANTI_CHANNEL = _combos("h h, bf bf")                                           # (scale / offset, dst)
ANTI_TOKEN = _combos("h h, bf bf, f f, f h, f bf")                             # (scale / offset, dst)


def check_combo(api: str, names: str, ts: tuple, allowed: frozenset) -> bool:
    """The element types of ``ts`` (a non-tensor entry matches any type) form one of ``allowed``."""
    key = tuple(type_name(t.dtype) if isinstance(t, LocalTensor) else None for t in ts)
    if any(all(k is None or k == a for k, a in zip(key, row)) for row in allowed):
        return True
    shown = ", ".join(k or "scalar" for k in key)
    bad(api, f"({names}) = ({shown}) is not a combination of the page's table")
    return False


def apart(api: str, first: tuple, *others: tuple) -> bool:
    """``first`` = (name, tensor, bytes used) must not overlap any of ``others`` (the pages forbid it); a
    tensor of None (no sharedTmpBuffer, a scalar operand) is skipped."""
    name, t, nbytes = first
    if not isinstance(t, LocalTensor):
        return True
    for oname, o, obytes in others:
        if isinstance(o, LocalTensor) and o.addr < t.addr + nbytes and t.addr < o.addr + obytes:
            bad(api, f"{name} [{t.addr}, {t.addr + nbytes}) overlaps {oname} [{o.addr}, {o.addr + obytes}) in UB "
                     f"(the page forbids it)")
            return False
    return True


def extent(name: str, t: Any, count: int) -> tuple:
    """(name, tensor, bytes of its first ``count`` elements) for :func:`apart`."""
    return name, t, int(count) * t.dtype.itemsize if isinstance(t, LocalTensor) else 0


def align32(nbytes: int) -> int:
    return (int(nbytes) + 31) // 32 * 32


def row_bytes(n: int, nfloat: int = 3, nhalf: int = 1) -> int:
    """Bytes of ``nfloat`` float rows and ``nhalf`` half rows of ``n`` elements (each 32 B aligned)."""
    return nfloat * align32(4 * max(int(n), 1)) + nhalf * align32(2 * max(int(n), 1))


@dataclass
class Rows:
    x: LocalTensor       #: float: the value being computed
    s: LocalTensor       #: float: the current scale row
    o: LocalTensor       #: float: the current offset row
    h: LocalTensor       #: half: the narrowing / widening step


def float_rows(api: str, tmp: LocalTensor | None, n: int, nfloat: int = 3, nhalf: int = 1) -> Rows:
    buf = tmp_buffer(api, tmp, row_bytes(n, nfloat, nhalf))
    off, out = 0, []
    for _ in range(nfloat):
        t, off = carve(buf, F32, n, off)
        out.append(t)
    while len(out) < 3:
        out.append(None)
    h = carve(buf, F16, n, off)[0] if nhalf else None
    return Rows(out[0], out[1], out[2], h)


def widen(dst_f32: LocalTensor, src: LocalTensor, n: int, half_buf: LocalTensor | None) -> LocalTensor:
    """``src`` (n elements) as float: the tensor itself when it is float, else cast into ``dst_f32``
    (int8 through half, as the Cast table has no int8 -> float pair)."""
    dt = src.dtype
    if dt == F32:
        return src
    if dt == I8:
        MB.Cast(half_buf, src, RoundMode.CAST_NONE, n)
        MB.Cast(dst_f32, half_buf, RoundMode.CAST_NONE, n)
    else:
        MB.Cast(dst_f32, src, RoundMode.CAST_NONE, n)
    return dst_f32


def narrow_float(dst: LocalTensor, x: LocalTensor, n: int) -> None:
    """The float row ``x`` into ``dst`` (float: a copy unless it is the same buffer; half / bf16: RINT)."""
    if dst.dtype == F32:
        if dst.addr != x.addr:
            MB.Muls(dst, x, 1.0, n)              # an exact move (-0 stays -0)
        return
    MB.Cast(dst, x, RoundMode.CAST_RINT, n)


def scalar_f(v: Any) -> float:
    """A scale / offset scalar as float (rounded to float first, as the float arithmetic uses it)."""
    return float(np.float32(scalar_value(v)))


def low_float(bits: int) -> float:
    """The float in the low 32 bits of an uint64 deqScale element (the high bits are not used)."""
    return float(np.array([int(bits) & 0xFFFFFFFF], np.uint32).view(np.float32)[0])


class ParamRows:
    """A scale or offset operand seen row by row: ``segments(i)`` lists ``(start, length, value)`` over the
    row's n columns, value a float LocalTensor (a row of float values, cast into ``buf`` when the operand is
    narrower) or a float scalar. Policies: TENSOR (one scalar), CHANNEL ([1, n]), TOKEN ([m, 1]),
    GROUP (kDim 0: [ceil(m / g), n]; kDim 1: [m, ceil(n / g)])."""

    def __init__(self, p: Any, policy: int, n: int, kdim: int, group: int, buf: LocalTensor | None, transpose=False):
        self.p, self.policy, self.n, self.buf = p, policy, int(n), buf
        self.kdim = (int(kdim) != 0) != bool(transpose)       # True: groups run along the columns
        self.group = max(int(group), 1)
        self.ncol_groups = -(-self.n // self.group)
        self.loaded = None
        self.transpose = bool(transpose)

    def _row(self, r: int) -> LocalTensor:
        if self.loaded != r:
            src = self.p[r * self.n]
            if self.p.dtype == U64:
                low = self.p.ReinterpretCast(F32)
                for j in range(self.n):              # the low 32 bits of each uint64 (scalar moves)
                    self.buf.SetValue(j, low.GetValue(2 * (r * self.n + j)))
                self.rowt = self.buf
            else:
                self.rowt = widen(self.buf, src, self.n, None)
            self.loaded = r
        return self.rowt

    def _scalar(self, k: int) -> float:
        v = self.p.GetValue(k)
        return low_float(v) if self.p.dtype == U64 else scalar_f(v)

    def segments(self, i: int) -> list[tuple[int, int, Any]]:
        n = self.n
        if not isinstance(self.p, LocalTensor):
            return [(0, n, scalar_f(self.p))]
        if self.policy == TENSOR:
            return [(0, n, self._scalar(0))]
        if self.policy == CHANNEL:
            return [(0, n, self._row(0))]
        if self.policy == TOKEN:
            if self.transpose:
                return [(0, n, self._row(0))]
            return [(0, n, self._scalar(i))]
        if not self.kdim:
            return [(0, n, self._row(i // self.group))]
        g = self.group
        return [(c, min(g, n - c), self._scalar(i * self.ncol_groups + c // g)) for c in range(0, n, g)]


def apply(op_vec, op_sc, x: LocalTensor, segs: list) -> None:
    """x[c:c+len] = op(x[c:c+len], value) for each segment (a tensor value: the vector op, else the scalar op)."""
    for c, ln, v in segs:
        if isinstance(v, LocalTensor):
            op_vec(x[c], x[c], v[c], ln)
        else:
            op_sc(x[c], x[c], v, ln)


def group_size(api: str, policy: int, group: int) -> int:
    if policy == GROUP and (int(group) <= 0 or int(group) % 32):
        bad(api, f"groupSize {group} must be a positive multiple of 32 (PER_GROUP)")
    return max(int(group), 1)


def check_rows(api: str, m: int, n: int, *tensors: LocalTensor) -> bool:
    """m x n within each tensor and every row 32 B aligned (the pages: n of each operand's type); m or n of 0
    is nothing to do (False, no diagnostic)."""
    if m <= 0 or n <= 0:
        return False
    for t in tensors:
        if t.count < m * n:
            bad(api, f"m x n = {m} x {n} elements exceed a tensor of {t.count} ({type_name(t.dtype)})")
            return False
        if (n * t.dtype.itemsize) % 32:
            bad(api, f"n = {n} {type_name(t.dtype)} elements are not a multiple of 32 B (each row must be aligned)")
            return False
    return True

