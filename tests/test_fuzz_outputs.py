"""Property-based fuzzing of OutputPlan and scripts/gen_data.py over hostile output paths and options:
an output is refused up front (nothing changes) or written whole where it belongs (links, modes and
devices intact); a temp file is never left behind."""
from __future__ import annotations

import io
import os
import shutil
from contextlib import redirect_stderr, redirect_stdout

from _hostile import PATHS, check_invariants, leftovers, resolved, sandbox, snapshot
from hypothesis import given, note
from hypothesis import strategies as st

from operators.kv_rms_norm_rope_cache import gen_data
from toolkit.console.outputs import OutputError, OutputPlan
from toolkit.harness.binio import case_layout

contents = st.one_of(st.text(max_size=50), st.binary(max_size=50))


@given(targets=st.dictionaries(st.sampled_from(["json", "trace", "html", "csv"]), st.sampled_from(PATHS), max_size=4),
       data=st.data())
def test_output_plan_refuses_up_front_or_writes_every_output(targets, data):
    root = sandbox()
    cwd = os.getcwd()
    try:
        os.chdir(root)
        before = snapshot(root)
        try:
            plan = OutputPlan(targets)
        except OutputError as err:
            assert "\n" not in str(err) and str(err).startswith("cannot write --") or "two outputs" in str(err)
            assert snapshot(root) == before
            return
        payload = {name: data.draw(contents, label=name) for name in targets}
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
        with redirect_stdout(out):
            plan.commit(payload)
        for name, path in targets.items():
            want = payload[name] if isinstance(payload[name], bytes) else payload[name].encode()
            want += b"" if isinstance(payload[name], bytes) or payload[name].endswith("\n") else b"\n"
            if path == "-":
                assert raw.getvalue() == want
            elif path != "/dev/null":
                with open(resolved(root, path), "rb") as fh:
                    assert fh.read() == want, (name, path)
        check_invariants(root)
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)


SIZES = {"--batch": ["1", "2", "0", "-1", "99999999999999999999", "x", ""], "--seq": ["1", "3", "8", "0", "-2", "1.5"],
         "--dv": ["64", "32", "0", "-64"], "--dk": ["16", "2", "15", "0"],
         "--epsilon": ["1e-5", "0", "nan", "-1", "inf", "1e40", "abc"],
         "--seed": ["0", "7", "-1", str(2**64), "x"]}
OUT_DIRS = ["case", "", "existing.json", "dir", "dir/new", "missing/deeper/case", "link.json", "/proc/version",
            "ro.json/x", "n" * 300]


@given(picks=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in SIZES.items()}),
       drop=st.sets(st.sampled_from(sorted(SIZES)), max_size=2), out=st.sampled_from(OUT_DIRS),
       extra=st.lists(st.sampled_from(["--nope", "--output", "--seed=3", "pos"]), max_size=1))
def test_gen_data_writes_a_whole_case_or_nothing(picks, drop, out, extra):
    root = sandbox()
    cwd = os.getcwd()
    argv = [x for k, v in picks.items() if k not in drop for x in (k, v)] + ["--output", out] + extra
    note(repr(argv))
    try:
        os.chdir(root)
        before = snapshot(root)
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            code = gen_data.main(argv)
        assert code in (0, 2) and "Traceback" not in err.getvalue()
        if code == 2:
            assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("gen_data.py: error: ")
            assert snapshot(root) == before
        else:
            dims = {k: int(picks[k]) for k in ("--batch", "--seq", "--dv", "--dk")}
            for key, (dt, shape) in case_layout(dims["--batch"], 1, dims["--seq"], dims["--dv"], dims["--dk"]).items():
                size = os.path.getsize(os.path.join(root, out, key + ".bin"))
                assert size == dt.itemsize * int(gen_data.np.prod(shape)), key
        check_invariants(root)
    finally:
        os.chdir(cwd)
        shutil.rmtree(root, ignore_errors=True)
