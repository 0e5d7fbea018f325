"""What the operators register for calibration (toolkit/calibration/sources.py): every measured row has
the kernel that produces it, the registration is what pyproject.toml declares, a broken registration
is refused, and no operator package imports another."""
from __future__ import annotations

import ast
import pathlib
import tomllib

import pytest

from toolkit.calibration import sources
from toolkit.calibration.sources import RegistrationError, VfSource, WholeKernelSource
from toolkit.calibration.vendor_rows import load_calibration
from toolkit.calibration.whole_kernel import load_rows

REPO = pathlib.Path(__file__).resolve().parents[1]


def test_every_vf_row_has_its_kernel():
    registered = {(s.group, s.variant) for s in sources.vf_sources()}
    assert {(r.kernel, r.variant) for r in load_calibration()} <= registered
    assert len(sources.vf_sources()) == 36                  # 26 simd_vf_story variants + 10 vf_micro kernels
    assert {s.scope for s in sources.vf_sources() if s.family == "broadcast"} == {"run"}
    assert {s.scope for s in sources.vf_sources() if s.family != "broadcast"} == {"vf"}


def test_every_whole_kernel_row_has_its_group():
    assert {r.kernel for r in load_rows()} <= {s.group for s in sources.whole_kernel_sources()}


def test_the_registration_is_what_pyproject_declares():
    """The installed entry points equal pyproject.toml's (a stale install: reinstall with pip install -e .)."""
    from importlib.metadata import entry_points
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["entry-points"][sources.ENTRY_POINT_GROUP]
    installed = {ep.name: ep.value for ep in entry_points(group=sources.ENTRY_POINT_GROUP)}
    assert installed == declared


def _vf(key: str, group: str = "g", variant: str = "v", scope: str = "vf") -> VfSource:
    return VfSource(key, group, variant, scope, list)


@pytest.mark.parametrize("found,needle", [
    ([_vf("a/x"), _vf("a/x", variant="w")], "kernel registered twice: a/x"),
    ([_vf("a/x"), _vf("a/y")], "row registered twice"),
    ([_vf("a/x", scope="loop")], "scope 'loop'"),
    ([WholeKernelSource("s", dict), WholeKernelSource("s", dict)], "whole-kernel group registered twice: s"),
    (["a/x"], "returned str"),
])
def test_a_broken_registration_is_refused(found, needle):
    with pytest.raises(RegistrationError, match=needle.replace("(", r"\(")):
        sources.check(found)


def test_a_good_registration_is_sorted_by_kind():
    wk = WholeKernelSource("s", dict)
    got = sources.check([_vf("a/x"), wk, _vf("a/y", variant="w")])
    assert [s.key for s in got.vf] == ["a/x", "a/y"] and got.whole_kernel == (wk,)


def _operator_imports(package: pathlib.Path, root: pathlib.Path | None = None):
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for name in names:
                parts = name.split(".")
                if parts[0] == "operators" and len(parts) > 1 and parts[1] != package.name:
                    yield f"{path.relative_to(root or REPO)}:{node.lineno}: imports {name}"


def test_no_operator_package_imports_another():
    packages = [p for p in (REPO / "operators").iterdir() if (p / "__init__.py").exists()]
    assert len(packages) >= 4
    crossing = [line for p in packages for line in _operator_imports(p)]
    assert not crossing, "\n".join(crossing)


def test_a_crossing_import_is_caught(tmp_path):
    fake = tmp_path / "operators" / "a"
    fake.mkdir(parents=True)
    (fake / "m.py").write_text("from operators.a.x import y\nimport operators.b.host\n"
                               "def f():\n    from operators.c import z\n", encoding="utf-8")
    found = list(_operator_imports(fake, tmp_path))
    assert [f.split(": ")[1] for f in found] == ["imports operators.b.host", "imports operators.c"]
