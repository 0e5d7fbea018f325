"""Helpers of the CANN build-flow tests (tests/test_cann_*.py): one toolkit root per test session, the
environment `source set_env.sh` gives, the fixtures copied into a fresh checkout, commands run as a user runs them."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from toolkit.asc.cann.cmake import find_cmake
from toolkit.asc.errors import BuildError

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "cann"
KV_ASC = ROOT / "operators" / "kv_rms_norm_rope_cache" / "asc"


def _have_cmake() -> bool:
    try:
        return bool(find_cmake())
    except BuildError:
        return False


needs_cmake = pytest.mark.skipif(not _have_cmake(), reason="no CMake (apt-get install cmake, or pip install cmake)")


@pytest.fixture(scope="session")
def cann_root(tmp_path_factory) -> Path:
    """The toolkit root of this session (``MIGRATE_CHECK_CANN_HOME`` for every command the tests run)."""
    from toolkit.asc.cann.home import cann_home
    where = tmp_path_factory.mktemp("cann") / "latest"
    os.environ["MIGRATE_CHECK_CANN_HOME"] = str(where)
    return cann_home(where)


def user_env(root: Path) -> dict[str, str]:
    """The environment after ``source ROOT/set_env.sh``, read from the script itself."""
    out = subprocess.run(["sh", "-c", f". '{root}/set_env.sh' && env -0"], capture_output=True, check=True).stdout
    env = dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)
    env.pop("PYTHONPATH", None)                    # the tool's own scripts know where it is
    return env


def run(cmd: list[str], cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def checkout(dst: Path, name: str) -> Path:
    """A fresh copy of a fixture project; the samples repository gets the KV story's sources from operators/."""
    shutil.copytree(FIXTURES / name, dst)
    if name == "samples":
        story = dst / "Samples" / "2_Performance" / "kv_rms_norm_rope_cache_story"
        for part in ("membase", "regbase", "include", "scripts"):
            shutil.copytree(KV_ASC / part, story / part)
    return dst
