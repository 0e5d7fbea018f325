"""Every citation of our fact sheets and specs (the machine file's sources, code, comments, docstrings,
tests) names a section that exists in the copy under docs/; a sheet is never named without a section,
and a bare "spec N" / "section N" (which spec?) is refused. Failures give the file:line of the citation."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from toolkit.machine.citations import SHEETS, bare_names, citations, index, sections

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MACHINE_FILE = ROOT / "toolkit" / "machine" / "ascend950.toml"
SCANNED = ("toolkit", "operators", "tests", "scripts")
SUFFIXES = {".py", ".toml", ".h", ".hpp", ".cpp", ".cc", ".asc", ".md", ".txt", ".cmake", ".sh"}
#: the files that spell out the grammar (sheet names as data, examples of wrong forms)
GRAMMAR = {ROOT / "toolkit" / "machine" / "citations.py", Path(__file__).resolve()}
#: "spec 2", "Spec section 2", "section 5:", "spec open question 1" outside a citation: which document?
AMBIGUOUS = re.compile(r"(?i)(?<![\w-])(?:spec|section)s?:?\s+(?:section\s+)?(?:\d|open question)")


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SCANNED:
        files += [p for p in sorted((ROOT / top).rglob("*")) if p.suffix in SUFFIXES and p.is_file()
                  and "__pycache__" not in p.parts]
    return [p for p in files if p.resolve() not in GRAMMAR]


def where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


@pytest.fixture(scope="module")
def sheets() -> dict[str, dict[str, str]]:
    return {name: sections((DOCS / path).read_text(encoding="utf-8")) for name, path in SHEETS.items()}


@pytest.fixture(scope="module")
def texts() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8", errors="replace") for p in scanned_files()}


def unresolved(path: Path, text: str, sheets) -> tuple[int, list[str]]:
    found, bad = 0, []
    for c in citations(text):
        for ref in c.refs:
            found += 1
            if ref not in sheets[c.sheet]:
                bad.append(f"{where(path, text, c.start)}: {c.text!r}: no section {ref} in docs/{SHEETS[c.sheet]}")
    return found, bad


def test_every_citation_resolves_to_a_section_of_the_copied_sheet(texts, sheets):
    found, bad = 0, []
    for path, text in texts.items():
        n, b = unresolved(path, text, sheets)
        found, bad = found + n, bad + b
    assert not bad, "\n".join(bad)
    assert found >= 100, found     # the machine file alone cites about 80 sections: the scan cannot come up empty


def test_the_machine_file_cites_a_section_for_every_sheet_it_names(sheets):
    text = MACHINE_FILE.read_text(encoding="utf-8")
    found, bad = unresolved(MACHINE_FILE, text, sheets)
    assert not bad, "\n".join(bad)
    assert found >= 70 and {c.sheet for c in citations(text)} == {"api-facts", "ascend950-facts"}


def test_no_sheet_is_named_without_a_section_and_no_spec_is_left_unnamed(texts):
    bad = []
    for path, text in texts.items():
        bad += [f"{where(path, text, o)}: {text[o:o + 40]!r} names a sheet without a section" for o in bare_names(text)]
        spans = [(c.start, c.start + len(c.text)) for c in citations(text)]
        bad += [f"{where(path, text, m.start())}: {m.group(0)!r}: say which sheet ({', '.join(SHEETS)})"
                for m in AMBIGUOUS.finditer(text) if not any(a <= m.start() < b for a, b in spans)]
    assert not bad, "\n".join(bad)


def test_the_packaged_heading_index_matches_the_sheets(sheets):
    assert index() == sheets, "docs/ changed: run scripts/fact_index.py and commit toolkit/machine/fact_sections.json"


def test_citation_forms_by_hand():
    forms = {
        "(api-facts 1, 16.1): PSET": [("api-facts", ("1", "16.1"))],
        "api-facts 0 / ascend950-facts 1.2: 256 KB": [("api-facts", ("0",)), ("ascend950-facts", ("1.2",))],
        "ascend950-facts 2.1-2.3)": [("ascend950-facts", ("2.1", "2.2", "2.3"))],
        "(api-facts 2, 6-8): x": [("api-facts", ("2", "6", "7", "8"))],
        "api-facts 15: theoretical throughput 64 fp32": [("api-facts", ("15",))],
        "ascend950-facts 2.2/2.3); ii 1": [("ascend950-facts", ("2.2", "2.3"))],
        "api-facts 8 / 14.": [("api-facts", ("8", "14"))],
        "(kv spec 7b)": [("kv spec", ("7b",))],
        "softmax spec open question 4)": [("softmax spec", ("open question 4",))],
        "api-facts 0 / ARCH table": [("api-facts", ("0",))],
    }
    for text, want in forms.items():
        assert [(c.sheet, c.refs) for c in citations(text)] == want, text
    for text, name in (("per api-facts section 12", "api-facts"), ("see api-facts.", "api-facts"),
                       ("api-facts §12", "api-facts"), ("the ascend950-facts sheet", "ascend950-facts")):
        assert bare_names(text) == [text.index(name)], text
    assert not citations("my-api-facts 3") and not bare_names("my-api-facts 3")


def test_sections_by_hand():
    md = ("# Title\n## 0. Constants\n## 4-5. Tables\n### 2.3 Model\n```\n# not a heading\n## 9. nor this\n```\n"
          "## 7b. Envelope\n## 16. Open questions\n1. **Nibble** fill\n2. Second\n## Open questions\n1. First\n")
    assert sections(md) == {"0": "Constants", "4": "Tables", "5": "Tables", "2.3": "Model", "7b": "Envelope",
                            "16": "Open questions", "16.1": "Nibble fill", "16.2": "Second",
                            "open question 1": "First"}


def test_calibration_tables_the_machine_file_cites_exist():
    """``calibration_vf_micro NAME`` names vf_micro rows of the calibration table; the tables named exist."""
    text = MACHINE_FILE.read_text(encoding="utf-8")
    data = ROOT / "toolkit" / "calibration" / "data"
    with open(data / "calibration.csv", encoding="utf-8", newline="") as f:
        micro = {r["kernel"] for r in csv.DictReader(f) if r["note"].startswith("vf_micro:")}
    named = set(re.findall(r"calibration_vf_micro ([\w=+/]+)", text)) - {"rows"}
    assert named == {"gelu_poly", "A=B/C"}
    assert all(any(k == n or k.startswith(n + " ") for k in micro) for n in named), (named, micro)
    assert "hw_whole_kernel" in text and (data / "hw_whole_kernel.csv").is_file()


def test_machine_command_names_the_cited_sections(capsys, tmp_path):
    from toolkit.cli import main
    path = tmp_path / "m.json"
    assert main(["machine", "--json", str(path)]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["params"]["core"]["ub_bytes"]["cites"] == [
        {"sheet": "api-facts", "section": "0", "heading": "Global numeric constants (3510)"},
        {"sheet": "ascend950-facts", "section": "1.2", "heading": "Unified Buffer (UB)"}]
    assert data["params"]["timing"]["store_extra_latency"]["cites"] == []
    assert data["instructions"]["RV_VLOOP"]["cites"][0]["section"] == "2.2"
    assert all(c["heading"] for s in data["params"].values() for p in s.values() for c in p["cites"])
    capsys.readouterr()
    assert main(["machine", "--cites"]) == 0
    out = capsys.readouterr().out
    assert "  max_buffers = 64  # api-facts 11: QBUF_MAX_LEN" in out
    assert "\n      api-facts 11: TPipe / TQue / TBuf / UB allocation (MemBase)\n" in out
