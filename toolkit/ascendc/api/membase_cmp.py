"""``AscendC::`` MemBase comparison, selection and indexed data movement: Compare (to a tensor or to the
CmpMask register), Compares (the scalar on either side or a single-element tensor), SetCmpMask /
GetCmpMask, Select (the three modes, with and without a mask argument), GatherMask (built-in and user
patterns), Gather / Gatherb / Scatter."""
from __future__ import annotations

from toolkit.ascendc import membase as MB

from .membase import LOOP, ND, REP, SET, T, dt, level0
from .spec import Family, api, earg, form, local, scalar, sref, struct, tded, tenum, thidden, ttype, tnamed, u64arr

FAMILY = Family("membase.compare", "AscendC", "membase_cmp.h", MB, doc_root="基础API/Memory矢量计算")

_S = "比较与选择"
_TU = tded("T", "U")
_CMP = earg("cmpMode", "CMPMODE")
_CMP_TYPES = dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t double")
_SEL_TYPES = dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float int64_t uint64_t")
_BDT = (thidden("T0", "class", "BinaryDefaultType"), thidden("T1", "class", "BinaryDefaultType"))
_CFG = tnamed("config", "const BinaryConfig&", "DEFAULT_BINARY_CONFIG", send="config.scalarTensorIndex")
_MODE = earg("selMode", "SELMODE")
_BIN = (*REP, struct("repeatParams", "BinaryRepeatParams"))


def _compares_forms() -> list:
    classic = (local("dst", "U"), local("src0"), scalar("src1Scalar", ND, "T"), _CMP)
    out = [form(*_TU, *classic, scalar("count", "uint32_t")), *level0(_TU, classic, "UnaryRepeatParams")]
    flex = (*_BDT, SET, _CFG, *tded("T", "U", "S"))
    for head, tps in (((local("dst", "U"), scalar("src0", "const S&", "T"), local("src1"), _CMP), flex),
                      ((local("dst", "U"), local("src0"), local("src1"), _CMP), flex[:-1])):
        out += [form(*tps, *head, scalar("count", "uint32_t")),
                *(form(*tps, *head, m, *REP, struct("repeatParams", "UnaryRepeatParams"))
                  for m in (u64arr(), scalar("mask", "uint64_t")))]
    return out


def _select_forms() -> list:
    sel = (local("dst"), local("selMask", "U"), local("src0"))
    tensor = (*sel, local("src1"), _MODE)
    scal = (*sel, scalar("src1", ND, "T"), _MODE)
    out = [form(*_TU, *scal, scalar("count", "uint32_t")), form(*_TU, *tensor, scalar("count", "uint32_t"))]
    for head in (scal, tensor):
        out += [form(*_TU, SET, *head, u64arr(), *_BIN), form(*_TU, SET, *head, scalar("mask", "uint64_t"), *_BIN)]
    out.append(form(*_TU, *sel, *_BIN))                                          # mode 1, CmpMask scalar
    out.append(form(ttype("T", None), tenum("selMode", "SELMODE"), local("dst"), local("src0"), local("src1"), *_BIN))
    flex = (*_BDT, SET, _CFG, *tded("T", "U", "S"))
    first = (local("dst"), local("selMask", "U"), scalar("src0", "const S&", "T"), local("src1"), _MODE)
    out += [form(*flex, *first, scalar("count", "uint32_t")),
            *(form(*flex, *first, m, *_BIN) for m in (u64arr(), scalar("mask", "uint64_t")))]
    return out


#: the high-level byte-mask Select (高阶API/数据过滤) shares the C++ name: its forms, credited to its page
_HL_SEL_T = (*_TU, tnamed("isReuseMask", "bool", "true"))
_HL_SEL_TAIL = (local("mask", "U"), local("sharedTmpBuffer", "uint8_t"), struct("info", "SelectWithBytesMaskShapeInfo"))
_HL_SELECT = tuple(form(*_HL_SEL_T, local("dst"), *pair, *_HL_SEL_TAIL, doc="高阶API/数据过滤/Select-95.md")
                   for pair in ((local("src0"), scalar("src1", "T")), (scalar("src0", "T"), local("src1"))))

_GM = (local("dst"), local("src0"))
_GMT = (scalar("reduceMode", "bool"), scalar("mask", "uint32_t"), struct("gatherMaskParams", "GatherMaskParams"),
        sref("rsvdCnt", "uint64_t"))
_GMODE = thidden("mode", "GatherMaskMode", "defaultGatherMaskMode")
_OFF = local("srcOffset", "uint32_t")

