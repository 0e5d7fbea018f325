"""The pictures of the HTML report and of ``migrate-check sweep``, drawn with matplotlib (Agg, no display),
returned as inline SVG text (text kept as text, so a page's labels are searchable) or PNG bytes.

Inputs are plain data (the JSON the commands already produce, and :mod:`toolkit.views.timeline`):
views only read data. Output is deterministic for the same input (fixed ids, no date stamp).
"""
from __future__ import annotations

import io
import itertools
from typing import Iterable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

LANES = ("MTE2", "VECTOR", "MTE3", "SCALAR")
PIPE_COLOURS = {"MTE2": "#4c72b0", "MTE3": "#55a868", "SCALAR": "#8c8c8c", "VECTOR": "#dd8452"}
CRITICAL = "#d62728"
_counter = itertools.count()


def _palette(names: Iterable[str], cmap_name: str = "tab20") -> dict[str, str]:
    cmap = plt.get_cmap(cmap_name)
    return {n: matplotlib.colors.to_hex(cmap(k % cmap.N)) for k, n in enumerate(dict.fromkeys(names))}


def to_svg(fig) -> str:
    """The figure as an ``<svg>`` element (no XML prolog) with ids unique to this figure."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": f"fig{next(_counter)}"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def to_png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


# -- UB map --------------------------------------------------------------------------------------------
def ub_map(plans: dict[str, dict], largest: dict[str, tuple[int, int]] | None = None,
           factor_name: str = "ubFactor"):
    """Stacked bars: one per plan (side by side), one segment per buffer, against the UB budget line.
    ``plans``: side -> UB JSON (``buffers``, ``total_bytes``, ``budget_bytes``, ``max_ub_factor``);
    ``largest``: side -> (the largest factor that fits, the plan's total at that factor), drawn as a
    dashed outline."""
    largest = largest or {}
    names = list(plans)
    colours = _palette(b["name"] for p in plans.values() for b in p["buffers"])
    budget = max(p["budget_bytes"] for p in plans.values())
    fig, ax = plt.subplots(figsize=(2.2 + 2.0 * len(names), 4.6))
    for x, side in enumerate(names):
        _ub_bar(ax, x, plans[side], colours)
        if side in largest:
            factor, total = largest[side]
            ax.add_patch(Rectangle((x - 0.36, 0), 0.72, total / 1024, fill=False, ls="--", lw=1.2, ec="#333"))
            ax.annotate(f"largest {factor_name} {factor}\n{total / 1024:.0f} KB", (x, total / 1024),
                        xytext=(0, 3), textcoords="offset points", ha="center", va="bottom", fontsize=8)
    budget_line = ax.axhline(budget / 1024, color=CRITICAL, lw=1.5, label=f"UB budget {budget / 1024:.0f} KB")
    top = max([budget] + [p["total_bytes"] for p in plans.values()] + [t for _, t in largest.values()])
    ax.set_ylim(0, top / 1024 * 1.15)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_xticks(range(len(names)), [f"{n}\n{plans[n]['total_bytes'] / 1024:.1f} KB" for n in names])
    ax.set_ylabel("UB (KB)")
    ax.legend(handles=[budget_line] + [Patch(color=c, label=n) for n, c in colours.items()], fontsize=7,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), title="buffers", title_fontsize=8)
    return fig


def _ub_bar(ax, x: int, plan: dict, colours: dict[str, str]) -> None:
    bottom = 0.0
    over = plan["total_bytes"] > plan["budget_bytes"]
    for b in plan["buffers"]:
        h = b["bytes"] / 1024
        ax.bar(x, h, 0.6, bottom=bottom, color=colours[b["name"]], edgecolor=CRITICAL if over else "white", lw=0.6)
        if h >= 6:
            ax.text(x, bottom + h / 2, f"{b['name']} {b['num']}x{b['bytes_each']}", ha="center", va="center",
                    fontsize=6.5)
        bottom += h


# -- pipe timeline -------------------------------------------------------------------------------------
def timeline(sides: dict[str, dict | None], top_vfs: int = 12):
    """One panel per side (same time axis): the slowest core's MTE2 / VECTOR / MTE3 / SCALAR lanes, VF
    slices coloured and labelled by VF name, critical-path slices outlined in red and repeated on a
    'critical path' lane."""
    shown = {k: v for k, v in sides.items() if v}
    vf_cycles: dict[str, int] = {}
    for tl in shown.values():
        for pipe, name, s, e, _ in tl["slices"]:
            if pipe == "VECTOR":
                vf_cycles[name] = vf_cycles.get(name, 0) + e - s
    named = sorted(vf_cycles, key=lambda n: -vf_cycles[n])[:top_vfs]
    colours = _palette(named)
    end = max([tl["end"] for tl in shown.values()] + [1])
    fig, axes = plt.subplots(len(shown) or 1, 1, figsize=(11, 0.6 + 1.9 * max(len(shown), 1)), sharex=True,
                             squeeze=False)
    for ax, (side, tl) in zip(axes[:, 0], shown.items()):
        _timeline_panel(ax, side, tl, colours, end)
    axes[-1, 0].set_xlabel("cycles")
    handles = [Patch(color=colours[n], label=n) for n in named]
    handles += [Patch(color=PIPE_COLOURS["VECTOR"], label="other VFs")] if len(vf_cycles) > len(named) else []
    handles.append(Patch(facecolor="none", edgecolor=CRITICAL, lw=1.5, label="critical path"))
    axes[0, 0].legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="VFs",
                      title_fontsize=8)
    return fig


def _timeline_panel(ax, side: str, tl: dict, colours: dict[str, str], end: int) -> None:
    lanes = LANES + ("critical path",)
    rows = {lane: len(lanes) - 1 - k for k, lane in enumerate(lanes)}
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}
    crit: dict[str, list[tuple[int, int]]] = {}
    for pipe, name, s, e, on_path in tl["slices"]:
        colour = colours.get(name, PIPE_COLOURS["VECTOR"]) if pipe == "VECTOR" else PIPE_COLOURS.get(pipe, "#999")
        groups.setdefault((pipe, colour), []).append((s, max(e - s, 1)))
        if on_path:
            crit.setdefault(pipe, []).append((s, max(e - s, 1)))
        if pipe == "VECTOR" and e - s >= 0.06 * end:
            ax.text(s + (e - s) / 2, rows[pipe], name, ha="center", va="center", fontsize=6.5, clip_on=True)
    for (pipe, colour), spans in groups.items():
        ax.broken_barh(spans, (rows.get(pipe, 0) - 0.38, 0.76), facecolors=colour, lw=0)
    for pipe, spans in crit.items():              # the slices on the path: outlined in red in their lane
        ax.broken_barh(spans, (rows.get(pipe, 0) - 0.42, 0.84), facecolors="none", edgecolors=CRITICAL, lw=0.9)
    by_pipe: dict[str, list[tuple[int, int]]] = {}
    for pipe, s, e in tl.get("path", []):         # the path lane: who holds the path when, in pipe colours
        by_pipe.setdefault(pipe, []).append((s, max(e - s, 1)))
    for pipe, spans in by_pipe.items():
        ax.broken_barh(spans, (rows["critical path"] - 0.3, 0.6), facecolors=PIPE_COLOURS.get(pipe, "#999"),
                       edgecolors=CRITICAL, lw=0.6)
    ax.set_yticks(list(rows.values()), list(rows))
    ax.set_xlim(0, end * 1.01)
    ax.set_title(f"{side}: core {tl['core']}, {tl['end']} cycles", fontsize=9, loc="left")
    ax.grid(axis="x", lw=0.3)


# -- simd_vf_story: our cycles beside the vendor's -----------------------------------------------------
def cycles_vs_vendor(title: str, rows: list[tuple[str, float | None, float | None]]):
    """Grouped bars per variant: (variant, our cycles, the vendor's measured cycles or None)."""
    fig, ax = plt.subplots(figsize=(max(4.0, 0.75 * len(rows) + 2), 3.4))
    xs = range(len(rows))
    ax.bar([x - 0.2 for x in xs], [r[1] or 0 for r in rows], 0.4, label="ours (model)", color="#4c72b0")
    ax.bar([x + 0.2 for x in xs], [r[2] or 0 for r in rows], 0.4, label="vendor (measured)", color="#dd8452")
    ax.set_xticks(list(xs), [r[0] for r in rows], rotation=35, ha="right", fontsize=7)
    ax.set_ylabel("cycles")
    ax.set_title(title, fontsize=9, loc="left")
    ax.legend(fontsize=7)
    return fig


# -- sweep: cycles vs UB bytes -------------------------------------------------------------------------
def sweep_scatter(rows: list[dict], budget: int | None):
    """Per series: kernel cycles against UB bytes of every point that ran, the Pareto front joined and
    ringed, over-budget points as refused markers on the top edge, failed points as red crosses."""
    series = list(dict.fromkeys(r["series"] for r in rows))
    colours = _palette(series, "tab10")
    fig, ax = plt.subplots(figsize=(8.5, 4.8))
    ran = [r["kernel_cycles"] for r in rows if r.get("kernel_cycles") is not None]
    ceiling = max(ran) * 1.08 if ran else 1.0
    for s in series:
        mine = [r for r in rows if r["series"] == s]
        _sweep_series(ax, s, mine, colours[s], ceiling)
    if budget:
        ax.axvline(budget / 1024, color=CRITICAL, lw=1.2, ls=":")
        ax.text(budget / 1024, ceiling, " UB budget", color=CRITICAL, fontsize=8, va="top")
    ax.set_xlabel("UB bytes of the plan (KB)")
    ax.set_ylabel("kernel cycles (slowest core)")
    ax.set_ylim(0, ceiling * 1.06)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(lw=0.3)
    return fig


def _sweep_series(ax, name: str, rows: list[dict], colour: str, ceiling: float) -> None:
    ok = [r for r in rows if r["status"] == "ok"]
    ax.scatter([r["ub_bytes"] / 1024 for r in ok], [r["kernel_cycles"] for r in ok], s=14, color=colour,
               label=f"{name}")
    front = sorted((r for r in ok if r.get("pareto")), key=lambda r: r["ub_bytes"])
    if front:
        ax.plot([r["ub_bytes"] / 1024 for r in front], [r["kernel_cycles"] for r in front], color=colour, lw=1.2)
        ax.scatter([r["ub_bytes"] / 1024 for r in front], [r["kernel_cycles"] for r in front], s=70,
                   facecolors="none", edgecolors=colour, lw=1.4, label=f"{name} Pareto front")
    refused = [r for r in rows if r["status"] == "refused" and r.get("ub_bytes")]
    if refused:
        ax.scatter([r["ub_bytes"] / 1024 for r in refused], [ceiling] * len(refused), marker="v", s=22,
                   color=colour, alpha=0.45, label=f"{name} refused (over budget)")
    failed = [r for r in rows if r["status"] in ("fail", "crash")]
    if failed:
        ax.scatter([(r.get("ub_bytes") or 0) / 1024 for r in failed],
                   [r.get("kernel_cycles") or ceiling for r in failed], marker="x", s=30, color=CRITICAL,
                   label=f"{name} failed")
