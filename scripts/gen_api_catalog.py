#!/usr/bin/env python3
"""Regenerate the API catalog from the vendor's API reference (review the diff; commit the data).

    python scripts/gen_api_catalog.py [--reference DIR] [--out PATH] [--check]

Reads every page of the reference (Chinese Markdown, one page per API: 基础API, C-API, 高阶API), and
writes ``toolkit/ascendc/catalog/api_catalog.json``: per API name and family its kind, header, doc pages,
whether Ascend 950 supports it, the documented prototypes and dtypes, the host-side helpers of the
high-level APIs tied to their API, and whether it is in the emulator's scope (or why not). Prints a
summary (pages read, supported, in scope, per family). ``--check`` writes nothing and exits 1 when the
committed catalog differs from what the reference gives. The toolkit and the tests read only the
committed data, never the reference.
"""
from __future__ import annotations

import os
import pathlib
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.ascendc.catalog import build, pages, store
from toolkit.cli import ArgParser, guarded
from toolkit.console.outputs import BadUsage

#: where the reference usually is: next to the repository, or next to the worktree folder
#: the index pages whose tables list every API (some without a page in the copy)
INDEXES = ("基础API/基础API列表.md", "高阶API/高阶API列表.md", "C-API/C-API.md")
DEFAULT_REFERENCES = (ROOT.parent / "shared/reference/ascendc-api", ROOT.parents[1] / "shared/reference/ascendc-api")


def read_reference(ref: pathlib.Path) -> list[pages.Page]:
    out = []
    for path in sorted(ref.rglob("*.md")):
        rel = path.relative_to(ref).as_posix()
        out.append(pages.read_page(rel, path.read_text(encoding="utf-8")))
    return out


def read_indexes(ref: pathlib.Path) -> list[tuple[str, str]]:
    """(title, path relative to the reference root) of every row of the index tables."""
    out = []
    for index in INDEXES:
        path = ref / index
        if path.is_file():
            for title, link in pages.index_links(path.read_text(encoding="utf-8")):
                target = os.path.normpath(os.path.join(os.path.dirname(index), link)).replace(os.sep, "/")
                out.append((title, target))
    return out


def summary(read: list[pages.Page], entries: list[dict]) -> str:
    api = [p for p in read if p.is_api]
    sup = Counter(p.support for p in api)
    lines = [(f"pages read {len(read)}, API pages {len(api)}: supported on 950 {sup[pages.YES]}, "
              f"not supported {sup[pages.NO]}, not stated {sup[pages.NOT_STATED]}"),
             f"entries {len(entries)}, in scope {sum(e['in_scope'] for e in entries)}",
             f"{'family':<28} {'entries':>7} {'in scope':>8} {'out':>5}  out-of-scope reasons"]
    for fam in sorted({e["family"] for e in entries}):
        es = [e for e in entries if e["family"] == fam]
        why = Counter(e["out_of_scope"] for e in es if not e["in_scope"])
        inn = sum(e["in_scope"] for e in es)
        lines.append(f"{fam:<28} {len(es):>7} {inn:>8} {len(es) - inn:>5}  "
                     + ", ".join(f"{r}: {n}" for r, n in sorted(why.items())))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = ArgParser(prog="gen_api_catalog.py", description=__doc__.split("\n")[1])
    ap.add_argument("--reference", type=pathlib.Path, default=None, help="the ascendc-api reference folder")
    ap.add_argument("--out", type=pathlib.Path, default=store.CATALOG_PATH, help="the catalog file to write")
    ap.add_argument("--check", action="store_true", help="compare with the committed catalog, write nothing")
    args = ap.parse_args(argv)
    ref = args.reference or next((p for p in DEFAULT_REFERENCES if p.is_dir()), None)
    if ref is None or not ref.is_dir():
        raise BadUsage(f"no reference folder at {ref or DEFAULT_REFERENCES[0]} (use --reference DIR)")
    read = read_reference(ref)
    entries = build.entries_from(read, read_indexes(ref))
    text = store.dumps(entries, pages_read=len(read))
    print(summary(read, entries))
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print("catalog up to date" if same else f"catalog differs from {args.out}: regenerate it")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.encode()) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(guarded("gen_api_catalog.py", main))
