"""Every form of every definition compiles as declared: one C++ file calls each form (generated, native,
via and hand-written ones alike) with arguments of its declared kinds and its required template arguments,
and g++ checks it (syntax only: templates are instantiated, nothing runs). A hand-written form that drifted
from its declaration, or a generated wrapper that does not compile for its own declaration, fails here."""
from __future__ import annotations

import subprocess

from tests.asc_support import needs_compiler
from toolkit.asc import enums
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE
from toolkit.ascendc import api
from toolkit.ascendc.api import spec

QUALIFIED = {name: f"{ns}::{name}" for _, ns, name, _, _ in enums.ENUMS}
FIRST = {name: f"{ns}::{name}::{enums.DECODE[eid][min(enums.DECODE[eid])].name}"
         for eid, ns, name, _, _ in enums.ENUMS} | {"pipe_t": "PIPE_V"}
OBJECTS = {"Q&": "que", "B&": "buf", "P&": "pool", "S&": "pool2"}
#: an lvalue of each argument type (by the C++ parameter type as declared)
VARS = {"R&": "rf", "RD&": "rf", "RS&": "rf2", "RI&": "ri", "RegTensor<T2, Tr>&": "rf", "MaskReg&": "mk",
        "UnalignRegForLoad&": "ul", "UnalignRegForStore&": "us", "UnalignReg&": "uu", "const AddrReg&": "ar",
        "U*": "pf", "U*&": "pf", "__ubuf__ T*": "pf", "__gm__ T*": "gp", "uint32_t&": "u32", "uint64_t&": "u64",
        "const LocalTensor<T>&": "lt", "LocalTensor<T>&": "lt", "const LocalTensor<S>&": "lt",
        "const LocalTensor<D>&": "lh", "const LocalTensor&": "lt", "const GlobalTensor<T>&": "gt",
        "const uint64_t*": "bits", "RoundMode": "RoundMode::CAST_RINT", "const char*": '"%d"',
        "LocalTensor<S>&": "lt", "const GlobalTensor<int32_t>&": "gi", "const LocalTensor<int32_t>&": "li",
        "GlobalTensor<int32_t>&": "gi", "LocalTensor<int32_t>&": "li", "uint16_t&": "u16",
        "const GlobalTensor<uint64_t>&": "gu", "HardEvent": "HardEvent::V_S", "CacheMode": "CacheMode::CACHE_MODE_NORMAL",
        "KernelMode": "KernelMode::AIV_MODE", "const std::string&": '"x.bin"', "void*": "nullptr",
        "GM_ADDR": "nullptr", "const SliceInfo*": "slices", "const NdDmaParams<T, dim>&": "ndp",
        "const LayoutType&": "Layout<Shape<>, Stride<>>{}",
        # MemBase breadth (bmem): tensors of other element types, and the hand-written forms' argument types
        "const LocalTensor<U>&": "lt", "const LocalTensor<uint32_t>&": "lu", "const LocalTensor<uint8_t>&": "lb",
        "const LocalTensor<uint64_t>&": "l64", "const LocalTensor<half>&": "lh", "uint64_t*": "bits",
        "const LocalTensor<T>*": "lta", "const MrgSortSrcList<T>&": "MrgSortSrcList<float>{}",
        "const MrgSort4Info&": "MrgSort4Info{}", "const VdeqInfo&": "VdeqInfo{}",
        "const TransposeParamsExt&": "TransposeParamsExt{}",
        "ReduceOrder": "ReduceOrder::ORDER_VALUE_INDEX", "CMPMODE": "CMPMODE::LT", "SELMODE": "SELMODE::VSEL_TENSOR_TENSOR_MODE",
        # the C API (capimisc)
        "__gm__ void*": "gp", "__ubuf__ void*": "pf", "pipe_t": "PIPE_V", "event_t": "EVENT_ID0", "mem_dsb_t": "DSB_ALL",
        "ub_addr8_t": "VA0", "const ascMutexExecuteMode": "ASC_LOCK_BLOCK", "__cbuf__ void*": "nullptr",
        "asc_load_l2_cache_mode": "asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM",
        "asc_store_l2_cache_mode": "asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM", "asc_store_atomic_config&": "sac",
        "asc_ndim_pad_count_config&": "npc", "__ubuf__ T**": "pfa", "__ubuf__ uint32_t*": "pu",
        "uint8_t": "(uint8_t)1", "uint64_t": "u64", "int64_t": "(int64_t)1", "DataCopyMVType": "DataCopyMVType::OUT_TO_UB",
        # high-level math (hlmath): Where's condition tensor
        "const LocalTensor<V>&": "lb", "LocalTensor<uint8_t>&": "lb",
        # high-level activation/normalization (hlact)
        "const LocalTensor<float>&": "lt", "const T": "1.0f",
        # high-level reduce / index / random (hlreduce): srcShape[], PhiloxKey, the host queries' enums
        "const uint32_t*": "shp", "const PhiloxKey&": "pkey", "TensorDataType": "TensorDataType::DT_FLOAT",
        "ReducePattern": "ReducePattern::AR",
        # high-level sorting / filtering (hlsort)
        "const uint16_t*": "u16a", "uint32_t*": "u32a", "const LocalTensor<bool>&": "lbool",
        "LocalTensor<uint32_t>&": "lu", "TopKMode": "TopKMode::TOPK_NORMAL",
        "const platform_ascendc::PlatformAscendC&": "platform_ascendc::PlatformAscendC{}",
        # high-level quantization (hlquant)
        "const LocalTensor<int8_t>&": "l8", "const srcT": "1.0f", "const scaleT": "1.0f",
        "const LocalTensor<fp8_e8m0_t>&": "le8",
        # high-level tensor transforms (hltrans): the kernel tiling pointer, GlobalTensor, enums, TransDataParams
        "BroadcastTiling*": "(BroadcastTiling*)nullptr", "GlobalTensor<T>&": "gt",
        "DataFormat": "DataFormat::NCDHW", "TransposeType": "TransposeType::TRANSPOSE_ND2ND_021",
        "const TransDataParams<U, S>&": "tdp"}
