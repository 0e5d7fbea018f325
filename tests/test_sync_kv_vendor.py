"""The vendor KV sources' synchronisation constructs in a KV kernel: our KV .asc programs with CopyOut written
the vendor's way (``Mutex::Lock<PIPE_MTE3>`` around the scalar read of the cache index, an event id from
the runtime form ``GetTPipePtr()->FetchEventID(HardEvent::S_MTE3)`` cast to ``event_t``, then SetFlag /
WaitFlag with it) run to their own PASS with the sample's UB plans (130048 / 46080 B), and record the same
counters and cycles as the Python ports (the constructs add no edge the original EVENT_ID0 pair lacked)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from operators.kv_rms_norm_rope_cache import host
from tests.asc_support import build_and_run, needs_compiler
from toolkit.engine.launch import launch_mode
from toolkit.machine import load_machine
from toolkit.timing.model import TimingModel
from toolkit.views.launch_summary import launch_counters, launch_summary

ASC = Path(__file__).resolve().parents[1] / "operators" / "kv_rms_norm_rope_cache" / "asc"

ORIGINAL = """            int64_t cacheOffset = indexGm_.GetValue(token);
            SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);"""
VENDOR = """            AscendC::Mutex::Lock<PIPE_MTE3>(mutexId_);
            int64_t cacheOffset = indexGm_.GetValue(token);
            event_t eventId = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
            SetFlag<HardEvent::S_MTE3>(eventId);
            WaitFlag<HardEvent::S_MTE3>(eventId);"""
AFTER_ROW = """            DataCopyPad(outGm[tileRow * d], outLocal[i * d], copyParams);
        }"""
VENDOR_AFTER_ROW = """            DataCopyPad(outGm[tileRow * d], outLocal[i * d], copyParams);
            AscendC::Mutex::Unlock<PIPE_MTE3>(mutexId_);
        }"""
MEMBER = "    GlobalTensor<int64_t> indexGm_;"
VENDOR_MEMBER = "    GlobalTensor<int64_t> indexGm_;\n    MutexID mutexId_ = 0;"


def vendor_style(tmp: Path) -> Path:
    dst = tmp / "asc"
    shutil.copytree(ASC, dst)
    common = dst / "include" / "kv_kernel_common.h"
    text = common.read_text()
    for a, b in ((ORIGINAL, VENDOR), (AFTER_ROW, VENDOR_AFTER_ROW), (MEMBER, VENDOR_MEMBER)):
        assert text.count(a) == 1, a
        text = text.replace(a, b)
    common.write_text(text)
    return dst


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = vendor_style(tmp_path_factory.mktemp("kv_vendor"))
    return {b: build_and_run(root / b / "full_load.asc") for b in ("membase", "regbase")}


@needs_compiler
@pytest.mark.parametrize("backend,ub", [("membase", 130048), ("regbase", 46080)])
def test_vendor_constructs_run_to_pass_with_the_sample_ub_plans(runs, backend, ub):
    run = runs[backend]
    assert run.failure is None and run.exit_status == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "PASS"
    (lr,) = run.launches
    assert lr["passed"] and lr["ub"]["total_bytes"] == ub and lr["diagnostics"] == []


@needs_compiler
@pytest.mark.parametrize("backend", ["membase", "regbase"])
def test_vendor_constructs_time_as_the_python_port(runs, backend):
    p = host.KvParams()
    port = host.run_backend(backend, p, host.load_case(p, None), load_machine()).launch
    lr = runs[backend].launches[0]
    assert lr["counters"] == launch_counters(port, port.machine)
    want = launch_summary(port, TimingModel(port.machine))["cycles"]
    assert json.loads(json.dumps(lr["cycles"])) == json.loads(json.dumps(want))


@needs_compiler
def test_vendor_constructs_in_the_serial_run(tmp_path):
    root = vendor_style(tmp_path)
    with launch_mode("serial"):
        run = build_and_run(root / "regbase" / "full_load.asc")
    assert run.exit_status == 0 and run.stdout.splitlines()[-1] == "PASS"
    assert run.launches[0]["execution"]["mode"] == "serial"
