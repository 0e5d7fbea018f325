"""The folder layout is the architecture: every import inside ``toolkit/`` goes to the same package or to a
lower layer (function-level imports included), ``toolkit`` never imports ``operators``, and the top level of
``toolkit/`` holds packages only (at most four plain modules)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "toolkit"

#: lowest first; packages on one line may import each other (the kernel API and the engine both write the
#: record: a kernel call needs the current core, a launch runs kernel calls)
LAYERS = [
    ("record",),           # typed events and diagnostics
    ("machine",),          # the machine file, the opcode registry, the fact sheets
    ("compiler",),         # what the vendor compiler does, as rewrites of the record
    ("ascendc", "engine"),  # what kernels call; the cores they run on
    ("timing",),           # reads the record
    ("calibration",),      # fits the machine file's free numbers against measured rows
    ("views",),            # counters, UB report, cycles, trace, HTML
    ("console",),          # output files and the progress line
    ("harness",),          # the host side every operator shares
    ("asc",),              # the .asc route
    ("sweep", "port"),     # what-if sweeps over either route; the MemBase -> RegBase port and its proof
    ("cli",),              # the commands
]
RANK = {pkg: k for k, tier in enumerate(LAYERS) for pkg in tier}


def _module(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path, root: Path = ROOT):
    mod = _module(path, root)
    package = mod if path.name == "__init__.py" else mod[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield node.lineno, target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def _violations(root: Path) -> list[str]:
    upward = []
    for path in sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts):
        parts = path.relative_to(root).parts
        if len(parts) < 2:
            continue
        own = parts[0]
        for line, target in _imports(path, root):
            if target.startswith("operators"):
                upward.append(f"{path}:{line}: toolkit imports {target}")
            names = target.split(".")
            if names[0] != "toolkit" or len(names) < 2 or names[1] == own:
                continue
            if RANK[names[1]] > RANK[own]:
                upward.append(f"{path}:{line}: {own} (layer {RANK[own]}) imports {target} (layer {RANK[names[1]]})")
    return upward


def test_every_package_has_a_layer():
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(RANK), f"packages without a layer, or layers without a package: {packages ^ set(RANK)}"


def test_imports_go_down_only():
    upward = _violations(ROOT)
    assert not upward, "\n".join(upward)


def test_top_level_holds_packages():
    plain = [p.name for p in ROOT.glob("*.py") if p.name != "__init__.py"]
    assert len(plain) <= 4, plain


def test_an_upward_import_is_caught(tmp_path):
    """The checker itself: an engine module importing a view (inside a function too), or operators, is reported."""
    fake = tmp_path / "toolkit"
    (fake / "engine").mkdir(parents=True)
    (fake / "engine" / "probe.py").write_text(
        "from .launch import launch\n"
        "def f():\n    from ..views.cycles import cycle_summary\n    import operators.softmax\n", encoding="utf-8")
    found = _violations(fake)
    assert len(found) == 2 and "toolkit.views.cycles" in found[0] and "operators.softmax" in found[1]
