#!/usr/bin/env python3
"""Regenerate ``toolkit/machine/fact_sections.json``: the section headings of every sheet in ``docs/``.

    python scripts/fact_index.py

``migrate-check machine`` reads the file to name the sections a machine parameter cites, so the
installed package does not need the docs themselves; ``tests/test_citations.py`` fails when the file
no longer matches the sheets (run this script after editing a sheet and commit both).
"""
from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from toolkit.machine.citations import INDEX_FILE, SHEETS, sections  # noqa: E402


def build() -> dict[str, dict[str, str]]:
    """Citation name -> section id -> heading, read from the sheets in docs/."""
    return {name: sections((ROOT / "docs" / path).read_text(encoding="utf-8")) for name, path in SHEETS.items()}


def main() -> int:
    out = ROOT / "toolkit" / "machine" / INDEX_FILE
    out.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
