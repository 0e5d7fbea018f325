"""``AscendC::`` MemBase (LocalTensor) vector compute, arithmetic family: the count form and the level-0
forms (bit mask or continuous mask, repeat times, repeat parameters) of the element-wise APIs (binary,
tensor-scalar with the scalar on either side or a single-element tensor, unary, logic, shifts, the fused
ones), Duplicate and CreateVecIndex. The form builders here serve the other MemBase families too
(``membase_cmp``, ``membase_reduce``, ``membase_misc``)."""
from __future__ import annotations

from toolkit.ascendc import membase as MB

from .spec import (
    Family,
    api,
    form,
    local,
    scalar,
    struct,
    tded,
    thidden,
    tnamed,
    ttype,
    u64arr,
)

FAMILY = Family("membase", "AscendC", "membase.h", MB, doc_root="基础API/Memory矢量计算")

SET = tnamed("isSetMask")
T = tded("T")
#: the loop skeleton every MemBase VF records (count form and level-0 form, counter mode)
LOOP = ("RV_VLD", "RV_VST", "RV_VSLDB", "RV_VSSTB", "RV_PLT", "RV_PMOV", "RV_VLOOP", "RV_MEMBAR")
REP = (scalar("repeatTime", "uint8_t"),)
ND = "const __asc::nodeduce_t<T>&"        #: a scalar of the element type that takes no part in deduction
_BDT = thidden("T0", "class", "BinaryDefaultType")
_CFG = tnamed("config", "const BinaryConfig&", "DEFAULT_BINARY_CONFIG", send="config.scalarTensorIndex")


def config(kind: str) -> tuple:
    """The precision config template parameter of Div / Exp / Ln / Sqrt / Rsqrt / Reciprocal (accepted;
    every algo is within the 1 ulp the emulator's correctly rounded results meet)."""
    return (thidden("config", f"const {kind}Config&", f"DEFAULT_{kind.upper()}_CONFIG"),)


def level0(tps: tuple, head: tuple, params: str, *, tail: tuple = (), cfg: tuple = ()) -> tuple:
    """The bit-mask and continuous-mask level-0 forms: ``head, mask, repeatTime, params, tail``."""
    rest = (*REP, struct("repeatParams", params), *tail)
    return (form(*tps, SET, *cfg, *head, u64arr(), *rest), form(*tps, SET, *cfg, *head, scalar("mask", "uint64_t"), *rest))


def count(tps: tuple, head: tuple, ctype: str = "int32_t", cfg: tuple = (), set_: bool = False) -> tuple:
    return (form(*tps, *((SET,) if set_ else ()), *cfg, *head, scalar("count", ctype)),)


def dt(names: str) -> tuple:
    return tuple(names.split())


ALL_ARITH = dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")


def binary(short: str, opcodes: tuple, page: str, dtypes: tuple, cfg: tuple = (), level0_ok: bool = True,
           ctype: str = "int32_t"):
    head = (local("dst"), local("src0"), local("src1"))
    forms = count(T, head, ctype, cfg) + (level0(T, head, "BinaryRepeatParams", cfg=cfg) if level0_ok else ())
    return api(FAMILY, short, getattr(MB, short), *forms, opcodes=(*opcodes, *LOOP), dtypes=dtypes, doc=page)


def tensor_scalar(short: str, opcodes: tuple, page: str, dtypes: tuple, classic: bool = True, flexible: bool = True,
                  extra: tuple = ()):
    """Classic forms ``(dst, src, scalar)`` and the flexible scalar position ones: ``(dst, scalar, src)`` and
    ``(dst, src0, src1)`` with a single-element tensor (BinaryConfig scalarTensorIndex)."""
    forms: list = []
    if classic:
        head = (local("dst"), local("src"), scalar("scalarValue", ND, "T"))
        forms += [*count(T, head, set_=True), *level0(T, head, "UnaryRepeatParams")]
    if flexible:
        flex = (_BDT, SET, _CFG, *tded("T", "S"))
        first = (local("dst"), scalar("src0", "const S&", "T"), local("src1"))
        both = (local("dst"), local("src0"), local("src1"))
        lead = () if classic else ((local("dst"), local("src0"), scalar("src1", ND, "T")),)
        for head in (*lead, first, both):
            tps = tuple(p for p in flex if p.name != "S" or head is first)
            forms += [form(*tps, *head, scalar("count", "int32_t")),
                      *(form(*tps, *head, m, *REP, struct("repeatParams", "UnaryRepeatParams"))
                        for m in (u64arr(), scalar("mask", "uint64_t")))]
    return api(FAMILY, short, getattr(MB, short), *forms, *extra, opcodes=(*opcodes, *LOOP), dtypes=dtypes, doc=page)


