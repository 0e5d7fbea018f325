"""The API catalog: the generator's page parsing (on small pages written here, in the shape of the vendor's
reference), naming and scope rules, the catalog build, its stable file form, the committed data, and the
lookup that tells a catalogued-but-not-emulated name from an unknown one."""
from __future__ import annotations

import json
import random

import pytest

from toolkit.ascendc.catalog import build, lookup, names, pages, store

# -- fixture pages (our own words, the reference's layout) --------------------------------------------
REG_ADD = """# Add<a name="ZH-CN_TOPIC_1"></a>

## 产品支持情况<a name="s1"></a>

<!-- npu="950" id1 -->
- Ascend 950PR/Ascend 950DT：支持
<!-- end id1 -->
- Atlas A2 训练系列产品/Atlas A2 推理系列产品：不支持

## 功能说明

头文件路径为：`"basic_api/reg_compute/demo_binary_intf.h"`。

Adds two registers element by element.

## 函数原型

```cpp
template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>
__simd_callee__ inline void Add(U& dstReg, U& srcReg0,
                                U& srcReg1, MaskReg& mask)  // the plain form
```

## 参数说明

| 参数名 | 描述 |
| --- | --- |
| T | 支持的数据类型为：half、float、int32\\_t |

## 调用示例

```cpp
AscendC::Reg::Add(a, b, c, m);   // not a prototype: float here is no dtype
```
"""

MB_EXP_TWO_FORMS = """# Exp

## 产品支持情况

### 旧原型

- Ascend 950PR/Ascend 950DT：不支持

### 新原型

- Ascend 950PR/Ascend 950DT：支持

## 函数原型

- whole tensor

    ```cpp
    dst = Exp(src);
    ```

- first n elements

    ```cpp
    template <typename T>
    __aicore__ inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)
    template <typename T, const ExpConfig& config = DEFAULT_EXP>
    __aicore__ inline void Exp(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count)
    {
        body that the page shows;
    }
    ```

## 数据类型

- Atlas A2 训练系列产品，支持的数据类型为：int8_t
- Ascend 950PR/Ascend 950DT，支持的数据类型为：half、bfloat16_t
"""

TPIPE_METHOD = """# FetchEventID

## 产品支持情况

- Ascend 950PR/Ascend 950DT：支持

## 函数原型

```cpp
template <HardEvent evt>
__aicore__ inline TEventID FetchEventID()
__aicore__ inline TEventID FetchEventID(HardEvent evt)
```
"""

TPIPE_CTOR = """# TPipe构造函数

## 产品支持情况

- Ascend 950PR/Ascend 950DT：支持

## 函数原型

```cpp
__aicore__ inline TPipe()
```
"""

CUBE_PAGE = """# AllocTensor

## 产品支持情况

- Ascend 950PR/Ascend 950DT：支持

## 函数原型

```cpp
template <typename T> __aicore__ inline LocalTensor<T> AllocTensor()
```
"""

NOT_ON_950 = """# Rsqrt

## 产品支持情况

- Ascend 950PR/Ascend 950DT：不支持

## 函数原型

```cpp
template <typename T> __aicore__ inline void Rsqrt(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t n)
```
"""

HL_KERNEL = """# LayerNormGrad

## 产品支持情况

- Ascend 950PR/Ascend 950DT：支持

## 函数原型

```cpp
template <typename T> __aicore__ inline void LayerNormGrad(const LocalTensor<T>& dst, const LocalTensor<T>& src)
```
"""

HL_KERNEL_SHORT = HL_KERNEL.replace("LayerNormGrad", "LayerNorm")

HL_HOST = """# LayerNormGrad Tiling

## 函数原型

```cpp
void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue)
void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, optiling::LayerNormGradTiling& tiling)
```
"""

NO_PROTOTYPE_TYPES = """# UnalignRegForLoad & UnalignRegForStore

## 产品支持情况

- Ascend 950PR/Ascend 950DT：支持

## 功能说明

Two buffer registers for unaligned moves.
"""


