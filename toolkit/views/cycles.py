"""Cycle summary of a launch (kernel cycles, pipe busy time, VF counts and IPC, bottleneck) and a
side-by-side text table of two or more launches (e.g. MemBase vs RegBase)."""
from __future__ import annotations

from toolkit.record.events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V
from toolkit.timing.core import critical_path
from toolkit.timing.model import KernelTiming

PIPE_NAMES = {PIPE_MTE2: "MTE2", PIPE_MTE3: "MTE3", PIPE_V: "VECTOR", PIPE_S: "SCALAR"}


def _top_vf(core) -> str:
    """The VF kind with the most VECTOR cycles on the core, its share and its own bound."""
    cycles: dict[str, int] = {}
    bound: dict[str, str] = {}
    for ev, t, _ in core.vfs:
        cycles[ev.name] = cycles.get(ev.name, 0) + t.cycles
        bound.setdefault(ev.name, t.bottleneck())
    top = max(cycles, key=cycles.get)
    share = 100.0 * cycles[top] / max(sum(cycles.values()), 1)
    return f"top VF {top}: {share:.0f}% of the VF cycles, bound: {bound[top]}"


def contention(core) -> str:
    """The pipes whose work the shared UB ports stretched (toolkit.timing.core_units.SharedUbPorts), as
    "; VECTOR delayed by DMA UB-port contention 4%" (share of the pipe's busy time; below 0.5%: nothing)."""
    parts = []
    for pipe, name in PIPE_NAMES.items():
        delay = core.counters.get(f"ub_contention_{pipe.lower()}_cycles", 0)
        busy = core.busy.get(pipe, 0) if core.busy else 0
        if delay and busy and delay >= 0.005 * busy:
            other = "DMA" if pipe == PIPE_V else "VF/DMA"
            parts.append(f"{name} delayed by {other} UB-port contention {100.0 * delay / busy:.0f}%")
    return "".join("; " + p for p in parts)


def bottleneck(kt: KernelTiming, tol: float = 0.02) -> str:
    """The pipe whose busy time on the slowest core is within ``tol`` of that core's cycles (inside
    VECTOR: the dominant VF bound); otherwise the make-up of the critical path across pipes; then the
    pipes delayed by UB-port contention (:func:`contention`)."""
    return _bottleneck(kt, tol) + contention(kt.slowest)


def _bottleneck(kt: KernelTiming, tol: float) -> str:
    core = kt.slowest
    pipe, busy = max(core.busy.items(), key=lambda kv: kv[1])
    name = PIPE_NAMES[pipe]
    if core.end and busy >= (1 - tol) * core.end:
        if pipe == PIPE_V and core.vfs:
            return f"{name} ({_top_vf(core)})"
        return name
    path = critical_path(core)
    total = sum(path.values()) or 1
    parts = sorted(path.items(), key=lambda kv: -kv[1])
    share = ", ".join(f"{PIPE_NAMES.get(k, k)} {100.0 * v / total:.0f}%" for k, v in parts if v)
    if parts and parts[0][1] >= 0.9 * total and parts[0][0] in PIPE_NAMES:
        top = f"; {_top_vf(core)}" if parts[0][0] == PIPE_V and core.vfs else ""
        return f"{PIPE_NAMES[parts[0][0]]} + fill/drain (critical path: {share}{top})"
    return f"latency chain across pipes (critical path: {share})"


def aborted_summary(aborted: list, cores: int) -> dict:
    """The cycle summary of a launch that aborted: no figures (JSON null), the reason instead."""
    codes = list(dict.fromkeys(d.code for d in aborted))
    return {
        "kernel_cycles": None, "task_cycles": None, "task_us": None, "kernel_us": None,
        "slowest_core": None, "vf_count": None, "vf_cycles": None,
        "vf_count_slowest_core": None, "vf_cycles_slowest_core": None,
        "pipes": {name: None for name in PIPE_NAMES.values()}, "ipc": {}, "vf_kinds": {}, "critical_path": {},
        "mte2_bytes": None, "mte3_bytes": None, "bottleneck": None,
        "aborted": codes, "aborted_cores": len(aborted),
        "reason": f"aborted: {', '.join(codes)} on {len(aborted)} of {cores} cores",
    }