def unary(short: str, opcodes: tuple, page: str, dtypes: tuple, cfg: tuple = (), level0_ok: bool = True,
          ctype: str = "int32_t"):
    head = (local("dst"), local("src"))
    forms = count(T, head, ctype, cfg) + (level0(T, head, "UnaryRepeatParams", cfg=cfg) if level0_ok else ())
    return api(FAMILY, short, getattr(MB, short), *forms, opcodes=(*opcodes, *LOOP), dtypes=dtypes, doc=page)


def _shift(short: str, scalar_op: str, tensor_op: str, page: str):
    head = (local("dst"), local("src"), scalar("scalarValue", ND, "T"))
    rnd = (scalar("roundEn", "bool", default="false"),) if short == "ShiftRight" else ()
    tensor = form(*tded("T", "U"), local("dst"), local("src0"), local("src1", "U"), scalar("count", "int32_t"),
                  doc=f"{FAMILY.doc_root}/逻辑计算/{short}（{'左' if short == 'ShiftLeft' else '右'}移位数为Tensor）.md")
    return api(FAMILY, short, getattr(MB, short), *count(T, head, set_=True),
               *level0(T, head, "UnaryRepeatParams", tail=rnd), tensor, opcodes=(scalar_op, tensor_op, *LOOP),
               dtypes=dt("int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t"), doc=page)


def _dup_forms(head: tuple) -> tuple:
    rest = (*REP, scalar("dstBlockStride", "uint16_t"), scalar("dstRepeatStride", "uint8_t"))
    return (form(*T, SET, *head, u64arr(), *rest), form(*T, SET, *head, scalar("mask", "uint64_t"), *rest))


_A, _L, _C = "基础算术", "逻辑计算", "复合计算"
_F = dt("half float")
_DUPH = (local("dst"), scalar("scalarValue", ND, "T"))
_IDXH = (local("dst"), scalar("firstValue", ND, "T"))
_CDIV = (thidden("config", "const DivConfig&", "DEFAULT_DIV_CONFIG"),)

#: the high-level Exp / Axpy (高阶API/数学计算) share the basic APIs' C++ names: their forms are added to the
#: basic definitions, each with its own page (the Python function tells them apart)
_HL = "高阶API/数学计算"
_HL_EXP = tuple(form(ttype("T", None), tnamed("taylorExpandLevel", "uint8_t", None), tnamed("isReuseSource", "bool", "false"),
                     local("dstLocal"), local("srcLocal"), *tmp, scalar("calCount", "const uint32_t"),
                     doc=f"{_HL}/Exp接口/Exp-81.md")
                for tmp in ((local("sharedTmpBuffer", "uint8_t"),), ()))
_HL_AXPY = (form(*tded("T", "U"), tnamed("isReuseSource", "bool", "false"), local("dstTensor"), local("srcTensor", "U"),
                 scalar("scalarValue", "const __asc::nodeduce_t<U>&", "U"), local("sharedTmpBuffer", "uint8_t"),
                 scalar("calCount", "const uint32_t"), doc=f"{_HL}/Axpy接口/Axpy-80.md"),)


def _with_forms(d, *forms, note: str = ""):
    import dataclasses
    return dataclasses.replace(d, forms=d.forms + tuple(forms), note=note)