#: required non-type template parameters of a struct / enum reference type: a static object of that type
NAMED_REFS = {f"const {t}&": f"probe_{t}" for t in (
    "AscendQuantConfig", "AscendDeQuantConfig", "AscendAntiQuantConfig", "QuantizeConfig", "DequantizeConfig",
    "AntiQuantizeConfig", "AscendQuantPolicy", "AscendDeQuantPolicy", "AscendAntiQuantPolicy")}
#: a required reference template argument (TransData's config): a constexpr object of the prologue
REF_TARGS = {"const TransDataConfig&": "kProbeTransDataConfig"}
PROLOGUE = """#include "kernel_operator.h"
using namespace AscendC;
static constexpr TransDataConfig kProbeTransDataConfig = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
""" + "".join(f"constexpr {t[6:-1]} {v}{{}};\n" for t, v in NAMED_REFS.items()) + """void probe_every_form() {
    Reg::RegTensor<float> rf, rf2; Reg::RegTensor<uint32_t> ri; Reg::MaskReg mk; Reg::AddrReg ar;
    Reg::UnalignRegForLoad ul; Reg::UnalignRegForStore us; Reg::UnalignReg uu;
    __ubuf__ float* pf = nullptr; __gm__ float* gp = nullptr; uint32_t u32 = 0; uint64_t u64 = 0;
    uint64_t bits[2] = {0, 0}; LocalTensor<float> lt; LocalTensor<int8_t> l8; LocalTensor<fp8_e8m0_t> le8; LocalTensor<half> lh; GlobalTensor<float> gt;
    TPipe pipe; TQue<TPosition::VECIN, 1> que; TBuf<TPosition::VECCALC> buf;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> qb; TBufPool<TPosition::VECCALC> pool, pool2;
    LocalMemAllocator<Hardware::UB> alloc; TQueSync<PIPE_S, PIPE_V> qs; uint16_t u16 = 0;
    GlobalTensor<int32_t> gi; LocalTensor<int32_t> li; GlobalTensor<uint64_t> gu;
    auto lay = MakeLayout(MakeShape(3, 4), MakeStride(4, 1)); TensorTrait<float> tt; TensorDesc<float> td;
    Layout<Shape<>, Stride<>> el; SliceInfo slices[1] = {}; NdDmaParams<float, 2> ndp{};
    LocalTensor<uint32_t> lu; LocalTensor<uint8_t> lb; LocalTensor<uint64_t> l64; LocalTensor<float> lta[16];
    uint32_t shp[2] = {2, 8}; PhiloxKey pkey = {0, 0};
    TransDataParams<decltype(lay), decltype(lay)> tdp{lay, lay};
    asc_store_atomic_config sac; asc_ndim_pad_count_config npc; __ubuf__ float* pfa[16] = {}; __ubuf__ uint32_t* pu = nullptr;
    uint16_t u16a[4] = {0, 0, 0, 0}; uint32_t u32a[4] = {0, 0, 0, 0}; LocalTensor<bool> lbool;
"""


def _arg(a: spec.Arg) -> str:
    if a.kind == spec.SOUT:                  # a struct the API fills: an lvalue of its type
        return f"*({a.ctype.rstrip('&')}*)nullptr"
    if a.kind == spec.STRUCT:
        t = a.ctype.removeprefix("const ").rstrip("&")
        return f"{t.replace('<T>', '<float>')}{{}}"
    if a.kind == spec.HANDLE:
        return OBJECTS[a.ctype]
    if a.ctype in VARS:
        return VARS[a.ctype]
    if a.kind == spec.REG:
        return "rf"                      # a register of a deduced type (S&, V&, T3& ...)
    if a.kind == spec.LOCAL:
        return "lt"                      # a tensor of a deduced element type (T1, U ...)
    if a.ctype in ("const T1", "const U"):
        return "1.0f"
    if a.kind in (spec.UB, spec.UBREF):
        return "pf"                      # a UB pointer of a deduced element type (T1*, B* ...)
    if a.kind == spec.MASK:
        return "mk"
    if a.ctype == "bool":
        return "false"
    if a.ctype == "T":
        return "1.0f"                # deduced with a float tensor or pointer
    return "1"                       # a scalar by value (int, S, const U&, T ...)