def page(path: str, text: str) -> pages.Page:
    return pages.read_page(path, text)


# -- page parsing --------------------------------------------------------------------------------------
def test_a_page_gives_title_support_header_prototype_and_dtypes():
    p = page("基础API/Reg矢量计算/基础算术/Add.md", REG_ADD)
    assert p.title == "Add" and p.support == pages.YES and p.is_api
    assert p.header == "basic_api/reg_compute/demo_binary_intf.h"
    assert p.prototypes == [("template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U> "
                             "void Add(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)")]
    assert p.dtypes == ["int32_t", "half", "float"]          # the reference's order, escapes undone


def test_support_is_yes_when_any_form_is_supported_and_not_stated_without_a_list():
    assert page("x/y/Exp.md", MB_EXP_TWO_FORMS).support == pages.YES
    assert page("x/y/Rsqrt.md", NOT_ON_950).support == pages.NO
    host = page("高阶API/归一化操作/LayerNormGrad-Tiling.md", HL_HOST)
    assert host.support == pages.NOT_STATED and host.is_api          # prototypes make it an API page
    overview = page("基础API/概述.md", "# 概述\n\nSome words.\n")
    assert overview.support == pages.NOT_STATED and not overview.is_api


def test_declarations_join_templates_drop_bodies_qualifiers_and_comments():
    p = page("基础API/Memory矢量计算/基础算术/Exp.md", MB_EXP_TWO_FORMS)
    assert p.prototypes == [
        "dst = Exp(src)",
        "template <typename T> void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)",
        ("template <typename T, const ExpConfig& config = DEFAULT_EXP> void Exp(const LocalTensor<T>& dst, "
         "const LocalTensor<T>& src, const int32_t& count)")]
    assert p.dtypes == ["half", "bfloat16_t"]                   # the other product's int8_t is not taken


@pytest.mark.parametrize("decl, expect", [
    ("template <typename T> void Exp(const LocalTensor<T>& dst)", ("Exp", "function")),
    ("LocalTensor<T>(uint32_t addr)", ("LocalTensor", "function")),
    ("T& operator()(const uint32_t offset) const", ("operator()", "function")),
    ("constexpr decltype(auto) GetShape() const", ("GetShape", "function")),
    ("template <typename T, const RegTrait& regTrait = RegTraitNumOne> struct RegTensor", ("RegTensor", "type")),
    ("enum class RoundMode { CAST_NONE = 0 }", ("RoundMode", "type")),
    ("using TEventID = int8_t", ("TEventID", "type")),
    ("#define ASCENDC_ASSERT(cond, msg)", ("ASCENDC_ASSERT", "macro")),
    ("dst = src0 + src1", None),
    ("constexpr uint64_t DEFAULT_VALUE = 0", None),
])
def test_decl_name(decl, expect):
    assert pages.decl_name(decl) == expect


def test_a_page_without_prototypes_names_its_title_identifiers():
    p = page("基础API/Reg矢量计算/寄存器数据类型/UnalignReg.md", NO_PROTOTYPE_TYPES)
    assert p.prototypes == [] and p.title_names == ["UnalignRegForLoad", "UnalignRegForStore"]
    assert pages.title_names("C-API/reg/types.md", "reg数据类型定义", "types vector_float and vector_bool") == \
        ["vector_bool", "vector_float"]


def test_index_links():
    text = "| 接口名 | 功能 |\n| --- | --- |\n| [Mmad](矩阵计算/Mmad.md) | multiply |\n| [Add](a/Add.md#x) | add |\n"
    assert pages.index_links(text) == [("Mmad", "矩阵计算/Mmad.md"), ("Add", "a/Add.md")]


