"""``AscendC::`` high-level math APIs (高阶API/数学计算): the Python kernel API and what the ``.asc`` bridge
runs. Kernel ports write ``from toolkit.ascendc.highlevel import math as HL`` and call
``HL.Asin(dst, src, tmp, n)`` or ``HL.Asin[half, False](dst, src, n)``.

Every API here is a kernel over the MemBase API (:mod:`.math_common` explains the shape: temporary
buffer, chunks, float32 working tensors). :data:`RULES` holds the temporary-space rule of each API; the
host-side ``Get<Api>MaxMinTmpSize`` / ``Get<Api>TmpBufferFactorSize`` are computed from it
(:func:`max_min_tmp_size`, :func:`tmp_buffer_factor_size`; the C++ ones are generated from the same table).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.dtypes import BF16, scalar_value
from toolkit.ascendc.regbase.types import RoundMode
from toolkit.ascendc.tensor import LocalTensor
from toolkit.engine.runtime import current

from . import math_expo as E
from . import math_special as S
from . import math_trig as T
from .math_common import (
    F32,
    HighLevelApi,
    TmpRule,
    Work,
    binary,
    run_elementwise,
    unary,
)
from .math_cumsum import CumSum, CumSumInfo
from .math_logic import (
    BitwiseAnd,
    BitwiseNot,
    BitwiseOr,
    BitwiseXor,
    Clamp,
    IsFinite,
    IsInf,
    IsNan,
    LogicalAnd,
    LogicalAnds,
    LogicalNot,
    LogicalOr,
    LogicalOrs,
    LogicalXor,
    Where,
    Xor,
)

F16 = np.dtype(np.float16)
HF = (F16, F32)
HBF = (F16, BF16, F32)
R = RoundMode

#: the temporary-space rule of every API (float32 working tensors beside the converted operands)
RULES: dict[str, TmpRule] = {
    "Sin": TmpRule(7), "Cos": TmpRule(7), "Tan": TmpRule(5), "Asin": TmpRule(5), "Acos": TmpRule(6),
    "Atan": TmpRule(6), "SinCos": TmpRule(7), "Sinh": TmpRule(6), "Cosh": TmpRule(2), "Tanh": TmpRule(6),
    "Asinh": TmpRule(6), "Acosh": TmpRule(5), "Atanh": TmpRule(5), "Log": TmpRule(0), "Log2": TmpRule(0),
    "Log10": TmpRule(0), "Exp": TmpRule(2), "Erf": TmpRule(8), "Erfc": TmpRule(8), "Lgamma": TmpRule(7),
    "Digamma": TmpRule(7), "Power": TmpRule(5), "Hypot": TmpRule(4), "Fmod": TmpRule(1), "Floor": TmpRule(0),
    "Ceil": TmpRule(0), "Trunc": TmpRule(0), "Round": TmpRule(0), "Rint": TmpRule(0), "Frac": TmpRule(1),
    "Sign": TmpRule(3), "ClampMax": TmpRule(0), "ClampMin": TmpRule(0), "Fma": TmpRule(0),
    "Axpy": TmpRule(0, False),
    "BitwiseAnd": TmpRule(1, False), "BitwiseOr": TmpRule(1, False), "BitwiseXor": TmpRule(1, False),
    "BitwiseNot": TmpRule(1, False), "Xor": TmpRule(1, False), "LogicalAnd": TmpRule(4, False),
    "LogicalOr": TmpRule(4, False), "LogicalXor": TmpRule(4, False), "LogicalNot": TmpRule(2, False),
    "LogicalAnds": TmpRule(2, False), "LogicalOrs": TmpRule(2, False), "IsNan": TmpRule(3, False),
    "IsInf": TmpRule(3, False), "IsFinite": TmpRule(3, False), "Where": TmpRule(2, False),
    "Clamp": TmpRule(2, False),
}
#: operands an API converts to float32 (sources + destinations) when its type is not float32
OPERANDS = {"Fmod": 3, "Hypot": 3, "Power": 3, "Fma": 4, "SinCos": 3, "ClampMax": 2, "ClampMin": 2}


def _u(name: str, body, allowed=HF) -> HighLevelApi:
    return unary(name, RULES[name], body, allowed, f"``{name}(dst, src, [sharedTmpBuffer], [calCount])``.")


Sin, Cos, Tan = _u("Sin", T.sin_body), _u("Cos", T.cos_body), _u("Tan", T.tan_body)
Asin, Acos, Atan = _u("Asin", T.asin_body), _u("Acos", T.acos_body), _u("Atan", T.atan_body)
Sinh, Cosh, Tanh = _u("Sinh", E.sinh_body), _u("Cosh", E.cosh_body), _u("Tanh", E.tanh_body)
Asinh, Acosh, Atanh = _u("Asinh", E.asinh_body), _u("Acosh", E.acosh_body), _u("Atanh", E.atanh_body)
Log, Log2, Log10 = _u("Log", E.log_body), _u("Log2", E.log2_body), _u("Log10", E.log10_body)
Erf, Erfc = _u("Erf", S.erf_body), _u("Erfc", S.erfc_body)
Lgamma, Digamma = _u("Lgamma", S.lgamma_body), _u("Digamma", S.digamma_body)
Floor, Ceil = _u("Floor", S.rounding(R.CAST_FLOOR)), _u("Ceil", S.rounding(R.CAST_CEIL))
Trunc, Round = _u("Trunc", S.rounding(R.CAST_TRUNC)), _u("Round", S.rounding(R.CAST_ROUND))
Rint, Frac = _u("Rint", S.rounding(R.CAST_RINT)), _u("Frac", S.frac_body)
Fmod = binary("Fmod", RULES["Fmod"], S.fmod_body, HF, "``Fmod(dst, a, b, [sharedTmpBuffer], [calCount])``.")
Hypot = binary("Hypot", RULES["Hypot"], S.hypot_body, HBF, "``Hypot(dst, a, b, [sharedTmpBuffer], [calCount])``.")


def _exp(dst: LocalTensor, src: LocalTensor, *rest: Any, taylorExpandLevel: int = 0, isReuseSource: bool = False
         ) -> None:
    """``Exp<T, taylorExpandLevel, isReuseSource>(dst, src, [sharedTmpBuffer], calCount)``."""
    run_elementwise("Exp", RULES["Exp"], dst, (src,), rest, E.exp_taylor(int(taylorExpandLevel)), HF)


HLExp = HighLevelApi(_exp, "Exp", value="taylorExpandLevel")


def _clamp_s(name: str, body):
    def fn(dst: LocalTensor, src: LocalTensor, *rest: Any, isReuseSource: bool = False) -> None:
        """``ClampMax / ClampMin(dst, src, [sharedTmpBuffer], scalar, calCount)``."""
        tmp = [a for a in rest if isinstance(a, LocalTensor)]
        scalar, count = [a for a in rest if not isinstance(a, LocalTensor)][-2:]
        run_elementwise(name, RULES[name], dst, (src,), (*tmp, count), body, HF, scalars=(scalar_value(scalar),))
    return HighLevelApi(fn, name)


ClampMax, ClampMin = _clamp_s("ClampMax", S.clamp_max_body), _clamp_s("ClampMin", S.clamp_min_body)


def _sign(dst: LocalTensor, src: LocalTensor, *rest: Any, isReuseSource: bool = False) -> None:
    """``Sign(dst, src, [sharedTmpBuffer], [calCount])`` (half, float, int64_t: int64 in its own type)."""
    if dst.dtype == np.dtype(np.int64):
        from .math_logic import sign_int64
        sign_int64(dst, src, rest)
        return
    run_elementwise("Sign", RULES["Sign"], dst, (src,), rest, S.sign_body, HF)


Sign = HighLevelApi(_sign, "Sign")


def _power(dst: LocalTensor, src0: Any, src1: Any, *rest: Any, isReuseSource: bool = False, **_config: Any) -> None:
    """``Power(dst, a, b, [sharedTmpBuffer], [calCount])``; a or b may be a scalar."""
    if dst.dtype.kind in "iu":
        from .math_intpow import int_power
        int_power(dst, src0, src1, rest)
        return
    tensors = [t for t in (src0, src1) if isinstance(t, LocalTensor)]
    sides = [src0, src1]

    def body(w: Work, out, *xs) -> None:
        it = iter(xs)
        ab = []
        for s in sides:
            if isinstance(s, LocalTensor):
                ab.append(next(it))
            else:
                t = w.node()
                w.dup(t, float(scalar_value(s)))
                ab.append(t)
        S.power_body(w, out, *ab)
    run_elementwise("Power", TmpRule(RULES["Power"].work + (2 - len(tensors))), dst, tensors, rest, body, HBF)


Power = HighLevelApi(_power, "Power")


def _fma(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, src2: LocalTensor, *rest: Any,
         **_config: Any) -> None:
    """``Fma(dst, src0, src1, src2, [sharedTmpBuffer], count)``: dst = src0 * src1 + src2, one rounding."""
    run_elementwise("Fma", RULES["Fma"], dst, (src0, src1, src2), rest, S.fma_body, HF)


Fma = HighLevelApi(_fma, "Fma")


def _sincos(dst0: LocalTensor, dst1: LocalTensor, src: LocalTensor, *rest: Any, **_config: Any) -> None:
    """``SinCos(dst0 = sin, dst1 = cos, src, [sharedTmpBuffer], count)``."""
    if dst1.dtype != dst0.dtype:
        current().report("BAD_PARAMETER", "SinCos: dst0 and dst1 types differ")
    run_elementwise("SinCos", RULES["SinCos"], dst0, (src,), rest, T.sin_body, HF)
    run_elementwise("SinCos", RULES["SinCos"], dst1, (src,), rest, T.cos_body, HF)


SinCos = HighLevelApi(_sincos, "SinCos")


def _int_power_rule() -> TmpRule:
    from .math_intpow import RULE
    return RULE


INT_POWER_RULE = _int_power_rule()


def max_min_tmp_size(api: str, elements: int, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of ``Get<api>MaxMinTmpSize`` in bytes (isReuseSource changes nothing here: the
    sources are never written)."""
    return RULES[api].max_min(elements, type_size, OPERANDS.get(api, 2))