APIS = [
    api(FAMILY, "Compare", MB.Compare,
        form(*_TU, local("dst", "U"), local("src0"), local("src1"), _CMP, scalar("count", "uint32_t")),
        *level0(_TU, (local("dst", "U"), local("src0"), local("src1"), _CMP), "BinaryRepeatParams"),
        *(form(*T, SET, local("src0"), local("src1"), _CMP, m, struct("repeatParams", "BinaryRepeatParams"),
               doc=f"{FAMILY.doc_root}/{_S}/Compare（结果存入寄存器）.md") for m in (u64arr(), scalar("mask", "uint64_t"))),
        opcodes=("RV_VCMP", *LOOP), dtypes=_CMP_TYPES, doc=f"{_S}/Compare.md"),
    api(FAMILY, "Compares", MB.Compares, *_compares_forms(), opcodes=("RV_VCMP", *LOOP), dtypes=_CMP_TYPES,
        doc=f"{_S}/Compares.md"),
    api(FAMILY, "SetCmpMask", MB.SetCmpMask, form(*T, local("src")), opcodes=("RV_VLD", "RV_VST", "RV_PLT", "RV_VLOOP"),
        dtypes=dt("uint8_t uint16_t uint32_t uint64_t"), doc=f"{_S}/SetCmpMask(ISASI).md"),
    api(FAMILY, "GetCmpMask", MB.GetCmpMask, form(*T, local("dst")), opcodes=("RV_VLD", "RV_VST", "RV_PLT", "RV_VLOOP"),
        dtypes=dt("uint8_t uint16_t uint32_t"), doc=f"{_S}/GetCmpMask(ISASI).md"),
    api(FAMILY, "Select", MB.Select, *_select_forms(), *_HL_SELECT, opcodes=("RV_VSEL", *LOOP), dtypes=_SEL_TYPES,
        doc=f"{_S}/Select.md",
        note="high-level forms (sharedTmpBuffer, SelectWithBytesMaskShapeInfo): GatherMask of the mask rows, "
             "Compares with 0, Select (toolkit.ascendc.highlevel.filter)"),
    api(FAMILY, "GatherMask", MB.GatherMask,
        form(*_TU, _GMODE, *_GM, local("src1Pattern", "U"), *_GMT),
        form(*T, _GMODE, *_GM, scalar("src1Pattern", "uint8_t"), *_GMT),
        opcodes=("RV_VSQZ", "RV_VLD", "RV_VSLDB", "RV_VSTUI", "RV_VSTAS", "RV_PLT", "RV_PMOV", "RV_VLOOP"),
        dtypes=dt("int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float"), doc=f"{_S}/GatherMask.md"),
    api(FAMILY, "Gather", MB.Gather,
        form(*T, local("dst"), local("src"), _OFF, scalar("srcBaseAddr", "uint32_t"), scalar("count", "uint32_t")),
        *(form(*T, local("dst"), local("src"), _OFF, scalar("srcBaseAddr", "uint32_t"), m, *REP,
               scalar("dstRepStride", "uint16_t")) for m in (u64arr(), scalar("mask", "uint64_t"))),
        opcodes=("RV_PSET", "RV_VLD", "RV_VGATHER", "RV_VST", "RV_VLOOP"), dtypes=_SEL_TYPES, doc="离散与聚合/Gather.md"),
    api(FAMILY, "Gatherb", MB.Gatherb,
        form(*T, local("dst"), local("src"), local("offset", "uint32_t"), scalar("repeatTime", "uint8_t"),
             struct("repeatParams", "GatherRepeatParams")),
        opcodes=("RV_PSET", "RV_VLD", "RV_VGATHERB", "RV_VST", "RV_VLOOP"), dtypes=_SEL_TYPES,
        doc="离散与聚合/Gatherb(ISASI).md"),
    api(FAMILY, "Scatter", MB.Scatter,
        form(*T, local("dst"), local("src"), local("dstOffset", "uint32_t"), scalar("dstBaseAddr", "uint32_t"),
             scalar("count", "uint32_t")),
        *(form(*T, local("dst"), local("src"), local("dstOffset", "uint32_t"), scalar("dstBaseAddr", "uint32_t"), m,
               *REP, scalar("srcRepStride", "uint8_t")) for m in (u64arr(), scalar("mask", "uint64_t"))),
        opcodes=("RV_PSET", "RV_VLD", "RV_VSCATTER", "RV_VLOOP"), dtypes=_SEL_TYPES, doc="离散与聚合/Scatter(ISASI).md"),
]