# -- names ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, name, kind, expect", [
    ("基础API/Reg矢量计算/基础算术/Add.md", "Add", "function", ("AscendC::Reg::Add", "function")),
    ("基础API/Memory矢量计算/基础算术/Add.md", "Add", "function", ("AscendC::Add", "function")),
    ("基础API/资源管理/TPipe/InitBuffer.md", "InitBuffer", "function", ("AscendC::TPipe::InitBuffer", "method")),
    ("基础API/资源管理/TPipe/TPipe构造函数.md", "TPipe", "function", ("AscendC::TPipe", "class")),
    ("基础API/工具接口/NumericLimits工具类/Max.md", "Max", "function", ("AscendC::NumericLimits::Max", "method")),
    ("基础API/Reg矢量计算/VF调用/asc_vf_call.md", "asc_vf_call", "function", ("asc_vf_call", "function")),
    ("C-API/reg/arithmetic_compute/asc_add.md", "asc_add", "function", ("asc_add", "function")),
    ("基础API/调试接口/CPU孪生调试/ICPU_RUN_KF.md", "ICPU_RUN_KF", "function", ("ICPU_RUN_KF", "macro")),
    ("高阶API/激活函数/SoftMax接口/SoftMax.md", "SoftMax", "function", ("AscendC::SoftMax", "function")),
])
def test_qualify(path, name, kind, expect):
    assert names.qualify(path, name, kind) == expect


@pytest.mark.parametrize("spelling, key", [
    ("AscendC::Reg::Add", "Reg::Add"), ("AscendC::MicroAPI::Add", "Reg::Add"), ("MicroAPI::Add<float>", "Reg::Add"),
    ("::AscendC::Add", "Add"), ("Add", "Add"), ("asc_add", "asc_add"), ("AscendC::TPipe::InitBuffer", "TPipe::InitBuffer"),
    ("optiling::SoftMaxTiling", "tiling::SoftMaxTiling"), ("AscendC::tiling::SoftMaxTiling", "tiling::SoftMaxTiling"),
    ("AscendC::TQue<TPosition::VECIN, 1>::AllocTensor", "TQue::AllocTensor"),
])
def test_key_folds_every_spelling(spelling, key):
    assert names.key(spelling) == key


# -- building entries ----------------------------------------------------------------------------------
def fixture_entries() -> list[dict]:
    ps = [page("基础API/Reg矢量计算/基础算术/Add.md", REG_ADD),
          page("基础API/Memory矢量计算/基础算术/Exp.md", MB_EXP_TWO_FORMS),
          page("基础API/Memory矢量计算/基础算术/Exp（旧）.md", MB_EXP_TWO_FORMS.replace("count)", "n, bool flag)")),
          page("基础API/Memory矢量计算/基础算术/Rsqrt.md", NOT_ON_950),
          page("基础API/资源管理/TPipe/FetchEventID.md", TPIPE_METHOD),
          page("基础API/资源管理/TPipe/TPipe构造函数.md", TPIPE_CTOR),
          page("基础API/资源管理/TSCM/AllocTensor.md", CUBE_PAGE),
          page("基础API/Reg矢量计算/寄存器数据类型/UnalignReg.md", NO_PROTOTYPE_TYPES),
          page("高阶API/归一化操作/LayerNormGrad.md", HL_KERNEL),
          page("高阶API/归一化操作/LayerNorm.md", HL_KERNEL_SHORT),
          page("高阶API/归一化操作/LayerNormGrad-Tiling.md", HL_HOST)]
    listed = [("Mmad", "基础API/矩阵计算（ISASI）/Mmad计算/Mmad.md"), ("Add", "基础API/Reg矢量计算/基础算术/Add.md"),
              ("GET_TILING_DATA", "基础API/Kernel-Tiling/GET_TILING_DATA.md")]
    return build.entries_from(ps, listed)


def by_name(entries: list[dict]) -> dict[str, dict]:
    return {e["name"]: e for e in entries}


