"""``AscendC::`` high-level math APIs (高阶API/数学计算): the kernel-side element-wise functions (their
documented overloads: with / without ``sharedTmpBuffer``, with / without ``calCount``, the template
``isReuseSource`` and config parameters) and the host-side ``Get<Api>MaxMinTmpSize`` /
``Get<Api>TmpBufferFactorSize`` queries, whose C++ bodies are generated here from the one temporary-space
table (:data:`toolkit.ascendc.highlevel.math.RULES`). Semantics: :mod:`toolkit.ascendc.highlevel.math`.
The config types and the config constants are declared by hand in ``include/asc/hl_math_types.h``
(:data:`NAMES`); ``TensorShape`` (``include/asc/hl_shape.h``) is defined once, in ``hl_activation``."""
from __future__ import annotations

from toolkit.ascendc.highlevel import math as HL

from . import spec
from .spec import (
    Arg,
    Family,
    Field,
    NameDef,
    StructDef,
    api,
    form,
    local,
    scalar,
    sref,
    struct,
    tded,
    thidden,
    tnamed,
)

FAMILY = Family("hl_math", "AscendC", "hl_math.h", HL, doc_root="高阶API/数学计算")

T = tded("T")
REUSE = tnamed("isReuseSource", "bool", "false")
TMP = local("sharedTmpBuffer", "uint8_t")
CNT = scalar("calCount", "const uint32_t")
ND = "const __asc::nodeduce_t<T>&"        #: a scalar of the element type that takes no part in deduction
HF = ("half", "float")
INTS = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t")
ANY = ("bool", *INTS[:4], "half", "bfloat16_t", *INTS[4:6], "float", *INTS[6:])


def _cfg(kind: str, default: str) -> tuple:
    return (thidden("config", f"const {kind}&", default),)


def elementwise(short: str, head: tuple, tps: tuple, *, no_count: bool = True, tmp: bool = True,
                dtypes: tuple = HF, note: str = "", page: str = "") -> object:
    """The tmp / no-tmp x count / no-count forms of an element-wise API, in the pages' order."""
    forms = []
    for with_tmp in ((True, False) if tmp else (False,)):
        for with_count in ((True, False) if no_count else (True,)):
            forms.append(form(*tps, *head, *((TMP,) if with_tmp else ()), *((CNT,) if with_count else ())))
    return api(FAMILY, short, getattr(HL, short), *forms, dtypes=dtypes, doc=page or f"{short}接口/{short}.md",
               note=note)


def std(short: str, cfg: tuple = (), *, head: tuple | None = None, **kw) -> object:
    """``template <typename T, bool isReuseSource = false[, config]>``, (dst, src[, src1]) first."""
    head = head or (local("dstTensor"), local("srcTensor"))
    return elementwise(short, head, (T, REUSE, *cfg), **kw)


def cfg_first(short: str, cfg: str, default: str, head: tuple, extra: tuple = (), **kw) -> object:
    """``template <const XConfig& config = DEFAULT_X_CONFIG, typename T[, ...]>``."""
    return elementwise(short, head, (*_cfg(cfg, default), T, *tded(*extra)), **kw)


BIN = (local("dstTensor"), local("src0Tensor"), local("src1Tensor"))
D3 = (local("dst"), local("src0"), local("src1"))
ASSUMED = "algorithm: assumed ({})"
_QUAD = "r = x - k pi/2 (3-part pi/2), sin / cos Taylor polynomials on |r| <= pi/4 picked by k mod 4"