def _targs(f: spec.Form) -> str:
    """Explicit template arguments up to the last one without a default."""
    sent = [p for p in f.tparams if p.kind not in (spec.DEDUCED, spec.NOTREG)]
    last = max((k for k, p in enumerate(sent) if p.default is None), default=-1)
    out = []
    for p in sent[:last + 1]:
        if p.kind == spec.ENUM:
            ctype = p.of if p.ctype == "auto" else p.ctype
            out.append(f"{QUALIFIED.get(ctype, '')}::{p.default.rsplit('::', 1)[1]}" if p.default else FIRST[ctype])
        elif p.kind == spec.VALUE:
            out.append(p.default or "0")
        elif p.kind == spec.TRAIT:
            out.append("Reg::CastTrait{}")
        elif p.kind == spec.VALUE:
            out.append(p.default or "0")
        elif p.kind == spec.NAMED and p.name == "pattern":
            out.append("Pattern::Reduce::AR")           # the reduce axes type of the high-level reductions
        elif p.ctype == "class":
            out.append("float" if p.default in (None, "void") else p.default)
        elif p.default is None and p.ctype in NAMED_REFS:
            out.append(NAMED_REFS[p.ctype])
        else:
            out.append(p.default or REF_TARGS.get(p.ctype, "1"))   # a required non-type value (taylorExpandLevel)
    return f"<{', '.join(out)}>" if out else ""


#: the auxiliary data structures: a use of each name (types and traits have no call)
LAYOUT_CALLS = {"MakeShape": "(void)NS::MakeShape(2, 3);", "MakeStride": "(void)NS::MakeStride(3, 1);",
                "MakeCoord": "(void)NS::MakeCoord(1, 2);", "MakeLayout": "(void)NS::MakeLayout(el.GetShape(), el.GetStride());",
                "Crd2Idx": "(void)NS::Crd2Idx(MakeCoord(1, 2), MakeShape(3, 4), MakeStride(4, 1));",
                "MakeTensorTrait": "(void)NS::MakeTensorTrait<float, TPosition::VECIN>(lay);",
                "is_layout": "static_assert(NS::is_layout<decltype(lay)>::value);",
                "is_tensorTrait": "static_assert(NS::is_tensorTrait<TensorTrait<float>>::value);",
                "complex32": "(void)complex32(1, 2);", "complex64": "(void)complex64(3);",
                "Coord": "(void)NS::Coord<int, int>(1, 2);", "Shape": "(void)NS::Shape<int>(1);",
                "Stride": "(void)NS::Stride<int>(1);", "Layout": "(void)NS::Layout<Shape<int>, Stride<int>>{};",
                "TensorTrait": "(void)NS::TensorTrait<half>{};", "TensorDesc": "(void)NS::TensorDesc<half>{};",
                "Complex": "(void)NS::Complex<float>{};"}


def _call(d: spec.ApiDef, f: spec.Form) -> str | None:
    args = ", ".join(VARS.get(a.ctype, "nullptr") if a.kind == spec.IGNORED else _arg(a) for a in f.args
                     if a.kind != spec.IGNORED or a.default is None)
    if d.family.name.endswith(".macro") or d.family.name.startswith("capi.reg"):
        return None             # the C API register family: tests/test_capi_reg_forms.py (its own types)
    owner = {"resource.tpipe": "pipe", "resource.tque": "que", "resource.tbuf": "buf", "tensor.local": "lt",
             "tensor.global": "gt", "resource.tquebind": "qb", "resource.tbufpool": "pool",
             "resource.allocator": "alloc", "sync.tquesync": "qs", "tensor.layout": "lay", "tensor.trait": "tt",
             "tensor.desc": "td"}.get(d.family.name)
    if d.family.name in ("tensor.data", "tensor.global_names", "tensor.coordinate") and d.short in LAYOUT_CALLS:
        return LAYOUT_CALLS[d.short].replace("NS", d.name.rsplit("::", 1)[0])
    if d.family.name in ("tensor.data", "tensor.global_names", "tensor.coordinate") and d.short != "GetShapeSize":
        return None                              # types and traits: used by the calls below
    if d.family.name == "system.limits":        # static members of a class template
        return f"(void)NumericLimits<float>::{d.short}({args});"
    if d.short == "operator[]":
        return f"(void){owner}[{args}];"
    if d.short == "operator()":
        return f"(void){owner}({args});"
    callee = d.name if not owner else f"{owner}.{'template ' if _targs(f) else ''}{d.short}"
    return f"(void){callee}{_targs(f)}({args});"


def program() -> str:
    lines = [PROLOGUE]
    for d in api.DEFINITIONS.values():
        for f in d.forms:
            c = _call(d, f)
            if c:
                lines.append(f"    {c}")
    return "\n".join(lines) + "\n}\n"


@needs_compiler
def test_every_declared_form_compiles(tmp_path):
    src = tmp_path / "forms.cpp"
    src.write_text(program())
    cxx = find_compiler()
    cmd = [*cxx, "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
