"""``migrate-check run --cmake DIR --target NAME [--build-dir B]``: configure (once) and build one target of a
CMake project against our toolkit root, and find the file it built.

CMake is the one on PATH, else the ``cmake`` package from PyPI (``pip install 'ascend-migrate-toolkit[cmake]'``).
The configure step is given what the vendor's flow sets by hand: ``ASCEND_HOME_PATH`` / ``ASCEND_TOOLKIT_HOME``
(the toolkit root), ``CMAKE_PREFIX_PATH`` (``find_package(ASC)``), ``-DNPU_ARCH=dav-3510`` (the samples
repository's root asks for it); an already configured build directory is only built. The target's file
comes from CMake's own answer (its file API, ``codemodel-v2``), not from a guess of the path. CMake runs as
an owned child under the command's one deadline.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from toolkit.console.children import Deadline

from ..errors import BuildError, printable, tool_failure
from ..toolchain import tool
from .home import cann_home

_QUERY = Path(".cmake") / "api" / "v1"


def find_cmake() -> str:
    path = shutil.which("cmake")
    if path:
        return path
    try:
        import cmake  # the PyPI package: its own binary
        return os.path.join(cmake.CMAKE_BIN_DIR, "cmake")
    except (ImportError, AttributeError):
        raise BuildError("CMake is not installed: install it (apt-get install cmake) or "
                         "`pip install 'ascend-migrate-toolkit[cmake]'`", code="NO_CMAKE") from None


def toolkit_env(root: Path) -> dict[str, str]:
    """What ``source <root>/set_env.sh`` sets, for a child."""
    env = dict(os.environ)
    env["ASCEND_HOME_PATH"] = env["ASCEND_TOOLKIT_HOME"] = str(root)
    env["CMAKE_PREFIX_PATH"] = str(root) + (os.pathsep + env["CMAKE_PREFIX_PATH"] if env.get("CMAKE_PREFIX_PATH") else "")
    return env


def _cmake(args: list[str], deadline: Deadline | None, env: dict, what: str) -> None:
    code, out, err = tool([find_cmake(), *args], deadline, env=env)
    if code:
        lines = [ln for ln in (err + "\n" + out).splitlines() if "rror" in ln] or (err + out).splitlines()[-1:]
        raise BuildError(f"CMAKE_ERROR: {what} failed: {tool_failure(chr(10).join(lines))}", code="CMAKE_ERROR")


def build_target(source_dir: str, target: str, build_dir: str | None, deadline: Deadline | None) -> Path:
    """Configure ``source_dir`` into ``build_dir`` (default ``source_dir/build``) if it is not yet, build
    ``target``; the path of the file it made."""
    src = Path(os.path.abspath(source_dir))
    if not (src / "CMakeLists.txt").is_file():
        raise BuildError(f"{printable(str(src))}: no CMakeLists.txt", code="BAD_INPUT")
    build = Path(os.path.abspath(build_dir)) if build_dir else src / "build"
    env = toolkit_env(cann_home())
    query = build / _QUERY / "query" / "codemodel-v2"
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()
    if not (build / "CMakeCache.txt").is_file():
        _cmake(["-S", str(src), "-B", str(build), "-DNPU_ARCH=dav-3510"], deadline, env, "cmake (configure)")
    elif not list((build / _QUERY / "reply").glob("index-*.json")):    # configured by hand: ask CMake again
        _cmake(["-S", str(src), "-B", str(build)], deadline, env, "cmake (configure)")
    _cmake(["--build", str(build), "--target", target], deadline, env, f"cmake --build --target {target}")
    return artifact(build, target)


def artifact(build: Path, target: str) -> Path:
    """The file CMake says ``target`` makes (its codemodel reply)."""
    reply = build / _QUERY / "reply"
    try:
        index = json.loads(max(reply.glob("index-*.json")).read_text())
        model_file = next(r["jsonFile"] for r in index["objects"] if r["kind"] == "codemodel")
        model = json.loads((reply / model_file).read_text())
        for config in model["configurations"]:
            for t in config["targets"]:
                if t["name"] == target:
                    info = json.loads((reply / t["jsonFile"]).read_text())
                    paths = [a["path"] for a in info.get("artifacts", [])]
                    if not paths:
                        break
                    path = Path(paths[0])
                    return path if path.is_absolute() else build / path
    except (OSError, ValueError, KeyError, StopIteration):
        raise BuildError(f"CMAKE_ERROR: cannot read CMake's description of the project in {printable(str(build))}",
                         code="CMAKE_ERROR") from None
    raise BuildError(f"CMAKE_ERROR: the project has no target {printable(target)} that builds a file",
                     code="BAD_INPUT")