def test_pages_of_one_name_collapse_into_one_entry_with_all_forms():
    e = by_name(fixture_entries())["AscendC::Exp"]
    assert e["pages"] == ["基础API/Memory矢量计算/基础算术/Exp.md", "基础API/Memory矢量计算/基础算术/Exp（旧）.md"]
    assert len(e["forms"]) == 5 and e["forms"][0] == "dst = Exp(src)"      # shared form listed once
    assert e["family"] == "基础API/Memory矢量计算" and e["supported_950"] == pages.YES and e["in_scope"]


def test_scope_reasons():
    es = by_name(fixture_entries())
    assert es["AscendC::Rsqrt"]["out_of_scope"] == build.NOT_ON_950 and not es["AscendC::Rsqrt"]["in_scope"]
    assert es["AscendC::TSCM::AllocTensor"]["out_of_scope"] == "cube"
    assert es["AscendC::Mmad"]["kind"] == "listed" and es["AscendC::Mmad"]["out_of_scope"] == "cube"
    assert es["GET_TILING_DATA"]["out_of_scope"] == build.NOT_COPIED
    assert es["AscendC::Reg::Add"]["kind"] == "function"          # a listed name with a page is not re-listed
    assert es["AscendC::TPipe"]["kind"] == "class" and es["AscendC::TPipe::FetchEventID"]["kind"] == "method"
    assert len(es["AscendC::TPipe::FetchEventID"]["forms"]) == 2
    assert es["AscendC::Reg::UnalignRegForLoad"]["kind"] == "type" and es["AscendC::Reg::UnalignRegForStore"]["in_scope"]


def test_host_helpers_tie_to_the_longest_api_name_and_bring_their_tiling_struct():
    es = by_name(fixture_entries())
    h = es["AscendC::GetLayerNormGradMaxMinTmpSize"]
    assert h["kind"] == "host" and h["host_of"] == ["AscendC::LayerNormGrad"]      # not LayerNorm
    assert h["in_scope"] and h["supported_950"] == pages.NOT_STATED
    s = es["AscendC::tiling::LayerNormGradTiling"]
    assert s["kind"] == "struct" and s["host_of"] == ["AscendC::LayerNormGrad"]
    assert set(s["aliases"]) == {"optiling::LayerNormGradTiling", "LayerNormGradTiling"}


def test_a_host_helper_of_an_out_of_scope_api_is_out_of_scope():
    ps = [page("高阶API/归一化操作/LayerNormGrad.md", HL_KERNEL.replace("：支持", "：不支持")),
          page("高阶API/归一化操作/LayerNormGrad-Tiling.md", HL_HOST)]
    es = by_name(build.entries_from(ps))
    assert es["AscendC::GetLayerNormGradNDTilingInfo"]["out_of_scope"] == build.NOT_ON_950


# -- the file form ---------------------------------------------------------------------------------------
def test_dumps_is_deterministic_and_loads_back(tmp_path):
    es = fixture_entries()
    shuffled = es[:]
    random.Random(3).shuffle(shuffled)
    text = store.dumps(es, pages_read=11)
    assert store.dumps(shuffled, pages_read=11) == text
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    assert list(store.load(str(path))) == sorted(es, key=lambda e: (e["family"], e["name"]))
    assert store.meta(str(path))["pages_read"] == 11
    assert text.count("\n") == len(es) + 2                       # one entry per line


# -- the committed catalog ---------------------------------------------------------------------------------
FIELDS = {"name", "kind", "family", "groups", "pages", "header", "supported_950", "forms", "dtypes", "host_of",
          "aliases", "in_scope", "out_of_scope"}


def test_the_committed_catalog_is_small_sorted_and_complete():
    assert store.CATALOG_PATH.stat().st_size < 2 * 1024 * 1024
    text = store.CATALOG_PATH.read_text(encoding="utf-8")
    es = store.load()
    assert store.dumps(list(es), pages_read=store.meta()["pages_read"]) == text     # in its stable form
    assert all(FIELDS <= set(e) for e in es)
    assert all(e["in_scope"] == (e["out_of_scope"] is None) for e in es)
    assert len({(e["family"], e["name"]) for e in es}) == len(es)
    assert store.meta()["pages_read"] > 1000 and sum(e["in_scope"] for e in es) > 1000


