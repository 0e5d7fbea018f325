"""The HTML report (``--html FILE``): one self-contained, offline page; pictures are inline SVG drawn by
matplotlib (:mod:`toolkit.views.charts`), no script, no external resource (a Content-Security-Policy
forbids fetching anything), so it opens the same from a mail attachment or an air-gapped machine.

A page is a list of :class:`Section` objects; the builders here make the sections every report shares
from the data the commands already have (JSON of the run, :mod:`toolkit.views.timeline`):

* ``verdict``: each gate PASS/FAIL, per output the errors and the max diff, and the advisor lines;
* ``ub-map``: the UB plan of each side as stacked bars against the budget, side by side;
* ``timeline``: the slowest core's pipes of each side on one time axis, critical path in red;
* ``vf-table``: per VF kind its count, cycles, IPC, highest bound and bottleneck;
* ``diagnostics``: every diagnostic with its code, severity and file:line.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Iterable

from . import charts

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.2em 2em;color:#222;max-width:1400px}
h1{font-size:1.5em;margin-bottom:.2em} h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0 1em} td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#f3f3f3} td.l,th.l{text-align:left}
.pass{color:#fff;background:#2e7d32;padding:1px 8px;border-radius:3px;font-weight:bold}
.fail{color:#fff;background:#c62828;padding:1px 8px;border-radius:3px;font-weight:bold}
.advisor{background:#fff8e1;border-left:4px solid #f9a825;padding:.4em .8em;margin:.6em 0}
.chart svg{max-width:100%;height:auto} .note{color:#666;font-size:.9em}
"""


@dataclass
class Section:
    id: str
    title: str
    body: str


def esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def badge(passed: bool) -> str:
    return '<span class="pass">PASS</span>' if passed else '<span class="fail">FAIL</span>'


def table(headers: list[str], rows: Iterable[list[Any]], left: int = 1, raw_cols: tuple[int, ...] = ()) -> str:
    """An HTML table; the first ``left`` columns are left-aligned; ``raw_cols`` hold HTML already."""
    cls = lambda k: ' class="l"' if k < left else ""  # noqa: E731
    head = "".join(f"<th{cls(k)}>{esc(h)}</th>" for k, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{cls(k)}>{c if k in raw_cols else esc(c)}</td>" for k, c in enumerate(r))
                   + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def chart(svg: str, caption: str = "") -> str:
    cap = f'<p class="note">{esc(caption)}</p>' if caption else ""
    return f'<div class="chart">{svg}</div>{cap}'


def page(title: str, subtitle: str, sections: list[Section]) -> str:
    nav = " | ".join(f'<a href="#{s.id}">{esc(s.title)}</a>' for s in sections)
    body = "\n".join(f'<section id="{s.id}"><h2>{esc(s.title)}</h2>\n{s.body}\n</section>' for s in sections)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{STYLE}</style></head>\n<body>"
            f"<h1>{esc(title)}</h1><p class=\"note\">{esc(subtitle)}</p><nav>{nav}</nav>\n{body}\n</body></html>\n")


# -- shared sections -------------------------------------------------------------------------------------
def verdict_section(gates: list[tuple[str, bool, str]], outputs: list[list[Any]], advisor: list[str],
                    output_headers: tuple[str, ...] = ("side", "output", "errors", "max diff"),
                    notes: list[str] = ()) -> Section:
    """``gates``: (name, passed, detail); ``outputs``: rows under ``output_headers``; ``advisor``: the
    advisor's lines; ``notes``: more lines (e.g. the speed-up)."""
    overall = all(p for _, p, _ in gates)
    parts = [f"<p>Overall: {badge(overall)}</p>",
             table(["gate", "verdict", "detail"], ([n, badge(p), d] for n, p, d in gates), raw_cols=(1,))]
    if outputs:
        parts.append(table(list(output_headers), outputs, left=2))
    parts += [f"<p>{esc(line)}</p>" for line in notes]
    parts += [f'<p class="advisor">Advisor: {esc(line)}</p>' for line in advisor]
    return Section("verdict", "Verdict", "\n".join(parts))


