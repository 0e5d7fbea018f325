"""Property-based fuzzing of ``migrate-check kv_rms_norm_rope_cache`` over its options and over the
contents and sizes of a ``--data-dir``: every case exits 0, 1 or 2 without a traceback; exit 2 is one
line on stderr and changes nothing; otherwise every requested output is whole; no temp file is left."""
from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
import time

import numpy as np
from _hostile import KV, PATHS, check_invariants, invoke, resolved, sandbox, snapshot
from hypothesis import given, note
from hypothesis import strategies as st

from operators.kv_rms_norm_rope_cache import gen_data
from toolkit.harness.binio import case_layout

B, S, DV, DK = 1, 16, 512, 128
SHAPE = ["--batch", str(B), "--seq", str(S)]


@functools.lru_cache(maxsize=1)
def _case() -> dict[str, bytes]:
    """The .bin files of a small valid case (made once; a fixture argument would bloat every report)."""
    return {key: gen_data.file_bytes(arr) for key, arr in gen_data.generate(B, S, DV, DK).items()}


def _write_case(root: str, files: dict[str, bytes]) -> str:
    d = os.path.join(root, "case")
    for key, raw in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, key)), exist_ok=True)
        with open(os.path.join(d, key + ".bin"), "wb") as fh:
            fh.write(raw)
    return d


def strict_json(text: str):
    """json.loads that refuses NaN / Infinity (not JSON; jq and browsers reject them)."""
    def refuse(name: str):
        raise ValueError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def _check_run(root: str, before: dict, code: int, out: str, err: str, outputs: dict[str, str],
               marker: str | None = "UB budget (bytes)") -> dict | None:
    """The common properties; returns the JSON report when one was written to a file or stdout."""
    assert code in (0, 1, 2) and "Traceback" not in err, err
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("migrate-check: error: "), err
        assert snapshot(root) == before
        return None
    assert err == ""
    docs = {}
    for option, path in outputs.items():
        if path == "-":
            docs[option] = strict_json(out)                    # '-' output: the whole of stdout
        elif path not in ("/dev/null", "/dev/stdout"):
            with open(resolved(root, path)) as fh:
                docs[option] = strict_json(fh.read())
    if "-" not in outputs.values() and "/dev/stdout" not in outputs.values():
        assert marker is None or marker in out                 # the text report, when stdout is free
    check_invariants(root)
    return docs.get("--json")


# -- options -------------------------------------------------------------------------------------------

VALUES = {
    "--batch": ["1", "2", "0", "-1", "99999999999999999999", "x", "1.5", ""],
    "--seq": ["1", "5", "16", "19", "0", "-3", "abc"],
    "--num-head": ["1", "2", "0"],
    "--dv": ["512", "576", "520", "64", "1", "0", "-512"],
    "--dk": ["128", "64", "32", "160", "127", "2", "0"],
    "--ub-factor": ["1", "3", "8", "16", "44", "45", "0", "-1", str(2**70)],
    "--cores": ["1", "2", "7", "56", "0", "-2", str(2**40)],
    "--seed": ["0", "2026", "-1", str(2**64), "1e3"],
    "--epsilon": ["1e-5", "0", "nan", "-1", "inf", "1e40", "1e-45", "x"],
    "--backend": ["membase", "regbase", "both", "neither", ""],
    "--data-dir": ["case", "missing", "existing.json", "", "dir"],
    "--json": PATHS, "--trace": PATHS,
}
option = st.one_of(st.sampled_from(sorted(VALUES)).flatmap(lambda k: st.tuples(st.just(k), st.sampled_from(VALUES[k]))),
                   st.sampled_from([("--force",), ("--nope",), ("extra",), ("-h",)]))


@given(options=st.lists(option, max_size=5), dangling=st.sampled_from([(), ("--json",), ("--seq",)]))
def test_any_options(options, dangling):
    root = sandbox()
    cwd = os.getcwd()
    argv = SHAPE + [x for o in options for x in o] + list(dangling)       # dangling: an option missing its value
    note(repr(argv))
    try:
        os.chdir(root)
        _write_case(root, _case())
        before = snapshot(root)
        t0 = time.perf_counter()
        code, out, err = invoke(KV, *argv)
        note(f"{time.perf_counter() - t0:.2f} s")
        if ("-h",) in options and code == 0:                 # help wins unless an option before it is bad
            assert out.startswith("Usage:") and err == ""
            return
        outputs = {o[0]: o[1] for o in options if o[0] in ("--json", "--trace") and len(o) == 2}
        _check_run(root, before, code, out, err, outputs)
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)


# -- data files ----------------------------------------------------------------------------------------

KEYS = sorted(case_layout(B, 1, S, DV, DK))
BF16_SPECIALS = [0x7FC0, 0xFFC0, 0x7F80, 0xFF80, 0x8000, 0x0001, 0x7F7F, 0xFFFF]
INDEX_VALUES = st.one_of(st.sampled_from([-1, -2**63, 2**63 - 1, 2**56, 2**40, S, S - 1, 0, 2**31]),
                         st.integers(-2**63, 2**63 - 1))

