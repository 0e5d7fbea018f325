"""What a sweep reports: the Pareto front of each series (fewest cycles for the UB bytes), a text table,
CSV, the JSON document, the picture (cycles vs UB bytes) and the HTML page."""
from __future__ import annotations

import csv
import io
from typing import Any

from .rows import OK

CSV_FIELDS = ("status", "passed", "ub_bytes", "ub_budget", "kernel_cycles", "task_cycles", "bound", "bound_share",
              "pareto", "reason")


def mark_pareto(rows: list[dict]) -> None:
    """``pareto`` = True on the rows of each series that no other ok row of the series beats on both UB
    bytes and kernel cycles (fewer or equal on both, fewer on one)."""
    for row in rows:
        row["pareto"] = False
    ok = [r for r in rows if r["status"] == OK and r.get("kernel_cycles") is not None and r.get("ub_bytes") is not None]
    for r in ok:
        r["pareto"] = not any(o["series"] == r["series"] and o["ub_bytes"] <= r["ub_bytes"]
                              and o["kernel_cycles"] <= r["kernel_cycles"]
                              and (o["ub_bytes"], o["kernel_cycles"]) != (r["ub_bytes"], r["kernel_cycles"])
                              for o in ok)


def sweep_doc(target: str, axes: dict[str, list], series: list[str], rows: list[dict], *, runs: int,
              executor: str) -> dict[str, Any]:
    mark_pareto(rows)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    best = {}
    for s in series:
        ok = [k for k, r in enumerate(rows) if r["series"] == s and r["status"] == OK and r.get("kernel_cycles")]
        if ok:
            best[s] = min(ok, key=lambda k: (rows[k]["kernel_cycles"], rows[k]["ub_bytes"] or 0))
    budget = next((r["ub_budget"] for r in rows if r.get("ub_budget")), None)
    return {"target": target, "axes": axes, "series": series, "points": len(rows), "runs": runs,
            "executor": executor, "counts": counts, "ub_budget": budget, "best": best, "rows": rows}


def varying(doc: dict) -> list[str]:
    """The axes with more than one value (the columns worth showing)."""
    return [a for a, v in doc["axes"].items() if len(v) > 1] or list(doc["axes"])[:1]


def _cells(doc: dict, row: dict) -> list[Any]:
    cyc = row.get("kernel_cycles")
    bound = f"{row['bound']} {row['bound_share']:.0f}%" if row.get("bound") else "-"
    note = row.get("reason") or ""
    if row.get("same_run_as"):
        note = (note + "; " if note else "") + "same run as " + ", ".join(
            f"{k}={v}" for k, v in row["same_run_as"].items() if row["params"].get(k) != v)
    return [row["series"], *[row["params"].get(a, "") for a in varying(doc)], row["status"],
            "-" if row.get("ub_bytes") is None else row["ub_bytes"], "-" if cyc is None else cyc, bound,
            "*" if row.get("pareto") else "", note]


def headers(doc: dict) -> list[str]:
    return ["series", *varying(doc), "status", "UB bytes", "cycles", "bound", "front", "reason / note"]


def text_table(doc: dict) -> str:
    rows = [headers(doc)] + [[str(c) for c in _cells(doc, r)] for r in doc["rows"]]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    lines = ["  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))) + "  " + r[-1]
             for r in rows]
    return "\n".join(line.rstrip() for line in lines) + "\n" + summary_line(doc)


def summary_line(doc: dict) -> str:
    counts = ", ".join(f"{n} {s}" for s, n in doc["counts"].items())
    best = "; ".join(f"best {s}: " + ", ".join(f"{a}={doc['rows'][k]['params'].get(a)}" for a in varying(doc))
                     + f" {doc['rows'][k]['kernel_cycles']} cycles, {doc['rows'][k]['ub_bytes']} B"
                     for s, k in doc["best"].items())
    return (f"{doc['points']} points ({doc['runs']} runs, {doc['executor']}): {counts}"
            + (f"; {best}" if best else "") + "; * = Pareto front (cycles vs UB bytes)")


def csv_text(doc: dict) -> str:
    buf = io.StringIO()
    params = list(doc["axes"])
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["series", *params, *CSV_FIELDS, "same_run_as"])
    for r in doc["rows"]:
        same = ";".join(f"{k}={v}" for k, v in (r.get("same_run_as") or {}).items())
        w.writerow([r["series"], *[r["params"].get(p, "") for p in params],
                    *["" if r.get(f) is None else r.get(f) for f in CSV_FIELDS], same])
    return buf.getvalue()


def figure(doc: dict):
    from toolkit.views import charts  # matplotlib: only for a picture (--plot, --html)
    return charts.sweep_scatter(doc["rows"], doc.get("ub_budget"))


def plot(doc: dict, fmt: str) -> str | bytes:
    from toolkit.views import charts
    return charts.to_png(figure(doc)) if fmt == "png" else charts.to_svg(figure(doc))


def html_page(doc: dict, title: str) -> str:
    from toolkit.views import charts
    from toolkit.views.html_report import Section, chart, esc, page, table
    sections = [
        Section("summary", "Summary", f"<p>{esc(summary_line(doc))}</p>"),
        Section("sweep-plot", "Cycles against UB bytes",
                chart(charts.to_svg(figure(doc)), "Each point that ran; ringed and joined: the Pareto front of its "
                                                  "series; triangles on the top edge: refused (UB plan over budget); "
                                                  "red crosses: failed.")),
        Section("sweep-table", "Every point", table(headers(doc), (_cells(doc, r) for r in doc["rows"]),
                                                    left=len(varying(doc)) + 2)),
    ]
    return page(title, f"{doc['points']} points, {doc['runs']} runs on {doc['executor']}", sections)
