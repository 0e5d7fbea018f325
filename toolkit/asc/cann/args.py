"""The command line of the vendor's compiler driver as build systems pass it (GCC-style), read into what
our driver does with it.

Accepted: ``-c``, ``-o F``, ``-x asc|c++|c|none``, ``-I``/``-isystem``/``-iquote``/``-idirafter D``,
``-D``/``-U``, ``-std=``, ``-include F``, ``-O*`` (taken, no effect on the emulated figures), ``-g*``,
``-pthread``, ``-f*``/``-W*``/``-m*``/``-w`` (taken; our unit flags are fixed), ``-MD``/``-MMD``/``-MF``/
``-MT``/``-MQ`` (a Make dependency file, as CMake asks), ``--npu-arch=dav-3510`` (also ``--cce-aicore-arch``),
``--cce-simd-vf-fusion=true|false``, other ``--cce-*`` (taken), our own ``--asc-launch-stubs``,
``--asc-launch-headers=DIR``, ``--asc-runtime-objects=DIR`` (for ``ascendc.cmake``), link steps: ``-l``, ``-L``, ``-Wl,...``,
``-shared``, inputs ``.asc``/``.cpp``/``.c``/``.o``/``.a``/``.so``. ``-v``, ``-###``, ``-E``, ``-S``,
``-M``/``-MM``, ``-dump*``, ``-print-*`` go to the host compiler as they are (CMake's probes).
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: the NPU architectures the emulator models (the machine file: Ascend 950, dav-3510)
ARCHS = ("dav-3510",)
SOURCE_LANGS = {".asc": "c++", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".c++": "c++", ".C": "c++",
                ".cp": "c++", ".CPP": "c++", ".c": "c"}
_LANG_NAMES = {"asc": "c++", "c++": "c++", "cce": "c++", "c": "c"}
_WITH_ARG = {"-o", "-x", "-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-include", "-MF", "-MT", "-MQ",
             "-l", "-L", "-Xlinker", "--npu-arch", "-imacros", "-arch"}
_PASS_EXACT = frozenset({"-v", "-###", "-E", "-S", "-M", "-MM", "--help"})
_PASS_PREFIX = ("-print-", "-dump", "--print")


class DriverError(ValueError):
    """A command line the driver refuses (one line, as a compiler says it)."""


@dataclass
class Command:
    compile_only: bool = False
    output: str | None = None
    sources: list[tuple[str, str]] = field(default_factory=list)    #: (path, language)
    inputs: list[str] = field(default_factory=list)                  #: objects, archives, libraries in order
    include_dirs: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    undefines: list[str] = field(default_factory=list)
    std: str | None = None
    extra: list[str] = field(default_factory=list)                  #: passed to the unit compile
    libs: list[str] = field(default_factory=list)
    lib_dirs: list[str] = field(default_factory=list)
    link_extra: list[str] = field(default_factory=list)
    shared: bool = False
    depfile: bool = False
    dep_path: str | None = None
    dep_targets: list[str] = field(default_factory=list)
    vf_fusion: bool = False
    arch: str | None = None
    passthrough: bool = False
    version: bool = False
    stubs: bool = False                  #: --asc-launch-stubs: define the units' aclrtlaunch_<k> stubs
    headers_dir: str | None = None       #: --asc-launch-headers=DIR: write the sources' stub headers there
    runtime_dir: str | None = None       #: --asc-runtime-objects=DIR: copy our runtime objects there


def _arch(cmd: Command, value: str) -> None:
    if value not in ARCHS:
        raise DriverError(f"--npu-arch={value}: the migrate-check emulator models Ascend 950 ({', '.join(ARCHS)}) only")
    cmd.arch = value


def _bool(opt: str, value: str) -> bool:
    if value not in ("true", "false"):
        raise DriverError(f"{opt}={value}: expected true or false")
    return value == "true"


def _long(cmd: Command, a: str) -> bool:
    """The driver's own ``--`` options; whether ``a`` was one."""
    if a.startswith("--npu-arch=") or a.startswith("--cce-aicore-arch="):
        _arch(cmd, a.split("=", 1)[1])
    elif a.startswith("--cce-simd-vf-fusion"):
        cmd.vf_fusion = _bool("--cce-simd-vf-fusion", a.split("=", 1)[1] if "=" in a else "true")
    elif a == "--version":
        cmd.version = True
    elif a == "--asc-launch-stubs":
        cmd.stubs = True
    elif a.startswith("--asc-launch-headers="):
        cmd.headers_dir = a.split("=", 1)[1]
    elif a.startswith("--asc-runtime-objects="):
        cmd.runtime_dir = a.split("=", 1)[1]
    elif a.startswith("--cce-") or a.startswith("--target=") or a.startswith("--sysroot") or a == "--":
        pass
    else:
        return False
    return True


