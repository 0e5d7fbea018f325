"""Fuzzing the `.asc` route (issue 17): its options, the pieces that read or write what the user controls
(source text, paths in the compiler's dependency output, C string escapes, the result channel) and a few
small generated programs run end to end. Each property has an independent oracle; the CI profile
(tests/conftest.py) bounds the examples, the compiled property to a handful."""
from __future__ import annotations

import math
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests._hostile import invoke
from tests.asc_support import needs_compiler
from toolkit.asc.channel import BadRecord, decode, encode
from toolkit.asc.overlay import DEPS_TARGET, parse_deps
from toolkit.asc.rewrite import c_string, rewrite
from toolkit.record.events import Instr, VfCall
from toolkit.sweep.values import MAX_POINTS, BadValues, parse_values

NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr), st.sampled_from(
    ["nan", "inf", "-inf", "1e309", "-1", "0", "0.05", "0.1", "3", "1e6", "", "x", "1,5", "0x10", " 2 "]))


def _is_number_at_least(text: str, low: float) -> bool:
    try:
        x = float(text)
    except ValueError:
        return False
    return math.isfinite(x) and x >= low


@given(timeout=NUMBERS, atol=NUMBERS)
def test_fuzz_numeric_options_are_checked_before_anything_runs(tmp_path_factory, timeout, atol):
    missing = "/nonexistent/dir/x.asc"
    code, _, err = invoke("compare", missing, missing, "--timeout", timeout, "--atol", atol)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    if not _is_number_at_least(timeout, 0.1):
        assert "--timeout" in err
    elif not _is_number_at_least(atol, 0.0):
        assert "--atol" in err
    else:
        assert "no such file" in err


@given(define=st.text(st.characters(codec="utf-8", exclude_characters="\0"), max_size=12))
def test_fuzz_defines_are_checked_before_anything_runs(define):
    code, _, err = invoke("run", "/nonexistent/x.asc", "-D", define)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    name, _, value = define.partition("=")
    good = re.fullmatch(r"[A-Za-z_]\w*(\([\w\s,.]*\))?", name, re.A) is not None and not re.search(r"[\r\n]", value)
    assert ("no such file" in err) == good, (define, err)


# -- sweep value lists: generated items with the values they mean -----------------------------------------
def _item():
    ints = st.integers(-50, 50)
    good_range = st.tuples(ints, st.integers(0, 30), st.integers(1, 5)).map(
        lambda t: (f"{t[0]}..{t[0] + t[1]}:{t[2]}", list(range(t[0], t[0] + t[1] + 1, t[2]))))
    bad_range = st.sampled_from(["5..1", "1..10:0", "1..x", "1..", "2..1:3", "1..10:-1", f"0..{MAX_POINTS + 5}"]).map(
        lambda s: (s, None))
    braces = st.lists(ints, min_size=1, max_size=3).map(lambda v: ("{" + ",".join(map(str, v)) + "}",
                                                                   ["{" + ",".join(map(str, v)) + "}"]))
    word = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True).map(lambda w: (w, [w]))
    return st.one_of(ints.map(lambda i: (str(i), [i])), good_range, bad_range, braces, word)


@given(items=st.lists(_item(), min_size=1, max_size=5))
def test_fuzz_sweep_value_lists(items):
    text = ",".join(t for t, _ in items)
    if any(v is None for _, v in items):
        with pytest.raises(BadValues):
            parse_values(text, None, "-D N")
        return
    flat = [x for _, v in items for x in v]
    want = flat if all(isinstance(x, int) for x in flat) else [str(x) for x in flat]
    assert parse_values(text, None, "-D N") == list(dict.fromkeys(want))


# -- small generated sources through the rewrite -------------------------------------------------------
_FRAGMENTS = st.sampled_from([
    "int x = 1;", "// a comment <<< not a launch", "/* block\ncomment */", '"str<<<ing"', "'c'", "#include \"a.h\"",
    "#define HDR \"v.h\"", "kern<<<1, nullptr, nullptr>>>(a, b);", "ns::k<T, 4><<<n, 0, s>>>(x);",
    "__simd_vf__ void F(__ubuf__ float* x) { for (int i = 0; i < 4; ++i) { } }", "R\"d(raw <<< )d\"",
    "__global__ __aicore__ void k(GM_ADDR a, uint32_t n) { }", "while (n) { --n; }", "\\\n", "{", "}", ";",
    "\xc4\xe3", "\udcff",
])


