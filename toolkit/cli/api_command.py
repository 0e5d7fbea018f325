"""``migrate-check api``: the vendor's Ascend C API (the committed catalog) against what the toolkit
implements, per family: in scope, implemented (with the forms covering each API), missing, out of scope."""
from __future__ import annotations

import unicodedata
from collections import Counter

import click

from toolkit.console.outputs import BadUsage, OutputPlan

from . import EXIT_OK, cli, dump_json


def form_pages() -> dict[str, dict[str, str]]:
    """Per implemented API name, each form (as :func:`implemented` spells it) -> the reference page it
    implements (the form's own page, else the API's)."""
    from toolkit.ascendc import api
    return {name: {f"{f['runs']}: {f['signature']}": f["doc"] for f in info["forms"] if f["doc"]}
            for name, info in api.implemented().items()}


def implemented() -> dict[str, list[str]]:
    """What the toolkit implements: its API definition table (toolkit.ascendc.api), one entry per declared
    name with its forms as ``<how it runs>: <C++ signature>``; the declared types, param structs and enums
    (generated from the Python enums) count as implemented names with one form (:func:`form_pages` says
    which page each form implements: the high-level ``Exp`` forms of the basic ``AscendC::Exp``)."""
    from toolkit.ascendc import api
    out = {name: [f"{f['runs']}: {f['signature']}" for f in info["forms"]] for name, info in api.implemented().items()}
    from toolkit.asc.enums import ENUMS
    for name in (*api.STRUCT_NAMES, *api.NAMES, *(f"{ns}::{n}" for _, ns, n, _, _ in ENUMS)):
        out.setdefault(name, ["type"])
    return out


def add_notes(report: dict) -> None:
    """Each implemented API's ``note`` (its definition's: e.g. ``algorithm: assumed (...)``; '' if none)."""
    from toolkit.ascendc import api
    from toolkit.ascendc.catalog import names
    notes: dict[str, str] = {}
    for name, info in api.implemented().items():
        if info["note"]:
            notes.setdefault(names.key(name), info["note"])
    for f in report["families"]:
        for a in f["implemented_apis"]:
            a["note"] = notes.get(names.key(a["name"]), "")


@cli.command("api")
@click.option("--json", "json_path", type=str, default=None, is_flag=False, flag_value="-",
              help="write the report as JSON to PATH (no PATH or '-' = stdout)")
@click.option("--missing", is_flag=True, help="list the in-scope names not implemented yet (instead of the forms)")
@click.option("--family", "family", type=str, default=None, help="only the families whose path contains TEXT")
def api_command(json_path, missing, family) -> int:
    """The Ascend C API catalog against the toolkit: per family in scope / implemented / missing / out of scope."""
    from toolkit.ascendc.catalog import (  # loaded when the command runs, not at CLI start
        coverage,
        store,
    )
    plan = OutputPlan({"json": json_path})
    catalog = store.load()
    entries = [e for e in catalog if family is None or family in e["family"]]
    if not entries:
        raise BadUsage(f"no catalog family matches {family!r}")
    report = coverage.coverage(entries, implemented(), catalog, form_pages())
    add_notes(report)
    report["catalog"] = {**store.meta(), "entries": len(entries)}
    if "json" in plan:
        plan.commit({"json": dump_json(report)})
    if not plan.stdout_taken:
        click.echo(render(report, missing))
    return EXIT_OK


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, n: int) -> str:
    return s + " " * max(0, n - _width(s))


def render(report: dict, missing: bool) -> str:
    """The text report: the per-family table, then per family the implemented APIs with their forms
    (or, with ``missing``, the names still missing)."""
    meta = report["catalog"]
    pct = 100.0 * report["implemented"] / report["in_scope"] if report["in_scope"] else 0.0
    lines = [(f"Ascend C API catalog: {meta['entries']} names from {meta['pages_read']} reference pages; "
              f"in scope {report['in_scope']}, implemented {report['implemented']} ({pct:.1f} %), "
              f"missing {report['missing']}, out of scope {report['out_of_scope']}"),
             f"{_pad('family', 28)} {'in scope':>8} {'implemented':>11} {'missing':>7} {'out of scope':>12}"]
    for f in report["families"]:
        lines.append(f"{_pad(f['family'], 28)} {f['in_scope']:>8} {f['implemented']:>11} {len(f['missing']):>7} "
                     f"{f['out_of_scope']:>12}")
    for f in report["families"]:
        if missing and f["missing"]:
            lines.append(f"\n{f['family']}: missing {len(f['missing'])}")
            lines += _wrap(f["missing"])
        elif not missing and f["implemented_apis"]:
            lines.append(f"\n{f['family']}: implemented {f['implemented']} (forms by how they run)")
            lines += [f"  {a['name']}: {_form_counts(a)}" + (f" -- {a['note']}" if a.get("note") else "")
                      for a in f["implemented_apis"]]
    if report["not_catalogued"]:
        lines.append(f"\nthe toolkit also declares {len(report['not_catalogued'])} names the catalog does not know: "
                     + ", ".join(report["not_catalogued"]))
    return "\n".join(lines)


def _form_counts(api: dict) -> str:
    """``3 forms (emulated 2, hand 1; documented 4)``: the forms by how they run (emulated, via another
    API, native C++, hand-written, a type)."""
    kinds = Counter(f.split(":", 1)[0].split(" ", 1)[0] for f in api["forms"])
    n = len(api["forms"])
    detail = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    return f"{n} form{'s' * (n != 1)} ({detail}; documented {api['documented_forms']})"


def _wrap(items: list[str], width: int = 110) -> list[str]:
    lines, cur = [], "  "
    for it in items:
        if len(cur) + len(it) + 2 > width and cur.strip():
            lines.append(cur.rstrip(", "))
            cur = "  "
        cur += it + ", "
    if cur.strip():
        lines.append(cur.rstrip(", "))
    return lines