def cycle_summary(kt: KernelTiming, aborted: list | None = None) -> dict:
    """Cycle figures of a launch; ``aborted`` (the launch's aborted cores' diagnostics): when any core
    aborted the kernel did not run to the end, so no figure is made up (:func:`aborted_summary`)."""
    if aborted:
        return aborted_summary(aborted, len(kt.cores))
    core = kt.slowest
    kinds: dict[str, list[float]] = {}
    vf_count = vf_cycles = 0
    for c in kt.cores:
        vf_count += c.counters["vf_count"]
        vf_cycles += c.counters["pushq_vf_cycles"]
        for ev, t, _ in c.vfs:
            acc = kinds.setdefault(ev.name, [0, 0, 0, 0, t])
            acc[0] += 1
            acc[1] += t.n_ex
            acc[2] += t.steady
            acc[3] += t.cycles
    return {
        "kernel_cycles": kt.kernel_cycles,
        "task_cycles": kt.task_cycles,
        "task_us": round(kt.us(kt.task_cycles), 3),
        "kernel_us": round(kt.us(kt.kernel_cycles), 3),
        "launch_cycles": kt.launch_cycles,
        "tail_cycles": kt.tail_cycles,
        "clock_mhz": kt.clock_mhz,
        "slowest_core": core.core,
        "vf_count": vf_count,
        "vf_cycles": vf_cycles,
        "vf_count_slowest_core": core.counters["vf_count"],
        "vf_cycles_slowest_core": core.counters["pushq_vf_cycles"],
        "pipes": {PIPE_NAMES[p]: core.busy[p] for p in (PIPE_MTE2, PIPE_MTE3, PIPE_V, PIPE_S)},
        "pipes_us": {PIPE_NAMES[p]: round(kt.us(core.busy[p]), 3) for p in (PIPE_MTE2, PIPE_MTE3, PIPE_V, PIPE_S)},
        "ipc": {name: round(a[1] / a[2], 3) if a[2] else 0.0 for name, a in kinds.items()},
        "vf_kinds": {name: {"count": a[0], "cycles": a[3], "avg_cycles": round(a[3] / a[0], 1),
                            "bottleneck": a[4].bottleneck(),
                            "bounds": {k: round(v, 1) for k, v in a[4].bounds.items()}}
                     for name, a in kinds.items()},
        "critical_path": {PIPE_NAMES.get(k, k): v for k, v in critical_path(core).items()},
        "mte2_bytes": core.counters["mte2_bytes"],
        "mte3_bytes": core.counters["mte3_bytes"],
        "bottleneck": bottleneck(kt),
    }


def _na(summary: dict) -> str:
    return f"n/a (aborted: {', '.join(summary['aborted'])})"


def compare_cycles_table(summaries: dict[str, dict]) -> str:
    """Side-by-side cycles of two or more launches; an aborted one shows n/a, never a figure."""
    names = list(summaries)
    rows: list[list[str]] = [["", *names]]

    def add(label: str, fn) -> None:
        rows.append([label, *["n/a" if summaries[n].get("aborted") else fn(summaries[n]) for n in names]])

    add("task time (with launch)", lambda s: f"{s['task_us']:.3f} us ({s['task_cycles']} cyc)")
    rows.append(["kernel cycles (slowest core)",
                 *[_na(s) if s.get("aborted") else str(s["kernel_cycles"]) for s in summaries.values()]])
    for pipe in ("MTE2", "VECTOR", "MTE3", "SCALAR"):
        add(f"  {pipe} busy", lambda s, p=pipe: f"{s['pipes'][p]} ({100.0 * s['pipes'][p] / max(s['kernel_cycles'], 1):.0f}%)")
    add("VF count (all cores)", lambda s: str(s["vf_count"]))
    add("VF count (slowest core)", lambda s: str(s["vf_count_slowest_core"]))
    add("VF cycles (slowest core)", lambda s: str(s["vf_cycles_slowest_core"]))
    kinds = list(dict.fromkeys(k for s in summaries.values() for k in s["vf_kinds"]))
    top = sorted(kinds, key=lambda k: -max(s["vf_kinds"].get(k, {}).get("cycles", 0) for s in summaries.values()))
    for k in top[:8]:
        add(f"IPC {k}", lambda s, k=k: (f"{s['ipc'][k]:.2f} x{s['vf_kinds'][k]['count']}, "
                                        f"{s['vf_kinds'][k]['avg_cycles']:.0f} cyc" if k in s["ipc"] else "-"))
    for label, key in (("speed-up", "kernel_cycles"), ("speed-up (task time)", "task_cycles")):
        if len(names) >= 2:
            a = summaries[names[0]][key]
            rows.append([label, "", *[f"{a / s[key]:.2f}x" if a and s[key] else "n/a"
                                      for s in (summaries[n] for n in names[1:])]])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines += [f"bottleneck {n}: {_na(s) if s.get('aborted') else s['bottleneck']}{_vf_kinds_line(s)}"
              for n, s in summaries.items()]
    return "\n".join(lines)


def _vf_kinds_line(s: dict, top: int = 3) -> str:
    """The VF kinds with the most cycles: IPC and what bounds each (the VF scheduler's bottleneck)."""
    kinds = sorted(s.get("vf_kinds") or {}, key=lambda k: -s["vf_kinds"][k]["cycles"])[:top]
    if s.get("aborted") or not kinds:
        return ""
    return "; VFs: " + " | ".join(f"{k} IPC {s['ipc'][k]:.2f}, {s['vf_kinds'][k]['bottleneck']}" for k in kinds)