KERNEL = [
    std("Sin", _cfg("SinConfig", "defaultSinConfig"), note=ASSUMED.format(_QUAD)),
    std("Cos", _cfg("CosConfig", "defaultCosConfig"), note=ASSUMED.format(_QUAD)),
    std("Tan", note=ASSUMED.format("reduction by pi/2, sin/cos Taylor polynomials")),
    std("Asin", note=ASSUMED.format("Cephes asinf: sqrt((1-|x|)/2) above 0.5, minimax degree 5 in x^2")),
    std("Acos", note=ASSUMED.format("through the Cephes asinf kernel: pi/2 - asin, 2 asin(s), pi - 2 asin(s)")),
    std("Atan", _cfg("AtanConfig", "defaultAtanConfig"), note=ASSUMED.format("Cephes atanf: 3 intervals, minimax degree 4 in x^2")),
    std("Sinh", note=ASSUMED.format("Cephes sinhf polynomial for |x| <= 1, exp(|x| - ln2) - 1/(4 exp(|x| - ln2)) above")),
    std("Cosh", note=ASSUMED.format("exp(|x| - ln2) + 1/(4 exp(|x| - ln2))")),
    std("Tanh", _cfg("TanhConfig", "DEFAULT_TANH_CONFIG"),
        note=ASSUMED.format("Cephes tanhf polynomial for |x| < 0.625, 1 - 2/(exp(2|x|) + 1) above")),
    std("Asinh", note=ASSUMED.format("log1p(|x| + x^2/(1 + sqrt(1 + x^2))), ln(2|x|) above 1e4")),
    std("Acosh", note=ASSUMED.format("log1p((x-1) + sqrt((x-1)(x+1))), ln(2x) above 1e4")),
    std("Atanh", note=ASSUMED.format("log1p(2|x|/(1-|x|))/2")),
    elementwise("Log", (local("dstTensor"), local("srcTensor")), (T, REUSE), tmp=False, page="Log接口/Log-79.md",
                note="basic Ln in float"),
    elementwise("Log2", (local("dstTensor"), local("srcTensor")), (T, REUSE), page="Log接口/Log-79.md",
                note="basic Ln in float, times 1/ln2"),
    elementwise("Log10", (local("dstTensor"), local("srcTensor")), (T, REUSE), tmp=False, page="Log接口/Log-79.md",
                note="basic Ln in float, times 1/ln10"),
    std("Erf", _cfg("ErfConfig", "defaultErfConfig"),
        note=ASSUMED.format("Taylor to x^21 for |x| < 1, 1 - Numerical Recipes erfcc above")),
    std("Erfc", note=ASSUMED.format("1 - Taylor erf for |x| < 1, Numerical Recipes erfcc above")),
    std("Lgamma", no_count=False, note=ASSUMED.format("shift to >= 4, Stirling series to 1/z^7, reflection below 0.5")),
    std("Digamma", no_count=False, note=ASSUMED.format("shift to >= 4, asymptotic series to 1/z^8, reflection below 0.5")),
    std("Floor", no_count=False, note="Cast CAST_FLOOR in float"),
    std("Ceil", no_count=False, note="Cast CAST_CEIL in float"),
    std("Round", no_count=False, note="Cast CAST_ROUND (half away from zero) in float"),
    std("Trunc", note="Cast CAST_TRUNC in float"),
    std("Frac", note="x - trunc(x)"),
    std("Sign", dtypes=("int64_t", *HF), note="compare and select"),
    std("Fmod", _cfg("FmodConfig", "DEFAULT_FMOD_CONFIG"), head=BIN,
        note="a - trunc(a/b) b, the last step fused (every FmodAlgo runs this)"),
    std("Hypot", head=BIN, dtypes=("half", "bfloat16_t", "float"),
        note=ASSUMED.format("max * sqrt(1 + (min/max)^2)")),
    cfg_first("Rint", "RintConfig", "DEFAULT_RINT_CONFIG", (local("dst"), local("src")), no_count=False,
              note="Cast CAST_RINT in float"),
    cfg_first("Fma", "FmaConfig", "DEFAULT_FMA_CONFIG", (*D3, local("src2")), no_count=False,
              note="MulAddDst (one rounding) in float"),
    cfg_first("SinCos", "SinCosConfig", "DEFAULT_SINCOS_CONFIG", (local("dst0"), local("dst1"), local("src")),
              no_count=False, note=ASSUMED.format("the Sin and the Cos algorithm: " + _QUAD)),
    api(FAMILY, "ClampMax", HL.ClampMax, form(T, REUSE, local("dstTensor"), local("srcTensor"), TMP,
                                              scalar("scalar", ND, "T"), CNT),
        form(T, REUSE, local("dstTensor"), local("srcTensor"), scalar("scalar", ND, "T"), CNT),
        dtypes=HF, doc="Clamp接口/ClampMax.md", note="Mins in float"),
    api(FAMILY, "ClampMin", HL.ClampMin, form(T, REUSE, local("dstTensor"), local("srcTensor"), TMP,
                                              scalar("scalar", ND, "T"), CNT),
        form(T, REUSE, local("dstTensor"), local("srcTensor"), scalar("scalar", ND, "T"), CNT),
        dtypes=HF, doc="Clamp接口/ClampMin.md", note="Maxs in float"),
]