mutation = st.one_of(
    st.tuples(st.just("truncate"), st.sampled_from(KEYS), st.integers(0, 4096)),
    st.tuples(st.just("extend"), st.sampled_from(KEYS), st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("poke"), st.sampled_from(KEYS), st.integers(0, 1 << 20), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("special"), st.sampled_from([k for k in KEYS if k != "input/index"]),
              st.lists(st.tuples(st.integers(0, 1 << 20), st.sampled_from(BF16_SPECIALS)), min_size=1, max_size=8)),
    st.tuples(st.just("index"), st.integers(0, B * S - 1), INDEX_VALUES),
    st.tuples(st.just("replace"), st.sampled_from(KEYS), st.sampled_from(["dir", "fifo", "dangling", "devnull", "empty"])),
)


def _set_elements(raw: bytes, dtype: str, values: list[tuple[int, int]]) -> bytes:
    """``raw`` with elements (position modulo the count) set; a partial last element stays as it is."""
    size = np.dtype(dtype).itemsize
    n = len(raw) // size
    if n == 0:
        return raw
    arr = np.frombuffer(raw[:n * size], dtype=dtype).copy()
    for pos, value in values:
        arr[pos % n] = value
    return arr.tobytes() + raw[n * size:]


def _mutate(files: dict[str, bytes], m: tuple, odd: dict[str, str]) -> None:
    kind, *args = m
    if kind == "index":
        pos, value = args
        files["input/index"] = _set_elements(files["input/index"], "<i8", [(pos, value)])
        return
    key = args[0]
    raw = bytearray(files[key])
    if kind == "truncate":
        raw = raw[:min(args[1], max(len(raw) - 1, 0))]
    elif kind == "extend":
        raw += args[1]
    elif kind == "poke" and raw:
        at = args[1] % len(raw)
        raw[at:at + len(args[2])] = args[2][:len(raw) - at]
    elif kind == "special":
        raw = bytearray(_set_elements(bytes(raw), "<u2", args[1]))
    elif kind == "replace":
        odd[key] = args[1]
    files[key] = bytes(raw)


def _make_odd(d: str, key: str, kind: str) -> None:
    path = os.path.join(d, key + ".bin")
    os.remove(path)
    {"dir": lambda: os.mkdir(path), "fifo": lambda: os.mkfifo(path), "dangling": lambda: os.symlink("gone", path),
     "devnull": lambda: os.symlink("/dev/null", path), "empty": lambda: open(path, "wb").close()}[kind]()


@given(mutations=st.lists(mutation, min_size=1, max_size=3), backend=st.sampled_from(["membase", "regbase", "both"]),
       cores=st.sampled_from(["1", "2", "4"]))
def test_any_data_files(mutations, backend, cores):
    root = sandbox()
    cwd = os.getcwd()
    note(repr(mutations))
    try:
        os.chdir(root)
        case = _case()
        files, odd = dict(case), {}
        for m in mutations:
            _mutate(files, m, odd)
        d = _write_case(root, files)
        for key, kind in odd.items():
            _make_odd(d, key, kind)
        before = snapshot(root)
        code, out, err = invoke(KV, *SHAPE, "--data-dir", "case", "--backend", backend, "--cores", cores,
                                "--json", "dir/r.json", "--trace", "dir/t.json")
        doc = _check_run(root, before, code, out, err, {"--json": "dir/r.json", "--trace": "dir/t.json"})
        bad = [k for k in KEYS if k in odd or len(files[k]) != len(case[k])]
        if bad:                                              # a file of the wrong size or kind: named, exit 2
            assert code == 2 and any(f"{k}.bin" in err for k in bad), err
            return
        index = np.frombuffer(files["input/index"], dtype="<i8")
        if (index >= S).any():                               # a cache row outside k_cache/v_cache
            assert code == 1
            for b in doc["backends"].values():
                assert "GM_OUT_OF_BOUNDS" in {x["code"] for x in b["diagnostics"]}
                assert b["cycles"]["kernel_cycles"] is None and b["cycles"]["reason"].startswith("aborted: ")
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)


# -- targets and selectors -----------------------------------------------------------------------------

segment = st.one_of(st.sampled_from(["reduce", "broadcast", "elemwise", "reduce_sum_ar_binary", "tail_axis_2_distbrc",
                                     "nope", "", "..", "*"]), st.text(max_size=6))


@given(head=st.sampled_from(["simd_vf_story", "machine", "nope", "", "-", "--json"]),
       rest=st.lists(segment, max_size=3), out=st.sampled_from(["-", "r.json", "dir", "missing/r.json"]))
def test_any_target_and_selector(head, rest, out):
    root = sandbox()
    cwd = os.getcwd()
    target = "/".join([head, *rest])
    note(repr(target))
    try:
        os.chdir(root)
        before = snapshot(root)
        code, stdout, err = invoke(target, "--json", out)
        _check_run(root, before, code, stdout, err, {"--json": out}, marker=None)
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)
