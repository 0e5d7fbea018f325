"""The vf_micro rows: ``vf_micro/<file>`` -> calibration group and variant (toolkit/calibration/data/calibration.csv).

Each measured figure is one VF instance (start to end, drain included): measurement scope ``vf``.
"""
from __future__ import annotations

from operators.simd_vf_story.registry import Variant

FAMILY = "vf_micro"

_ROWS = [
    # file                    calibration group      calibration variant
    ("add_i16",               "A=B+C (VADD)",        "I16"),
    ("add_i96",               "A=B+C (VADD)",        "I96"),
    ("div_i16",               "A=B/C (VDIV)",        "I16"),
    ("div_i96",               "A=B/C (VDIV)",        "I96"),
    ("gelu_poly_i16_u1",      "gelu_poly",           "I16_U1"),
    ("gelu_poly_i96_u1",      "gelu_poly",           "I96_U1"),
    ("gelu_poly_i96_u4",      "gelu_poly",           "I96_U4"),
    ("silu_i64_u1",           "silu",                "I64_U1"),
    ("vadds_longchain_i16",   "vadds_longchain",     "I16 1 loop x 512 dependent VADDS"),
    ("vexp_longchain_i16",    "vexp_longchain",      "I16 1 loop x 512 dependent VEXP"),
]

VARIANTS: dict[str, Variant] = {f"{FAMILY}/{f}": Variant(f"{FAMILY}/{f}", g, v, package="operators")
                                for f, g, v in _ROWS}