def ub_section(plans: dict[str, dict], largest: dict[str, tuple[int, int]] | None = None,
               title: str = "UB map", sid: str = "ub-map") -> Section:
    rows = [[side, p["total_bytes"], f"{p['percent_used']:.1f}%", p["budget_bytes"],
             "-" if p.get("max_ub_factor") is None else p["max_ub_factor"], "yes" if p["fits"] else "NO"]
            for side, p in plans.items()]
    svg = charts.to_svg(charts.ub_map(plans, largest))
    caption = "Buffers of each InitBuffer plan stacked against the UB budget" + (
        "; the dashed outline is the plan at the largest ubFactor that fits." if largest else ".")
    return Section(sid, title, chart(svg, caption)
                   + table(["side", "UB bytes", "used", "budget", "largest ubFactor", "fits"], rows))


def timeline_section(timelines: dict[str, dict | None], title: str = "Pipe timeline (slowest core)",
                     sid: str = "timeline") -> Section:
    shown = {k: v for k, v in timelines.items() if v}
    if not shown:
        return Section(sid, title, '<p class="note">no timeline: the launch did not run to the end</p>')
    svg = charts.to_svg(charts.timeline(shown))
    note = "; ".join(f"{k}: critical path {_path_shares(v)}" for k, v in shown.items())
    return Section(sid, title, chart(svg, "MTE2 / VECTOR / MTE3 / SCALAR lanes on one time axis, VFs coloured "
                                          "and named; slices on the critical path outlined in red, and the "
                                          "'critical path' lane shows which pipe holds it when. " + note))


def _path_shares(tl: dict) -> str:
    held: dict[str, int] = {}
    for pipe, s, e in tl.get("path", []):
        held[pipe] = held.get(pipe, 0) + e - s
    return ", ".join(f"{p} {100.0 * c / max(tl['end'], 1):.0f}%" for p, c in sorted(held.items(), key=lambda kv: -kv[1]))


def highest_bound(bounds: dict[str, float]) -> str:
    if not bounds:
        return "-"
    name, value = max(bounds.items(), key=lambda kv: kv[1])
    return f"{name} {value:g}"


def vf_rows(side: str, cycles: dict) -> list[list[Any]]:
    kinds = cycles.get("vf_kinds") or {}
    order = sorted(kinds, key=lambda k: -kinds[k]["cycles"])
    return [[side, k, kinds[k]["count"], kinds[k]["cycles"], f"{cycles['ipc'].get(k, 0):.2f}",
             highest_bound(kinds[k].get("bounds", {})), kinds[k]["bottleneck"]] for k in order]


def vf_section(cycles_by_side: dict[str, dict], sid: str = "vf-table", title: str = "VF table") -> Section:
    rows = [r for side, c in cycles_by_side.items() for r in vf_rows(side, c)]
    summary = [[side, c.get("kernel_cycles") if c.get("kernel_cycles") is not None else c.get("reason", "n/a"),
                c.get("vf_count"), c.get("bottleneck") or "-"] for side, c in cycles_by_side.items()]
    return Section(sid, title,
                   table(["side", "kernel cycles", "VF count", "bottleneck"], summary, left=1)
                   + table(["side", "VF kind", "count", "cycles", "IPC", "highest bound", "bottleneck"], rows,
                           left=2))


def diagnostics_section(diags_by_side: dict[str, list[dict]]) -> Section:
    rows = [[side, d.get("severity"), d.get("code"), d.get("location"), _cores(d), d.get("message")]
            for side, diags in diags_by_side.items() for d in diags]
    body = (table(["side", "severity", "code", "file:line", "cores", "message"], rows, left=6) if rows
            else '<p class="note">no diagnostics</p>')
    return Section("diagnostics", "Diagnostics", body)


def _cores(d: dict) -> str:
    cores = d.get("cores") or []
    if len(cores) > 1:
        return f"{len(cores)} cores"
    return "-" if d.get("core") is None else f"core {d['core']}"


def max_diff_text(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, (int, float)) else esc(value)
