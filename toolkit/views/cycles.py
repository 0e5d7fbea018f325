"""Cycle summary of a launch (kernel cycles, pipe busy time, VF counts and IPC, bottleneck) and a
side-by-side text table of two or more launches (e.g. MemBase vs RegBase)."""
from __future__ import annotations

from ..events import PIPE_MTE2, PIPE_MTE3, PIPE_S, PIPE_V
from ..timing.model import KernelTiming

PIPE_NAMES = {PIPE_MTE2: "MTE2", PIPE_MTE3: "MTE3", PIPE_V: "VECTOR", PIPE_S: "SCALAR"}


def pipe_bounds(core) -> dict[str, int]:
    """Per pipe: busy time plus the fill before its first and the drain after its last operation (a
    pipe that never idles in between bounds the core exactly)."""
    out = {}
    for pipe, busy in core.busy.items():
        spans = [(s.start, s.end) for s in core.slices if s.pipe == pipe]
        if not spans:
            out[PIPE_NAMES[pipe]] = 0
            continue
        first = min(a for a, _ in spans)
        last = max(b for _, b in spans)
        out[PIPE_NAMES[pipe]] = busy + first + max(core.end - last, 0)
    return out


def bottleneck(kt: KernelTiming, tol: float = 0.02) -> str:
    """The pipe whose bound (busy + fill + drain) on the slowest core is within ``tol`` of that core's
    cycles; inside VECTOR, the dominant VF bound. Otherwise: 'pipe dependencies'."""
    core = kt.slowest
    bounds = pipe_bounds(core)
    name, bound = max(bounds.items(), key=lambda kv: kv[1])
    pipe = next(p for p, n in PIPE_NAMES.items() if n == name)
    busy = core.busy[pipe]
    if core.end and bound >= (1 - tol) * core.end:
        name = PIPE_NAMES[pipe]
        if pipe == PIPE_V and core.vfs:
            weight: dict[str, float] = {}
            for _, t, _ in core.vfs:
                b = t.bottleneck()
                weight[b] = weight.get(b, 0) + t.cycles
            inner = max(weight.items(), key=lambda kv: kv[1])[0]
            return f"{name} ({inner})"
        return name
    return f"pipe dependencies (busiest pipe {PIPE_NAMES[pipe]} {100.0 * busy / core.end:.0f}% of the core)"


def cycle_summary(kt: KernelTiming) -> dict:
    core = kt.slowest
    kinds: dict[str, list[float]] = {}
    vf_count = vf_cycles = 0
    for c in kt.cores:
        vf_count += c.counters["vf_count"]
        vf_cycles += c.counters["pushq_vf_cycles"]
        for ev, t, _ in c.vfs:
            acc = kinds.setdefault(ev.name, [0, 0, 0, 0])
            acc[0] += 1
            acc[1] += t.n_ex
            acc[2] += t.steady
            acc[3] += t.cycles
    return {
        "kernel_cycles": kt.kernel_cycles,
        "slowest_core": core.core,
        "vf_count": vf_count,
        "vf_cycles": vf_cycles,
        "vf_count_slowest_core": core.counters["vf_count"],
        "vf_cycles_slowest_core": core.counters["pushq_vf_cycles"],
        "pipes": {PIPE_NAMES[p]: core.busy[p] for p in (PIPE_MTE2, PIPE_MTE3, PIPE_V, PIPE_S)},
        "ipc": {name: round(a[1] / a[2], 3) if a[2] else 0.0 for name, a in kinds.items()},
        "vf_kinds": {name: {"count": a[0], "cycles": a[3], "avg_cycles": round(a[3] / a[0], 1)}
                     for name, a in kinds.items()},
        "pipe_bounds": pipe_bounds(core),
        "mte2_bytes": core.counters["mte2_bytes"],
        "mte3_bytes": core.counters["mte3_bytes"],
        "bottleneck": bottleneck(kt),
    }


def compare_cycles_table(summaries: dict[str, dict]) -> str:
    names = list(summaries)
    rows: list[list[str]] = [["", *names]]

    def add(label: str, fn) -> None:
        rows.append([label, *[fn(summaries[n]) for n in names]])

    add("kernel cycles (slowest core)", lambda s: str(s["kernel_cycles"]))
    for pipe in ("MTE2", "VECTOR", "MTE3", "SCALAR"):
        add(f"  {pipe} busy", lambda s, p=pipe: f"{s['pipes'][p]} ({100.0 * s['pipes'][p] / max(s['kernel_cycles'], 1):.0f}%)")
    add("VF count (all cores)", lambda s: str(s["vf_count"]))
    add("VF count (slowest core)", lambda s: str(s["vf_count_slowest_core"]))
    add("VF cycles (slowest core)", lambda s: str(s["vf_cycles_slowest_core"]))
    add("bottleneck", lambda s: s["bottleneck"])
    kinds = list(dict.fromkeys(k for s in summaries.values() for k in s["vf_kinds"]))
    top = sorted(kinds, key=lambda k: -max(s["vf_kinds"].get(k, {}).get("cycles", 0) for s in summaries.values()))
    for k in top[:8]:
        add(f"IPC {k}", lambda s, k=k: (f"{s['ipc'][k]:.2f} x{s['vf_kinds'][k]['count']}, "
                                        f"{s['vf_kinds'][k]['avg_cycles']:.0f} cyc" if k in s["ipc"] else "-"))
    if len(names) == 2:
        a, b = (summaries[n]["kernel_cycles"] for n in names)
        rows.append(["speed-up", "", f"{a / b:.2f}x" if b else "-"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
                     for r in rows)
