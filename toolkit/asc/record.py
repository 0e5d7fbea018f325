"""What the child sends back for one launch: the launch summary (same view as the Python kernels) plus the
GM bytes each kernel argument received during the launch, for ``compare``."""
from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from toolkit.views.launch_summary import launch_summary


def launch_record(state, prog) -> dict[str, Any]:
    result = state.result()
    timing = prog.timing_model.launch(result)
    record = {"kind": "launch", "index": prog.launches, "where": list(state.where),
              **launch_summary(result, prog.timing_model, timing)}
    names = prog.kernel_params.get(state.base_name, [])
    record["outputs"] = _outputs(state, names)
    record["execution"] = result.meta["execution"]   # lock-step or serial; calls shared by the cores
    if "loop_batching" in state.shared:            # hardware loops batched / serial and why (loopdefer)
        record["loop_batching"] = dict(state.shared["loop_batching"])
    if prog.keep_events:                           # for tests and tools: the raw event streams per core
        record["events"] = [core.events for core in result.cores]
    if prog.want_timeline:                         # for the HTML report: the slowest core's pipes
        from toolkit.views.timeline import slowest_core_timeline
        record["timeline"] = None if result.aborted else slowest_core_timeline(timing)
    if prog.want_trace:
        from toolkit.views.trace import launch_trace
        label = f"launch {prog.launches} {state.name}"
        record["trace"] = launch_trace(label, timing, prog.timing_model, pid_base=prog.launches * 1000)
    return record


def _outputs(state, names: list[str]) -> list[dict[str, Any]]:
    """For every pointer argument the launch wrote: its name, element type (the one the kernel's GM
    accesses used most), and the bytes written (a mask and the data from the argument's offset)."""
    out = []
    seen: set[int] = set()
    for k, arg in enumerate(state.args):
        if arg is None:
            continue
        buf, off, ptr_dtype = arg
        if id(buf) in seen:
            continue
        seen.add(id(buf))
        written = buf.writer[off:] >= 0
        if not written.any():
            continue
        end = int(np.nonzero(written)[0][-1]) + 1
        used: Counter = state.gm_dtypes.get(buf.name, Counter())
        dtype = used.most_common(1)[0][0] if used else ptr_dtype.name
        out.append({"arg": names[k] if k < len(names) else f"arg{k}", "index": k, "dtype": dtype,
                    "data": buf.data[off:off + end].tobytes(), "written": np.packbits(written[:end]).tobytes(),
                    "nbytes": end})
    return out
