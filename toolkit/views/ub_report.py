"""UB budget view: the InitBuffer plan of a run (from its BufferInit events), the total against the
budget, and a side-by-side comparison of two plans (MemBase vs RegBase)."""
from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.record.events import BufferInit


@dataclass
class UbReport:
    buffers: list[dict]
    total_bytes: int
    budget_bytes: int
    max_ub_factor: int | None = None
    extra: dict = field(default_factory=dict)

    @property
    def percent(self) -> float:
        return 100.0 * self.total_bytes / self.budget_bytes if self.budget_bytes else 0.0

    @property
    def fits(self) -> bool:
        return self.total_bytes <= self.budget_bytes

    def to_json(self) -> dict:
        return {"budget_bytes": self.budget_bytes, "total_bytes": self.total_bytes,
                "percent_used": round(self.percent, 2), "fits": self.fits, "max_ub_factor": self.max_ub_factor,
                "buffers": self.buffers}


def ub_report(events: list, budget_bytes: int, max_ub_factor: int | None = None) -> UbReport:
    rows = [{"name": e.name, "position": e.position, "num": e.num, "bytes_each": e.bytes_each,
             "bytes": e.num * e.bytes_each} for e in events if isinstance(e, BufferInit)]
    return UbReport(rows, sum(r["bytes"] for r in rows), budget_bytes, max_ub_factor)


def gate_lines(diagnostics, ub: UbReport, passed: bool) -> list[str]:
    """The lines that close one run of a text report: each diagnostic, the plan when it is over the
    budget, the verdict and a blank line."""
    lines = [d.one_line() for d in diagnostics]
    if not ub.fits:
        lines.append(f"UB plan {ub.total_bytes} B exceeds the budget {ub.budget_bytes} B")
    return lines + ["PASS" if passed else "FAIL", ""]


def _cell(row: dict | None) -> str:
    return "-" if row is None else f"{row['num']} x {row['bytes_each']} = {row['bytes']}"


def compare_table(reports: dict[str, UbReport], factor_name: str = "ubFactor") -> str:
    """Text table: one row per buffer, one column per plan, plus the difference of the last two."""
    names = list(reports)
    order: list[str] = []
    for rep in reports.values():
        for r in rep.buffers:
            if r["name"] not in order:
                order.append(r["name"])
    lookup = {n: {r["name"]: r for r in rep.buffers} for n, rep in reports.items()}
    header = ["buffer", "position"] + names + (["diff"] if len(names) == 2 else [])
    rows = []
    for b in order:
        cells = [lookup[n].get(b) for n in names]
        pos = next(c["position"] for c in cells if c is not None)
        row = [b, pos] + [_cell(c) for c in cells]
        if len(names) == 2:
            a, c = (x["bytes"] if x else 0 for x in cells)
            row.append(f"{c - a:+d}")
        rows.append(row)

    # summary rows: (label, value of a plan, its cell, the cell of a difference); the difference of two
    # plans is taken on the values as shown (percentages rounded to 0.1) and left blank when one is missing
    summaries = [
        ("total", lambda r: r.total_bytes, str, "{:+d}"),
        ("budget", lambda r: r.budget_bytes, str, "{:+d}"),
        ("percent used", lambda r: round(r.percent, 1), "{:.1f}%".format, "{:+.1f} pt"),
        (f"max {factor_name}", lambda r: r.max_ub_factor, lambda v: "-" if v is None else str(v), "{:+d}"),
    ]
    for label, value, cell, diff in summaries:
        vals = [value(reports[n]) for n in names]
        row = [label, ""] + [cell(v) for v in vals]
        if len(names) == 2:
            row.append("" if None in vals else diff.format(vals[1] - vals[0]))
        rows.append(row)
    if len(names) == 2:
        a, c = (reports[n].total_bytes for n in names)
        if a:
            rows.append(["saving", "", "", "", f"{100.0 * (a - c) / a:.1f}%"])
    widths = [max(len(str(r[k])) for r in [header] + rows) for k in range(len(header))]
    fmt = lambda r: "  ".join(str(v).ljust(widths[k]) if k < 2 else str(v).rjust(widths[k])  # noqa: E731
                              for k, v in enumerate(r))
    return "\n".join([fmt(header)] + [fmt(r) for r in rows])
