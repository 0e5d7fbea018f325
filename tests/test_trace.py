"""Chrome trace export of both commands: schema, complete events only, no overlapping slices on a
thread, the lanes present, and the VF count of the trace equal to the counter."""
import json
from collections import defaultdict

import pytest

from toolkit.cli import main


def load_trace(tmp_path, argv):
    path = tmp_path / "trace.json"
    jpath = tmp_path / "report.json"
    code = main(argv + ["--trace", str(path), "--json", str(jpath)])
    assert code == 0
    return json.loads(path.read_text()), json.loads(jpath.read_text())


def threads(trace):
    names = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    return names


def check_schema(trace):
    assert set(trace) >= {"traceEvents", "displayTimeUnit", "otherData"}
    assert "cycle" in trace["otherData"]["time_unit"]
    phases = {e["ph"] for e in trace["traceEvents"]}
    assert phases <= {"X", "M"}
    by_thread = defaultdict(list)
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            assert {"name", "pid", "tid", "ts", "dur"} <= set(e)
            assert isinstance(e["ts"], (int, float)) and e["dur"] > 0
            by_thread[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    for spans in by_thread.values():
        spans.sort()
        for (s0, e0), (s1, e1) in zip(spans, spans[1:]):
            assert s1 >= e0, "overlapping slices on one thread"
    return by_thread


@pytest.fixture(scope="module")
def kv(tmp_path_factory):
    return load_trace(tmp_path_factory.mktemp("kv"), ["kv_rms_norm_rope_cache", "--batch", "1", "--seq", "16",
                                                     "--cores", "2"])


def test_kv_trace_schema_and_lanes(kv):
    trace, report = kv
    check_schema(trace)
    names = threads(trace)
    procs = {e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    assert {"membase/full_load core 0", "regbase/full_load core 0", "regbase/full_load core 1"} <= procs
    lanes = {n.split(" #")[0] for n in names.values()}
    assert {"MTE2", "PUSHQ/VECTOR", "MTE3", "SCALAR", "RVECLD", "RVECEX", "RVECST"} <= lanes


def test_kv_trace_vf_count_equals_counter(kv):
    trace, report = kv
    names = threads(trace)
    for backend, base in (("membase", 0), ("regbase", 1000)):
        vf_slices = [e for e in trace["traceEvents"] if e["ph"] == "X" and base <= e["pid"] < base + 1000
                     and names[(e["pid"], e["tid"])].startswith("PUSHQ/VECTOR")]
        assert len(vf_slices) == report["backends"][backend]["cycles"]["vf_count"]


def test_story_trace(tmp_path):
    path = tmp_path / "t.json"
    assert main(["simd_vf_story/reduce/reduce_max_ar_baseline", "--trace", str(path)]) == 0
    trace = json.loads(path.read_text())
    check_schema(trace)
    names = threads(trace)
    vf = [e for e in trace["traceEvents"] if e["ph"] == "X" and names[(e["pid"], e["tid"])] == "PUSHQ/VECTOR"]
    assert len(vf) == 5                                  # VF_REPEAT
    ex = [e for e in trace["traceEvents"] if e["ph"] == "X" and names[(e["pid"], e["tid"])].startswith("RVECEX")]
    assert len(ex) == 5 * 1094                           # every RVECEX event of the five VFs