def tmp_buffer_factor_size(api: str, type_size: int) -> tuple[int, int]:
    """(maxLiveNodeCount, extraBuffer) of ``Get<api>TmpBufferFactorSize``."""
    return RULES[api].factor(type_size, OPERANDS.get(api, 2))


__all__ = [
    "Acos",
    "Acosh",
    "Asin",
    "Asinh",
    "Atan",
    "Atanh",
    "BitwiseAnd",
    "BitwiseNot",
    "BitwiseOr",
    "BitwiseXor",
    "Ceil",
    "Clamp",
    "ClampMax",
    "ClampMin",
    "Cos",
    "Cosh",
    "CumSum",
    "CumSumInfo",
    "Digamma",
    "Erf",
    "Erfc",
    "Floor",
    "Fma",
    "Fmod",
    "Frac",
    "HLExp",
    "Hypot",
    "IsFinite",
    "IsInf",
    "IsNan",
    "Lgamma",
    "Log",
    "Log2",
    "Log10",
    "LogicalAnd",
    "LogicalAnds",
    "LogicalNot",
    "LogicalOr",
    "LogicalOrs",
    "LogicalXor",
    "Power",
    "Rint",
    "Round",
    "Sign",
    "Sin",
    "SinCos",
    "Sinh",
    "Tan",
    "Tanh",
    "Trunc",
    "Where",
    "Xor",
    "max_min_tmp_size",
    "tmp_buffer_factor_size",
]