def test_the_committed_catalog_knows_the_apis_the_issues_name():
    es = {(e["family"], e["name"]): e for e in store.load()}
    add = es[("基础API/Reg矢量计算", "AscendC::Reg::Add")]
    assert add["supported_950"] == "yes" and add["in_scope"] and add["header"].startswith("basic_api/reg_compute/")
    assert "float" in add["dtypes"] and add["forms"]
    fetch = es[("基础API/资源管理", "AscendC::TPipe::FetchEventID")]
    assert fetch["kind"] == "method" and fetch["in_scope"]
    assert es[("基础API/资源管理", "AscendC::LocalMemAllocator::Alloc")]["in_scope"]
    softmax_host = es[("高阶API/激活函数", "AscendC::GetSoftMaxMaxTmpSize")]
    assert softmax_host["kind"] == "host" and "AscendC::SoftMax" in softmax_host["host_of"]
    assert es[("高阶API/激活函数", "AscendC::tiling::SoftMaxTiling")]["kind"] == "struct"
    assert not es[("C-API/vector_compute", "asc_add")]["in_scope"]          # the 950 uses C-API/reg's asc_add
    assert es[("C-API/reg", "asc_add")]["in_scope"]


# -- lookup and the unsupported-name message ----------------------------------------------------------------
def test_lookup_folds_scope_aliases():
    assert lookup.lookup("MicroAPI::Add")["name"] == "AscendC::Reg::Add"
    assert lookup.lookup("AscendC::Reg::LoadAlign<float, LoadDist::DIST_NORM>")["name"] == "AscendC::Reg::LoadAlign"
    assert lookup.lookup("Add")["name"] == "AscendC::Add"                   # unqualified: the MemBase API
    assert lookup.lookup("optiling::SoftMaxTiling")["name"] == "AscendC::tiling::SoftMaxTiling"
    assert lookup.lookup("FetchEventID")["name"] == "AscendC::TPipe::FetchEventID"   # a member call's bare name
    assert lookup.lookup("Frobnicate") is None and lookup.lookup("AscendC::Reg::Frobnicate") is None


def test_a_name_in_two_families_prefers_the_basic_api_in_scope():
    both = lookup.catalog().all("AscendC::Exp")
    assert {e["family"] for e in both} >= {"基础API/Memory矢量计算", "高阶API/数学计算"}
    assert both[0]["family"] == "基础API/Memory矢量计算"


def test_unsupported_api_message_distinguishes_the_three_cases():
    assert lookup.unsupported_api_message("MicroAPI::Histograms", "k.asc", 7) == \
        "UNSUPPORTED_API AscendC::Reg::Histograms k.asc:7 (catalogued, not yet emulated)"
    assert lookup.unsupported_api_message("Frobnicate", "k.asc", 8) == \
        "UNSUPPORTED_API Frobnicate k.asc:8 (not in the Ascend C API catalog)"
    assert lookup.unsupported_api_message("Mmad", "k.asc", 9) == \
        "UNSUPPORTED_API AscendC::Mmad k.asc:9 (catalogued, out of scope: cube)"
    assert lookup.unsupported_api_message("asc_add_sync", "k.asc", 1).endswith(
        "(catalogued, out of scope: not supported on Ascend 950)")


@pytest.mark.parametrize("bridge_name, api", [
    ("Reg.Add", "AscendC::Reg::Add"), ("MB.Add", "AscendC::Add"), ("CAPI.asc_init", "asc_init"),
    ("PIPE.InitBuffer", "AscendC::TPipe::InitBuffer"), (".AllocTensor", "AllocTensor"), ("SYS.GetBlockIdx", "AscendC::GetBlockIdx"),
])
def test_bridge_names_map_to_cxx_names(bridge_name, api):
    assert lookup.api_of_bridge_name(bridge_name) == api
    assert lookup.lookup(api) is not None