@given(parts=st.lists(_FRAGMENTS, max_size=12), newlines=st.lists(st.booleans(), max_size=12))
def test_fuzz_rewrite_keeps_every_line(parts, newlines):
    src = "".join(p + ("\n" if k < len(newlines) and newlines[k] else " ") for k, p in enumerate(parts))
    out = rewrite(src, "/tmp/d ir/\"x\"\n.asc")
    if not out.changed:
        assert out.text == src
    else:
        head, body = out.text.split("\n", 1)
        assert head.startswith("#line 1 \"") and body.count("\n") == src.count("\n")


# -- the compiler's dependency output, written as GCC writes it (mkdeps.cc) ---------------------------------
def _make_quote(path: str) -> str:
    out, slashes = [], 0
    for ch in path:
        if ch in " \t":
            out.append("\\" * slashes + "\\" + ch)
        elif ch == "#":
            out.append("\\#")
        elif ch == "$":
            out.append("$$")
        else:
            out.append(ch)
        slashes = slashes + 1 if ch == "\\" else 0
    return "".join(out)


PATHS = st.lists(st.text(st.sampled_from(list("ab/ .#$\\\"\n:_é")), min_size=1, max_size=12).map(lambda s: "/" + s)
                 .filter(lambda p: not p.endswith(("\\", "\n")) and "\\\n" not in p), min_size=1, max_size=6)


@given(paths=PATHS)
def test_fuzz_dependency_output_reads_back_every_path(paths):
    text = f"{DEPS_TARGET}: " + " \\\n ".join(_make_quote(p) for p in paths) + "\n"
    assert parse_deps(text) == [p.strip("\n") for p in paths]


# -- C string escapes: the compiler gets back the same bytes ------------------------------------------------
def _c_unescape(body: str) -> bytes:
    out, i = bytearray(), 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1] in "01234567":
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
            else:
                out.append(ord(body[i + 1]))
                i += 2
        else:
            out.append(ord(body[i]))
            i += 1
    return bytes(out)


@given(data=st.binary(max_size=40))
def test_fuzz_c_string_keeps_bytes(data):
    body = c_string(os.fsdecode(data))
    assert body.isascii() and "\n" not in body and _c_unescape(body) == data


# -- the result channel: data round-trips, junk is refused (never anything else) ---------------------------
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8),
              st.binary(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                            st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=3),
                            st.builds(lambda n, w: VfCall(n, "direct", 1, [Instr("RV_VADD", 1, (2, 3))], w, {}),
                                      st.text(max_size=4), st.tuples(st.text(max_size=4), st.integers()))),
    max_leaves=12)


@given(value=VALUES)
def test_fuzz_channel_round_trips_data(value):
    record = {"kind": "log", "text": "x", "value": value, "again": [value]}   # shared: sent once, referred to
    got = decode(encode(record))
    assert got == record
    if isinstance(value, VfCall):
        assert got["again"][0] is got["value"]


@given(junk=st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_fuzz_channel_refuses_junk(junk):
    try:
        rec = decode(junk)
    except BadRecord:
        return
    assert rec["kind"] in ("launch", "host_error", "exit", "tool_error", "log")


# -- small generated programs, built and run -------------------------------------------------------------
@needs_compiler
@settings(max_examples=3)
@given(status=st.integers(0, 255), data=st.binary(min_size=1, max_size=24).filter(lambda b: b"\0" not in b),
       style=st.sampled_from(["macro", "comment", "plain"]))
def test_fuzz_small_programs_run_as_native(tmp_path_factory, status, data, style):
    from tests.asc_support import build, run_program
    root = tmp_path_factory.mktemp("gen")
    (root / "val.h").write_text(f"#define VAL {status}\n")
    include = {"macro": '#define H "val.h"\n#include H', "comment": '#include /* c */ "val.h"',
               "plain": '#include "val.h"'}[style]
    src = root / "g.asc"
    src.write_bytes(f'#include <cstdio>\n{include}\nint main() {{ std::fputs("{c_string(os.fsdecode(data))}", stdout); '
                    f'return VAL; }}\n'.encode())
    run = run_program(build(src), [], timeout=60)
    assert run.failure is None and run.exit_status == status and run.stdout_bytes == data, run.failure