APIS = [
    binary("Add", ("RV_VADD",), f"{_A}/Add.md", ALL_ARITH),
    binary("Sub", ("RV_VSUB",), f"{_A}/Sub.md", ALL_ARITH),
    binary("Mul", ("RV_VMUL",), f"{_A}/Mul.md", dt("int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")),
    binary("Div", ("RV_VDIV",), f"{_A}/Div.md", dt("int16_t uint16_t half int32_t uint32_t float int64_t uint64_t"),
           cfg=_CDIV),
    binary("Max", ("RV_VMAX",), f"{_A}/Max.md", ALL_ARITH),
    binary("Min", ("RV_VMIN",), f"{_A}/Min.md", ALL_ARITH),
    binary("And", ("RV_VAND",), f"{_L}/And.md", dt("int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t")),
    binary("Or", ("RV_VOR",), f"{_L}/Or.md", dt("int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t")),
    binary("AddRelu", ("RV_VADD", "RV_VRELU"), f"{_C}/AddRelu.md", dt("int16_t half float int64_t uint64_t")),
    binary("SubRelu", ("RV_VSUB", "RV_VRELU"), f"{_C}/SubRelu.md", dt("int16_t half float int64_t uint64_t")),
    binary("FusedMulAdd", ("RV_VMADD",), f"{_C}/FusedMulAdd.md", dt("half bfloat16_t float int64_t uint64_t")),
    binary("MulAddRelu", ("RV_VMADD", "RV_VRELU"), f"{_C}/MulAddRelu.md", dt("half float int64_t uint64_t")),
    api(FAMILY, "MulAddDst", MB.MulAddDst,
        *count(tded("T", "U"), (local("dst"), local("src0", "U"), local("src1", "U"))),
        *level0(tded("T", "U"), (local("dst"), local("src0", "U"), local("src1", "U")), "BinaryRepeatParams"),
        opcodes=("RV_VMULA", *LOOP), dtypes=dt("half float int64_t uint64_t"), doc=f"{_C}/MulAddDst.md"),
    binary("Prelu", ("RV_VPRELU",), f"{_A}/Prelu(ISASI).md", _F, level0_ok=False, ctype="uint32_t"),
    binary("AbsSub", ("RV_VABSDIF",), f"{_C}/AbsSub(ISASI).md", _F, level0_ok=False, ctype="uint32_t"),
    api(FAMILY, "Mull", MB.Mull, form(*T, local("dst0"), local("dst1"), local("src0"), local("src1"),
                                      scalar("count", "uint32_t")),
        opcodes=("RV_VMULL", *LOOP), dtypes=dt("int32_t uint32_t"), doc=f"{_A}/Mull(ISASI).md"),
    tensor_scalar("Adds", ("RV_VADDS",), f"{_A}/Adds.md", dt("int8_t uint8_t int16_t half bfloat16_t int32_t float int64_t uint64_t")),
    tensor_scalar("Subs", ("RV_VADDS", "RV_VMULS"), f"{_A}/Subs（灵活标量位置）.md",
                  dt("int16_t half bfloat16_t int32_t float int64_t uint64_t"), classic=False),
    tensor_scalar("Muls", ("RV_VMULS",), f"{_A}/Muls.md", dt("int16_t half bfloat16_t int32_t float int64_t uint64_t")),
    tensor_scalar("Divs", ("RV_VDIV",), f"{_A}/Divs（灵活标量位置）.md", dt("half float int64_t uint64_t"), classic=False),
    tensor_scalar("Maxs", ("RV_VMAXS",), f"{_A}/Maxs.md", dt("int8_t uint8_t int16_t half bfloat16_t int32_t float int64_t uint64_t")),
    tensor_scalar("Mins", ("RV_VMINS",), f"{_A}/Mins.md", dt("int8_t uint8_t int16_t half bfloat16_t int32_t float int64_t uint64_t")),
    tensor_scalar("Ands", ("RV_VAND",), f"{_L}/Ands.md", dt("int16_t uint16_t int64_t uint64_t"), classic=False),
    tensor_scalar("Ors", ("RV_VOR",), f"{_L}/Ors.md", dt("int16_t uint16_t int64_t uint64_t"), classic=False),
    tensor_scalar("LeakyRelu", ("RV_VLRELU",), f"{_A}/LeakyRelu.md", _F, flexible=False),
    api(FAMILY, "Axpy", MB.Axpy,
        *count(tded("T", "U"), (local("dst"), local("src", "U"), scalar("scalarValue", "const __asc::nodeduce_t<U>&", "U"))),
        *level0(tded("T", "U"), (local("dst"), local("src", "U"), scalar("scalarValue", "const __asc::nodeduce_t<U>&",
                                                                         "U")), "UnaryRepeatParams"),
        *_HL_AXPY, opcodes=("RV_VAXPY", *LOOP), dtypes=dt("half bfloat16_t float int64_t uint64_t"), doc=f"{_C}/Axpy.md",
        note="high-level form (sharedTmpBuffer, calCount): the basic Axpy, no temporary space needed"),
    _shift("ShiftLeft", "RV_VSHLS", "RV_VSHL", f"{_L}/ShiftLeft.md"),
    _shift("ShiftRight", "RV_VSHRS", "RV_VSHR", f"{_L}/ShiftRight.md"),
    _with_forms(unary("Exp", ("RV_VEXP",), f"{_A}/Exp.md", _F, cfg=config("Exp")), *_HL_EXP,
                note="high-level Exp<T, taylorExpandLevel>: exp(floor x) * sum_{i<=n} frac^i/i! in float (the page's "
                     "split); level 0: the basic Exp"),
    unary("Ln", ("RV_VLN",), f"{_A}/Ln.md", _F, cfg=config("Ln")),
    unary("Sqrt", ("RV_VSQRT",), f"{_A}/Sqrt.md", _F, cfg=config("Sqrt")),
    unary("Rsqrt", ("RV_VRSQRT",), f"{_A}/Rsqrt.md", _F, cfg=config("Rsqrt")),
    unary("Reciprocal", ("RV_VREC",), f"{_A}/Reciprocal.md", dt("half float int64_t uint64_t"), cfg=config("Reciprocal")),
    unary("Abs", ("RV_VABS",), f"{_A}/Abs.md", dt("int8_t int16_t half int32_t float int64_t")),
    unary("Relu", ("RV_VRELU",), f"{_A}/Relu.md", dt("half int32_t float int64_t")),
    unary("Not", ("RV_VNOT",), f"{_L}/Not.md", dt("int8_t uint8_t int16_t uint16_t half int32_t uint32_t float int64_t uint64_t")),
    unary("Neg", ("RV_VNEG",), f"{_A}/Neg(ISASI).md", dt("int8_t int16_t half int32_t float int64_t"), level0_ok=False,
          ctype="uint32_t"),
    api(FAMILY, "Duplicate", MB.Duplicate,
        form(*T, *_DUPH, scalar("count", "int32_t")),
        form(*T, local("dst"), local("src"), scalar("count", "int32_t")),
        *_dup_forms(_DUPH),
        opcodes=("RV_VDUP", *LOOP), dtypes=ALL_ARITH, doc="数据填充/Duplicate.md"),
    api(FAMILY, "BilinearInterpolation", MB.BilinearInterpolation,
        *(form(*T, SET, local("dst"), local("src0"), local("src0Offset", "uint32_t"), local("src1"), m,
               scalar("hRepeat", "uint8_t"), scalar("repeatMode", "bool"), scalar("dstBlkStride", "uint16_t"),
               scalar("vROffset", "uint16_t"), scalar("vRepeat", "uint8_t"), local("sharedTmpBuffer", "uint8_t"))
          for m in (u64arr(), scalar("mask", "uint64_t"))),
        opcodes=("RV_PSET", "RV_VLD", "RV_VGATHERB", "RV_VST", "RV_VLOOP"), dtypes=("half",),
        doc=f"{_A}/BilinearInterpolation(ISASI).md"),
    api(FAMILY, "CreateVecIndex", MB.CreateVecIndex,
        form(*T, *_IDXH, scalar("count", "uint32_t")),
        form(*T, *_IDXH, u64arr(), *REP, scalar("dstBlkStride", "uint16_t"), scalar("dstRepStride", "uint8_t")),
        form(*T, *_IDXH, scalar("mask", "uint64_t"), *REP, scalar("dstBlkStride", "uint16_t"),
             scalar("dstRepStride", "uint8_t")),
        opcodes=("RV_VCI", *LOOP), dtypes=dt("int8_t int16_t half int32_t float int64_t"), doc="数据填充/CreateVecIndex.md"),
]