@pytest.mark.parametrize("error, found", [
    ("k.asc:5:10: error: \u2018Histograms\u2019 is not a member of \u2018AscendC::Reg\u2019", ("AscendC::Reg::Histograms", False)),
    ("k.asc:6:15: error: 'Exp2' is not a member of 'AscendC::MicroAPI'; did you mean 'Exp'?", ("AscendC::MicroAPI::Exp2", False)),
    ("k.asc:8:5: error: \u2018asc_add\u2019 was not declared in this scope", ("asc_add", False)),
    ("k.asc:10:22: error: \u2018class AscendC::TPipe\u2019 has no member named \u2018InitSpmBuffer\u2019",
     ("AscendC::TPipe::InitSpmBuffer", False)),
    ("k.asc:11:4: error: no matching function for call to \u2018Gather<float, float, uint32_t>(RegTensor<float>&, float*&)\u2019",
     ("Gather", True)),
    ("k.asc:12:4: error: no matching function for call to \u2018AscendC::TQue<AscendC::TPosition::VECIN, 1>::AllocTensor()\u2019",
     ("AscendC::TQue::AllocTensor", True)),
    ("k.asc:3:9: error: no member named 'Histograms' in namespace 'AscendC::Reg'", ("AscendC::Reg::Histograms", False)),
    ("k.asc:4:9: error: no member named 'InitSpmBuffer' in 'AscendC::TPipe'", ("AscendC::TPipe::InitSpmBuffer", False)),
    ("k.asc:5:9: error: use of undeclared identifier 'asc_add'", ("asc_add", False)),
    ("k.asc:13:1: error: expected \u2018;\u2019 before \u2018}\u2019 token", None),
])
def test_api_in_compiler_error(error, found):
    assert lookup.api_in_compiler_error(error) == found


def test_catalog_json_entries_are_plain_json():
    """What the CLI and other tools get: strings, numbers, lists and booleans only."""
    e = store.load()[0]
    assert json.loads(json.dumps(e)) == e


def test_c_api_dtypes_come_from_the_register_types_of_its_prototypes():
    text = ("# asc_neg\n\n## 产品支持情况\n\n- Ascend 950PR/Ascend 950DT：支持\n\n## 函数原型\n\n```cpp\n"
            "__simd_callee__ inline void asc_neg(vector_half& dst, vector_half src, vector_bool mask)\n"
            "__simd_callee__ inline void asc_neg(vector_int32_t& dst, vector_int32_t src, vector_bool mask)\n```\n")
    (e,) = build.entries_from([page("C-API/reg/arithmetic_compute/asc_neg.md", text)])
    assert e["name"] == "asc_neg" and e["dtypes"] == ["int32_t", "half"] and len(e["forms"]) == 2


def test_a_bare_definition_page_and_a_type_page_name_their_type():
    enum_page = "# PostLiteral\n\n```cpp\nenum class PostLiteral {\n    POST_MODE_NORMAL,\n    POST_MODE_UPDATE\n};\n```\n"
    p = page("基础API/Reg矢量计算/辅助数据类型/PostLiteral.md", enum_page)
    assert p.is_api and p.prototypes == ["enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE }"]
    mask_page = REG_ADD.replace("# Add", "# MaskReg").replace("void Add(", "MaskReg CreateMask(")
    es = by_name(build.entries_from([p, page("基础API/Reg矢量计算/寄存器数据类型/MaskReg.md", mask_page)]))
    assert es["AscendC::Reg::PostLiteral"]["kind"] == "type"
    assert es["AscendC::Reg::MaskReg"]["kind"] == "type" and es["AscendC::Reg::CreateMask"]["forms"]