def _power() -> object:
    """Tensor ** tensor, tensor ** scalar, scalar ** tensor; each with / without tmp and calCount."""
    tps = (T, REUSE, *_cfg("PowerConfig", "defaultPowerConfig"))
    heads = ((local("dstTensor"), local("src0Tensor"), local("src1Tensor")),
             (local("dstTensor"), local("src0Tensor"), scalar("src1Scalar", ND, "T")),
             (local("dstTensor"), scalar("src0Scalar", ND, "T"), local("src1Tensor")))
    forms = [form(*tps, *h, *tail) for h in heads for tail in ((TMP, CNT), (TMP,), (CNT,), ())]
    return api(FAMILY, "Power", HL.Power, *forms, dtypes=(*INTS[:6], "half", "bfloat16_t", "float"),
               doc="Power接口/Power.md",
               note=ASSUMED.format("floats: exp(b ln|a|) in float, negative bases with integral b (sign by parity), "
                                   "b == 0 gives 1; integers: squaring in the type (8-bit in 16), negative b gives "
                                   "0 unless |a| == 1"))


def _bitwise(short: str, cfg: str, unary_: bool = False) -> object:
    head = (local("dst"), local("src")) if unary_ else D3
    return cfg_first(short, f"{short}Config", f"DEFAULT_{_snake(short)}_CONFIG", head, no_count=False, tmp=False,
                     dtypes=INTS, note="And / Or / Not" + (": (a | b) & ~(a & b)" if "Xor" in short else ""))


def _snake(s: str) -> str:
    return "".join("_" + c if c.isupper() and k else c for k, c in enumerate(s)).upper()


def _logical(short: str, unary_: bool = False) -> object:
    head = (local("dst"), local("src", "U")) if unary_ else (local("dst"), local("src0", "U"), local("src1", "U"))
    return elementwise(short, head, (*_cfg(f"{short}Config", f"DEFAULT_{_snake(short)}_CONFIG"), T, *tded("U")),
                       no_count=False, tmp=False, dtypes=ANY,
                       note=ASSUMED.format("Compares != 0, the bit masks combined, Select 1 / 0"))


def _logical_s(short: str) -> object:
    """One side a scalar (either side), the other a tensor."""
    cfg = _cfg(f"{short}Config", f"DEFAULT_{_snake(short)}_CONFIG")
    idx = (tnamed("config", f"const {short}Config&", f"DEFAULT_{_snake(short)}_CONFIG", send="config.scalarTensorIndex"),)
    forms = [form(*cfg, T, *tded("U", "S"), local("dst"), local("src0", "U"), scalar("src1", "const S&", "double"), CNT),
             form(*cfg, T, *tded("U", "S"), local("dst"), scalar("src0", "const U&", "double"), local("src1", "S"), CNT),
             form(*idx, T, *tded("U", "S"), local("dst"), local("src0", "U"), local("src1", "S"), CNT)]
    return api(FAMILY, short, getattr(HL, short), *forms, dtypes=ANY, doc=f"{short}接口/{short}.md",
               note=ASSUMED.format("the scalar's truth decides: a copy of bool(tensor) or a constant"))


def _classify(short: str, cfg: bool = True) -> object:
    head = (local("dst"), local("src", "U"))
    if not cfg:
        return api(FAMILY, short, getattr(HL, short), form(*tded("T", "U"), *head, scalar("calCount", "uint32_t")),
                   dtypes=("bool", "half", "bfloat16_t", "float"), doc=f"{short}接口/{short}.md", note="x - x == 0")
    return elementwise(short, head, (*_cfg(f"{short}Config", f"DEFAULT_{_snake(short)}_CONFIG"), T, *tded("U")),
                       no_count=False, dtypes=("bool", *HF), note="x != x" if short == "IsNan" else "|x| == inf")