def _with_value(cmd: Command, opt: str, v: str, lang: list[str]) -> None:
    if opt == "-o":
        cmd.output = v
    elif opt == "-x":
        if v != "none" and v not in _LANG_NAMES:
            raise DriverError(f"-x {v}: language not recognised (asc, c++, c)")
        lang[0] = _LANG_NAMES.get(v, "")
    elif opt in ("-I", "-isystem", "-iquote", "-idirafter"):
        cmd.include_dirs.append(v)
    elif opt == "-D":
        cmd.defines.append(v)
    elif opt == "-U":
        cmd.undefines.append(v)
    elif opt in ("-include", "-imacros"):
        cmd.extra += [opt, v]
    elif opt == "-MF":
        cmd.dep_path = v
    elif opt in ("-MT", "-MQ"):
        cmd.dep_targets.append(v)
    elif opt == "-l":
        cmd.libs.append(v)
    elif opt == "-L":
        cmd.lib_dirs.append(v)
    elif opt == "-Xlinker":
        cmd.link_extra += ["-Xlinker", v]
    elif opt in ("--npu-arch", "-arch"):
        _arch(cmd, v)


def _flag(cmd: Command, a: str) -> None:
    if a == "-c":
        cmd.compile_only = True
    elif a in ("-MD", "-MMD"):
        cmd.depfile = True
    elif a == "-shared":
        cmd.shared = True
    elif a.startswith("-Wl,") or a in ("-rdynamic",):
        cmd.link_extra.append(a)
    elif a.startswith("-std="):
        cmd.std = a[5:]
    elif a.startswith("-g") or a == "-pthread":
        cmd.extra.append(a)
        if a == "-pthread":
            cmd.link_extra.append(a)
    elif a in _PASS_EXACT or a.startswith(_PASS_PREFIX):
        cmd.passthrough = True
    # -O*, -f*, -W*, -m*, -w, -pipe, -pie, -s, -static-libstdc++ ...: taken (module docstring)


def parse(argv: list[str]) -> Command:
    cmd = Command()
    lang = [""]
    k = 0
    while k < len(argv):
        a = argv[k]
        k += 1
        if a.startswith("--") and _long(cmd, a):
            continue
        joined = next((o for o in ("-o", "-x", "-I", "-D", "-U", "-l", "-L") if a.startswith(o) and len(a) > 2), None)
        if a in _WITH_ARG:
            if k >= len(argv):
                raise DriverError(f"missing argument to '{a}'")
            _with_value(cmd, a, argv[k], lang)
            k += 1
        elif joined and not a.startswith(("-Wl", "-W")):
            _with_value(cmd, joined, a[2:], lang)
        elif a.startswith("-") and a != "-":
            _flag(cmd, a)
        else:
            _input(cmd, a, lang[0])
    return cmd


def _input(cmd: Command, path: str, lang: str) -> None:
    suffix = "." + path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""
    if lang:
        cmd.sources.append((path, lang))
    elif suffix in SOURCE_LANGS:
        cmd.sources.append((path, SOURCE_LANGS[suffix]))
    else:
        cmd.inputs.append(path)
