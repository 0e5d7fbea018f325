"""Every form of the C API register family (C-API/reg) compiles as declared, with the vendor's types: one
C++ file includes ``c_api/asc_simd.h`` and calls each form with variables of its declared C types
(``vector_half`` for a conversion to half, a float register for the element-type templates), and g++
checks it (syntax only). Also the vendor's spellings the pages use: PAT_* and MEM_TYPE constants, the
three headers, by-value temporaries for register and mask arguments."""
from __future__ import annotations

import re
import subprocess

from tests.asc_support import needs_compiler
from toolkit.asc.build import find_compiler
from toolkit.asc.headers import INCLUDE
from toolkit.ascendc import api
from toolkit.ascendc.api import spec

PROLOGUE = """#include "c_api/asc_simd.h"
#include "c_api/reg_vector.h"
#include "c_api/reg_load.h"
void probe_every_capi_reg_form() {
    vector_float vf; vector_uint32_t vi; vector_bool mk = asc_create_mask_b32(PAT_ALL); addr_reg ar;
    vector_load_unalign ul; vector_store_unalign us; __ubuf__ float* pf = nullptr; uint32_t u32 = 64;
"""
_VECTOR = re.compile(r"\bvector_(\w+)")


def _arg(a: spec.Arg, decls: dict) -> str:
    t = a.ctype.removeprefix("const ").rstrip("&").strip()
    if a.kind == spec.REG:
        if t.startswith("vector_"):                       # an exact type (conversions): a variable of it
            var = "v_" + t[7:]
            decls.setdefault(var, f"{t} {var};")
            return var
        return "vi" if t.endswith("V<I>") else "vf"
    if a.kind == spec.MASK:
        return "mk"
    if a.kind == spec.UREG:
        return "ul" if "load" in a.ctype else "us"
    if a.kind == spec.AREG:
        return "ar"
    if a.kind in (spec.UB, spec.UBREF):
        return "(pf + 0)" if a.ctype.endswith("&&") else "pf"          # a pointer expression (an rvalue)
    if a.kind == spec.SREF:
        return "u32"
    if a.ctype == "MEM_TYPE":
        return "VST_VLD"
    return "PAT_ALL" if a.name == "pat_mode" else "1"


def program() -> str:
    decls: dict[str, str] = {}
    calls = []
    for d in api.DEFINITIONS.values():
        if d.family.name.startswith("capi.reg"):
            for f in d.forms:
                calls.append(f"    {d.short}({', '.join(_arg(a, decls) for a in f.args)});")
    temporaries = ["    asc_add(vf, vf, vf, asc_create_mask_b32(PAT_VL8));",       # a temporary mask by value
                   "    asc_add_scalar(vf, vf, 2, mk); asc_duplicate_scalar(vf, 1.5f);",  # a scalar converts
                   "    ar = asc_update_addr_reg_b32(64, 128); iter_reg it = asc_create_iter_reg_b32(64); (void)it;",
                   # the bit-exact forms take the byte containers (fp8 ...) the pages list for them
                   "    vector_fp8_e4m3fn_t f8; __ubuf__ fp8_e4m3fn_t* p8 = nullptr; vector_bool m8 = asc_create_mask_b8(PAT_ALL);",
                   "    asc_loadalign(f8, p8); asc_and(f8, f8, f8, m8); asc_select(f8, f8, f8, m8);",
                   "    asc_duplicate_scalar(f8, fp8_e4m3fn_t(0x38)); asc_intlv(f8, f8, f8, f8); asc_storealign(p8, f8, m8);"]
    return "\n".join([PROLOGUE, *("    " + s for s in decls.values()), *calls, *temporaries, "}"]) + "\n"


def test_the_probe_calls_every_form():
    text = program()
    forms = sum(len(d.forms) for d in api.DEFINITIONS.values() if d.family.name.startswith("capi.reg"))
    assert text.count(";\n") >= forms > 700
    assert "v_fp8_e4m3fn_t" in text and "asc_float2half_rn_sat_v2(v_half, v_float, mk);" in text


@needs_compiler
def test_every_capi_reg_form_compiles(tmp_path):
    src = tmp_path / "capi_reg_forms.cpp"
    src.write_text(program())
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]


@needs_compiler
def test_a_numeric_form_on_a_byte_container_register_has_no_overload(tmp_path):
    """asc_add of fp8 registers is not documented: it does not compile (it would add the bytes as uint8)."""
    src = tmp_path / "bad.cpp"
    src.write_text('#include "c_api/asc_simd.h"\nvoid f() { vector_fp8_e4m3fn_t a; vector_bool m; '
                   'asc_add(a, a, a, m); }\n')
    cmd = [*find_compiler(), "-std=c++20", "-fsyntax-only", f"-I{INCLUDE}", str(src)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "asc_add" in done.stderr