def _two_sided(short: str, head0: tuple, tail: tuple, tps: tuple, note: str, dtypes: tuple) -> object:
    """Forms where two operands are each a tensor or a scalar (Where, Clamp)."""
    forms = []
    names = ("src0", "src1") if short == "Where" else ("min", "max")
    for a_t in (True, False):
        for b_t in (True, False):
            a = local(names[0]) if a_t else scalar(names[0], "const U&", "T")
            b = local(names[1]) if b_t else scalar(names[1], "const S&", "T")
            forms.append(_used(form(*tps, *head0, a, b, *tail)))
    return api(FAMILY, short, getattr(HL, short), *forms, dtypes=dtypes, doc=f"{short}接口/{short}.md", note=note)


def _used(f):
    """The form without deduced template parameters none of its arguments names (not deducible)."""
    import dataclasses
    keep = tuple(p for p in f.tparams if p.kind != "deduced" or any(f"<{p.name}>" in a.ctype or
                                                                    f" {p.name}&" in a.ctype for a in f.args))
    return dataclasses.replace(f, tparams=keep)


LOGIC = [
    _power(),
    _bitwise("BitwiseAnd", "and"), _bitwise("BitwiseOr", "or"), _bitwise("BitwiseXor", "xor"),
    _bitwise("BitwiseNot", "not", unary_=True),
    std("Xor", head=BIN, dtypes=("int16_t", "uint16_t"), note="And / Or / Not: (a | b) & ~(a & b)",
        page="Xor接口/Xor-82.md"),
    _logical("LogicalAnd"), _logical("LogicalOr"), _logical("LogicalXor"), _logical("LogicalNot", unary_=True),
    _logical_s("LogicalAnds"), _logical_s("LogicalOrs"),
    _classify("IsNan"), _classify("IsInf"), _classify("IsFinite", cfg=False),
    _two_sided("Where", (local("dst"),), (local("condition", "V"), scalar("count", "const uint32_t")),
               tded("T", "U", "S", "V"), "Compares(condition, 0) != 0, then Select", ANY),
    _two_sided("Clamp", (local("dst"), local("src")), (scalar("count", "const uint32_t"),),
               (*_cfg("ClampConfig", "DEFAULT_CLAMP_CONFIG"), *tded("T", "U", "S")),
               "Max then Min in the element type", (*INTS, "half", "bfloat16_t", "float")),
]

# -- host side: the temporary-space queries ------------------------------------------------------------
SHAPE = struct("srcShape", "AscendC::TensorShape")
PLATFORM = struct("ascendcPlatform", "platform_ascendc::PlatformAscendC")
TSIZE = scalar("typeSize", "const uint32_t")
MAXMIN = (scalar("isReuseSource", "const bool"), sref("maxValue", "uint32_t"), sref("minValue", "uint32_t"))
FACTOR = (sref("maxLiveNodeCount", "uint32_t"), sref("extraBuffer", "uint32_t"))
#: the config type a Sin / Cos query may lead with
CONFIG_FIRST = {"Sin": "SinConfig", "Cos": "CosConfig"}


def _max_min_body(short: str, elements: str) -> str:
    rule = HL.RULES[short]
    nb = rule.cpp_nodes(HL.OPERANDS.get(short, 2))
    return (f"(void)isReuseSource; const uint64_t bytes = (uint64_t){nb}; const uint64_t n = {elements}; "
            "maxValue = (uint32_t)(bytes * (((n == 0 ? 1 : n) + 63) / 64 * 64)); minValue = (uint32_t)(bytes * 64);")


def _factor_body(short: str) -> str:
    nb = HL.RULES[short].cpp_nodes(HL.OPERANDS.get(short, 2))
    return f"maxLiveNodeCount = (uint32_t)({nb} / typeSize); extraBuffer = 0;"


#: APIs whose host queries are documented on another API's pages
_QUERY_PAGE_OF = {"Log2": "Log", "Log10": "Log"}


