"""``--precision-envelope`` of the KV command: each backend rerun on the perturbed machines of
:mod:`toolkit.harness.envelope`, every output against its golden with the sample's CompareBf16 gate."""
from __future__ import annotations

from typing import Any

import numpy as np

from toolkit.ascendc.numerics import perturbed
from toolkit.harness.envelope import bf16_stats, envelope_json, envelope_text, reruns, worst
from toolkit.harness.forked import forked_map
from toolkit.machine import Machine

from . import host


def backend_stats(backend: str, params: host.KvParams, data: dict[str, np.ndarray],
                  machine: Machine) -> dict[str, dict[str, Any]]:
    """One run of ``backend`` on the machine in force: output -> its stats against the golden."""
    run = host.run_backend(backend, params, data, machine)
    return {n: {**bf16_stats(run.outputs[n], data[f"output/{n}_golden"], run.checks[n]),
                "tolerance": host.TOLERANCE} for n in host.OUTPUTS}


def kv_envelope(params: host.KvParams, data: dict[str, np.ndarray], machine: Machine, backends: list[str],
                seeds: int | None = None, only: dict[str, int] | None = None, workers: int = 1) -> dict[str, Any]:
    """The envelope JSON (``groups``: backend -> ``{label, outputs: {name: worst}}``); ``workers`` > 1: the
    backends' reruns side by side (:func:`toolkit.harness.forked.forked_map`)."""
    machines = reruns(machine, seeds, only)

    def group(b: str) -> dict[str, Any]:
        per = []
        for label, p in machines:
            with perturbed(p):
                per.append((label, backend_stats(b, params, data, machine)))
        return {"label": host.BACKENDS[b], "outputs": worst(per)}

    groups = dict(zip(backends, forked_map([lambda b=b: group(b) for b in backends], workers)))
    return envelope_json(machine, [label for label, _ in machines], groups, only)


def kv_envelope_text(env: dict[str, Any]) -> str:
    return envelope_text(env, "the golden", lambda name, g: [f"Run {g['label']}"])
