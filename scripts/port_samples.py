#!/usr/bin/env python3
"""The done-when figures of ``migrate-check port`` (issue 23) on the MemBase samples we ship.

    python scripts/port_samples.py [--json PATH|-]

For the KV ``membase/full_load.asc`` and the softmax ``0_membase.asc``: port, prove (build and run both,
``compare``), then build and run the hand-written RegBase versions (KV ``regbase/full_load.asc``,
softmax ``3_multi_row.asc`` and ``7_merged_vf_direct.asc``) and measure each against the MemBase
original: UB bytes (the port within 10 % of the hand-written version) and kernel-cycle speed-up (the port
reaching 80 % of the hand-written speed-up). One row per (sample, hand-written version); exit 1 when the
port is not equivalent or misses either bound.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from toolkit.cli import ArgParser, dump_json, guarded
from toolkit.console.outputs import OutputPlan

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = [
    ("kv", "operators/kv_rms_norm_rope_cache/asc/membase/full_load.asc",
     ["operators/kv_rms_norm_rope_cache/asc/regbase/full_load.asc"]),
    ("softmax", "operators/softmax/asc/src/0_membase.asc",
     ["operators/softmax/asc/src/3_multi_row.asc", "operators/softmax/asc/src/7_merged_vf_direct.asc"]),
]
UB_MARGIN, SPEEDUP_SHARE = 1.10, 0.80


def _figures(run) -> tuple[int, int]:
    lr = run.launches[0]
    return lr["ub"]["total_bytes"], lr["cycles"]["kernel_cycles"]


def measure(name: str, membase: str, hand: list[str]) -> list[dict]:
    from toolkit.asc.build import build
    from toolkit.asc.runner import run_program
    from toolkit.port.port import port_source
    from toolkit.port.proof import prove
    src = ROOT / membase
    result = port_source(src)
    with tempfile.NamedTemporaryFile("w", suffix=".asc", dir=src.parent, prefix=".port-", delete=True) as fh:
        fh.write(result.text)
        fh.flush()
        proof = prove(result, src, Path(fh.name), [], [], 600.0, None)
    base_ub, base_cyc = _figures(proof.runs[0])
    port_ub, port_cyc = _figures(proof.runs[1])
    rows = []
    for h in hand:
        hand_ub, hand_cyc = _figures(run_program(build(ROOT / h), [], timeout=600.0))
        hand_speedup, port_speedup = base_cyc / hand_cyc, base_cyc / port_cyc
        rows.append({"sample": name, "membase": membase, "hand_written": h, "equivalent": proof.passed,
                     "ub_membase": base_ub, "ub_port": port_ub, "ub_hand": hand_ub,
                     "ub_port_over_hand": round(port_ub / hand_ub, 3),
                     "cycles_membase": base_cyc, "cycles_port": port_cyc, "cycles_hand": hand_cyc,
                     "speedup_port": round(port_speedup, 3), "speedup_hand": round(hand_speedup, 3),
                     "speedup_share": round(port_speedup / hand_speedup, 3),
                     "ok": proof.passed and port_ub <= UB_MARGIN * hand_ub
                     and port_speedup >= SPEEDUP_SHARE * hand_speedup})
    return rows


def text(rows: list[dict]) -> str:
    out = [f"{'sample':8} {'hand-written':38} {'UB port/hand':>20} {'speed-up port/hand':>22}  verdict"]
    for r in rows:
        out.append(f"{r['sample']:8} {Path(r['hand_written']).name:38} "
                   f"{r['ub_port']:>7}/{r['ub_hand']:<7} ({r['ub_port_over_hand']:.2f}) "
                   f"{r['speedup_port']:>6.3f}x/{r['speedup_hand']:.3f}x ({r['speedup_share']:.0%})  "
                   f"{'ok' if r['ok'] else 'MISSED'}{'' if r['equivalent'] else ' (not equivalent)'}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="port_samples.py", description="port the MemBase samples and measure against the hand ports")
    ap.add_argument("--json", default=None, help="write the rows as JSON to PATH ('-' = stdout)")
    args = ap.parse_args(argv)
    plan = OutputPlan({"json": args.json})
    rows = [r for name, membase, hand in SAMPLES for r in measure(name, membase, hand)]
    if "json" in plan:
        plan.commit({"json": dump_json({"rows": rows, "ub_margin": UB_MARGIN, "speedup_share": SPEEDUP_SHARE})})
    if not plan.stdout_taken:
        print(text(rows))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(guarded("port_samples.py", main))