def host(short: str) -> list:
    """Get<short>MaxMinTmpSize and Get<short>TmpBufferFactorSize: the plain forms, the forms led by a
    PlatformAscendC and (Sin, Cos) by the config."""
    size = "(uint64_t)srcShape.GetShapeSize()"
    mm, fa = _max_min_body(short, size), _factor_body(short)
    ret = "bool" if short == "Exp" else "void"
    tail = " return true;" if ret == "bool" else ""
    leads: list[tuple] = [(), (PLATFORM,)]
    if short in CONFIG_FIRST:
        leads.append((struct("config", CONFIG_FIRST[short]),))
    home = _QUERY_PAGE_OF.get(short, short)          # Log2 / Log10: their queries are on Log's pages
    page = f"{home}接口/Get{home}MaxMinTmpSize.md"
    ign = {(): "", (PLATFORM,): "(void)ascendcPlatform; "}
    mm_forms = [form(*lead, SHAPE, TSIZE, *MAXMIN, ret=ret, native=ign.get(lead, "(void)config; ") + mm + tail)
                for lead in leads]
    fa_forms = [form(*lead, TSIZE, *FACTOR, native=ign.get(lead, "(void)config; ") + fa) for lead in leads]
    note = "temporary space: the API's working tensors (toolkit.ascendc.highlevel.math.RULES)"
    return [api(FAMILY, f"Get{short}MaxMinTmpSize", None, *mm_forms, doc=page, note=note),
            api(FAMILY, f"Get{short}TmpBufferFactorSize", None, *fa_forms,
                doc=f"{home}接口/Get{home}TmpBufferFactorSize.md", note=note)]


#: bytes per element of the integer Power (toolkit.ascendc.highlevel.math_intpow.RULE)
INT_POWER = HL.INT_POWER_RULE.cpp_nodes(0)


def _power_host() -> list:
    rule = HL.RULES["Power"]
    nb = rule.cpp_nodes(HL.OPERANDS["Power"])
    mm = form(struct("srcShape1", "AscendC::TensorShape"), struct("srcShape2", "AscendC::TensorShape"),
              scalar("typeIsInt", "const bool"), TSIZE, *MAXMIN,
              native=f"(void)isReuseSource; const uint64_t bytes = typeIsInt ? (uint64_t){INT_POWER} : (uint64_t){nb}; "
                     "uint64_t n = (uint64_t)srcShape1.GetShapeSize(); const uint64_t n2 = (uint64_t)srcShape2.GetShapeSize(); "
                     "if (n2 > n) n = n2; maxValue = (uint32_t)(bytes * (((n == 0 ? 1 : n) + 63) / 64 * 64)); "
                     "minValue = (uint32_t)(bytes * 64);")
    fa = form(scalar("baseIsTensor", "const bool"), scalar("expIsTensor", "const bool"),
              scalar("typeIsInt", "const bool"), TSIZE, *FACTOR,
              native=f"(void)baseIsTensor; (void)expIsTensor; maxLiveNodeCount = (uint32_t)((typeIsInt ? {INT_POWER} : {nb}) / typeSize); "
                     "extraBuffer = 0;")
    return [api(FAMILY, "GetPowerMaxMinTmpSize", None, mm, doc="Power接口/GetPowerMaxMinTmpSize.md"),
            api(FAMILY, "GetPowerTmpBufferFactorSize", None, fa, doc="Power接口/GetPowerTmpBufferFactorSize.md")]


#: the APIs with documented host queries (Power's have their own arguments; CumSum's: see its definition)
HOST_QUERIES = ("Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Axpy", "BitwiseAnd", "BitwiseNot", "BitwiseOr", "BitwiseXor", "Ceil", "Clamp", "Cos", "Cosh", "Digamma", "Erf", "Erfc", "Exp", "Floor", "Fma", "Fmod", "Frac", "Hypot", "IsInf", "IsNan", "Lgamma", "Log", "Log10", "Log2", "LogicalAnd", "LogicalAnds", "LogicalNot", "LogicalOr", "LogicalOrs", "LogicalXor", "Rint", "Round", "Sign", "Sin", "SinCos", "Sinh", "Tan", "Tanh", "Trunc", "Where", "Xor")
HOST = [d for short in HOST_QUERIES for d in host(short)] + _power_host()

def _cumsum() -> list:
    cfg = tnamed("config", "const CumSumConfig&", "defaultCumSumConfig",
                 send="(config.isLastAxis ? 1 : 0) | (config.outputLastRow ? 2 : 0)")
    head = (Arg(spec.LOCAL, "dstTensor", "LocalTensor<T>&"), Arg(spec.LOCAL, "lastRowTensor", "LocalTensor<T>&"),
            local("srcTensor"))
    info = struct("cumSumInfo", "CumSumInfo")
    tmp = Arg(spec.LOCAL, "sharedTmpBuffer", "LocalTensor<uint8_t>&")
    kernel = api(FAMILY, "CumSum", HL.CumSum, form(T, cfg, *head, tmp, info), form(T, cfg, *head, info), dtypes=HF,
                 doc="CumSum接口/CumSum.md",
                 note="LINEBYLINE in float (every CumSumAlgorithm): one Add per row; the last axis through a "
                      "Gather transpose")
    body = ("(void)isReuseSource; const uint64_t dims = srcShape.GetDimNum(); "
            "const uint64_t outter = dims > 1 ? (uint64_t)srcShape.GetDim(0) : 1; "
            "const uint64_t inner = (uint64_t)srcShape.GetDim(dims > 1 ? 1 : 0); const uint64_t n = outter * inner; "
            "auto up = [](uint64_t v, uint64_t k) { return (v + k - 1) / k * k; }; "
            "uint64_t b = typeSize != 4u ? 2 * up(n, 64) * 4 : 0; "
            "if (isLastAxis) { const uint64_t m = inner * up(outter, 8); b += up(m, 64) * 4 + 3 * up(m > n ? m : n, 64) * 4; } "
            "maxValue = (uint32_t)b; minValue = (uint32_t)b;")
    host_ = api(FAMILY, "GetCumSumMaxMinTmpSize", None,
                form(SHAPE, TSIZE, scalar("isLastAxis", "const bool"), *MAXMIN, native=body),
                doc="CumSum接口/GetCumSumMaxMinTmpSize.md",
                note="temporary space: toolkit.ascendc.highlevel.math_cumsum.tmp_bytes")
    return [kernel, host_]


STRUCTS = [StructDef("AscendC::CumSumInfo", HL.CumSumInfo, (Field("outter", "uint32_t", "0"),
                                                           Field("inner", "uint32_t", "0")),
                     doc="高阶API/数学计算/CumSum接口/CumSum.md")]

APIS = KERNEL + LOGIC + HOST + _cumsum()

NAMES = [NameDef(f"AscendC::{n}", "type", "asc/hl_math_types.h") for n in (
    "SinConfig", "CosConfig", "AtanConfig", "TanhConfig",
    "ErfConfig", "FmodConfig", "PowerConfig", "RintConfig", "FmaConfig",
    "SinCosConfig", "ClampConfig", "IsNanConfig", "IsInfConfig", "BitwiseAndConfig", "BitwiseOrConfig",
    "BitwiseXorConfig", "BitwiseNotConfig", "LogicalAndConfig", "LogicalOrConfig", "LogicalXorConfig",
    "LogicalNotConfig", "LogicalAndsConfig", "LogicalOrsConfig", "CumSumConfig")] + [
    NameDef(f"AscendC::{n}", "constant", "asc/hl_math_types.h") for n in (
        "defaultSinConfig", "defaultCosConfig", "defaultAtanConfig", "DEFAULT_TANH_CONFIG", "defaultErfConfig",
        "DEFAULT_FMOD_CONFIG", "FMOD_ITERATION_NUM_MAX", "defaultPowerConfig", "DEFAULT_RINT_CONFIG",
        "DEFAULT_FMA_CONFIG", "DEFAULT_SINCOS_CONFIG", "DEFAULT_CLAMP_CONFIG", "DEFAULT_IS_NAN_CONFIG",
        "DEFAULT_IS_INF_CONFIG", "DEFAULT_BITWISE_AND_CONFIG", "DEFAULT_BITWISE_OR_CONFIG",
        "DEFAULT_BITWISE_XOR_CONFIG", "DEFAULT_BITWISE_NOT_CONFIG", "DEFAULT_LOGICAL_AND_CONFIG",
        "DEFAULT_LOGICAL_OR_CONFIG", "DEFAULT_LOGICAL_XOR_CONFIG", "DEFAULT_LOGICAL_NOT_CONFIG",
        "DEFAULT_LOGICAL_ANDS_CONFIG", "DEFAULT_LOGICAL_ORS_CONFIG", "defaultCumSumConfig")]
