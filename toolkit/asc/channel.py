"""The child-to-tool result channel of an ``.asc`` run: data only, over a pipe the tool created.

The child (which hosts the user's native program, so nothing it sends is trusted) writes one JSON line
per record: a finished launch, a host-side error, the program's exit, an internal failure of the child,
a line the child's Python wrote to its stderr. The tool decodes each line as it arrives: plain JSON plus
four tagged forms (``{"$": "b"}`` bytes as base64, ``"t"`` a tuple, ``"d"`` a dict with keys that are not
strings, ``"r"`` one of the event record classes of :mod:`toolkit.record.events`, rebuilt from its field
values), then checks the record against the schema of its kind. No code is named or run by a record; a
line that is not a valid record, or a channel past :data:`MAX_BYTES`, makes the run's results unreadable
(a tool failure, exit 2), never something the tool acts on.
"""
from __future__ import annotations

import base64
import dataclasses
import json
import os
from typing import Any, Callable

import numpy as np

from toolkit.record import events as _events

#: most bytes the tool accepts from one run's channel
MAX_BYTES = 1 << 30
#: element types a launch output may name (what the comparison can decode)
DTYPES = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
          "float32", "float64", "bool"}


def _record_classes() -> dict[str, type]:
    out = {}
    for name, obj in vars(_events).items():
        if isinstance(obj, type) and obj.__module__ == _events.__name__ and (
                dataclasses.is_dataclass(obj) or (issubclass(obj, tuple) and hasattr(obj, "_fields"))):
            out[name] = obj
    return out


RECORDS = _record_classes()
#: per record class: its field names, and the positions of fields that hold tuples (sent as lists)
_FIELDS = {name: (tuple(cls._fields) if issubclass(cls, tuple) else tuple(f.name for f in dataclasses.fields(cls)))
           for name, cls in RECORDS.items()}
_TUPLE_AT = {name: frozenset(k for k, f in enumerate(_FIELDS[name])
                             if "tuple" in str((getattr(cls, "__annotations__", {}) or {}).get(f, "")))
             for name, cls in RECORDS.items()}
_Instr = RECORDS["Instr"]
_new = tuple.__new__


class BadRecord(ValueError):
    """A channel line that is not a valid record (or the channel is over its size bound)."""


# -- encoding (child side) ----------------------------------------------------------------------------
#: id -> index of the records and instruction streams already sent in this line: an object the run shares
#: (one VF instance in the streams of every core of its group, a shared Sync) is sent once, then referred to
_memo: dict[int, int] = {}


def _shared(v: Any, build: Callable[[], dict]) -> dict:
    k = _memo.get(id(v))
    if k is not None:
        return {"$": "m", "v": k}
    out = build()
    out["m"] = _memo[id(v)] = len(_memo)
    return out


def _enc(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    t = type(v)
    if (t is list or t is tuple) and v and type(v[0]) is _Instr and {type(x) for x in v} == {_Instr}:
        return _shared(v, lambda: {"$": "I" if t is list else "It", "v": _instr_rows(v)})   # a VF's stream
    if t is list:
        return [_enc(x) for x in v]
    if t is dict or isinstance(v, dict):
        if all(type(k) is str for k in v) and "$" not in v:
            return {k: _enc(x) for k, x in v.items()}
        return {"$": "d", "v": [[_enc(k), _enc(x)] for k, x in v.items()]}
    if t.__name__ in RECORDS and RECORDS[t.__name__] is t:
        return _shared(v, lambda: _record(v, t.__name__))
    if isinstance(v, tuple):
        return {"$": "t", "v": [_enc(x) for x in v]}
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"$": "b", "v": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, np.generic):
        return _enc(v.item())
    if isinstance(v, (set, frozenset)):
        return [_enc(x) for x in sorted(v, key=repr)]
    raise TypeError(f"a result record cannot carry a {t.__name__}")


_PLAIN = {type(None), int, str, float, bool}


def _instr_rows(v) -> list:
    """Instructions as rows: an Instr is a tuple, which JSON writes as an array (``srcs`` too); only an
    ``aux`` that is not a plain value needs its own encoding. Numpy scalars: :func:`_default`."""
    if {type(i[3]) for i in v} <= _PLAIN and {type(s) for i in v for s in i[2]} <= _PLAIN:
        return list(v)
    return [[i[0], i[1], [_enc(s) for s in i[2]], _enc(i[3]), *i[4:]] for i in v]


def _default(o: Any) -> Any:
    if isinstance(o, np.generic):
        return o.item()
    raise TypeError(f"a result record cannot carry a {type(o).__name__}")


def _record(v: Any, name: str) -> dict:
    vals = list(v) if isinstance(v, tuple) else [getattr(v, f) for f in _FIELDS[name]]
    tuples = _TUPLE_AT[name]
    return {"$": "r", "c": name, "v": [[_enc(y) for y in x] if k in tuples and type(x) is tuple else _enc(x)
                                       for k, x in enumerate(vals)]}


def encode(record: dict) -> bytes:
    _memo.clear()
    try:
        return json.dumps(_enc(record), separators=(",", ":"), default=_default).encode("ascii") + b"\n"
    finally:
        _memo.clear()


class Writer:
    """The child's end: one line per record on ``fd`` (a pipe the tool reads as the run goes)."""

    def __init__(self, fd: int):
        self.fd = fd

    def write(self, record: dict) -> None:
        data = memoryview(encode(record))
        while data:
            data = data[os.write(self.fd, data):]


# -- decoding (tool side) -----------------------------------------------------------------------------
def _tagged(d: dict, memo: dict[int, Any]) -> Any:
    tag = d.get("$")
    if tag is None:
        return d
    out = _value(tag, d, memo)
    if "m" in d:
        if not _is(d["m"], int) or d["m"] in memo:
            raise BadRecord("a bad shared-object index")
        memo[d["m"]] = out
    return out


def _value(tag: Any, d: dict, memo: dict[int, Any]) -> Any:
    v = d.get("v")
    if tag == "m":
        if not _is(v, int) or v not in memo:
            raise BadRecord("a reference to an object not sent before")
        return memo[v]
    if tag == "b" and isinstance(v, str):
        try:
            return base64.b64decode(v, validate=True)
        except ValueError:
            raise BadRecord("bad base64 bytes") from None
    if tag == "t" and isinstance(v, list):
        return tuple(v)
    if tag == "d" and isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 for p in v):
        try:
            return {k: x for k, x in v}
        except TypeError:
            raise BadRecord("a dict key that cannot be a key") from None
    if tag == "r" and isinstance(v, list) and d.get("c") in RECORDS:
        name = d["c"]
        if len(v) != len(_FIELDS[name]):
            raise BadRecord(f"record {name} with {len(v)} fields instead of {len(_FIELDS[name])}")
        for k in _TUPLE_AT[name]:
            if isinstance(v[k], list):
                v[k] = tuple(v[k])
        return RECORDS[name](*v)
    if tag in ("I", "It") and isinstance(v, list):
        try:
            rows = [_new(_Instr, (r[0], r[1], tuple(r[2]), r[3], r[4], r[5], r[6], r[7], r[8])) for r in v
                    if len(r) == 9]
        except (TypeError, IndexError, KeyError):
            raise BadRecord("a malformed instruction row") from None
        if len(rows) != len(v):
            raise BadRecord("a malformed instruction row")
        return rows if tag == "I" else tuple(rows)
    raise BadRecord(f"unknown tagged value {str(tag)[:20]!r}")


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise BadRecord(what)


def _is(v: Any, *types: type) -> bool:
    return isinstance(v, types) and not (isinstance(v, bool) and bool not in types)


def _check_output(o: Any) -> None:
    _check(isinstance(o, dict), "a launch output that is not an object")
    _check(_is(o.get("arg"), str) and _is(o.get("index"), int) and o.get("dtype") in DTYPES,
           "a launch output without arg, index or a known dtype")
    _check(_is(o.get("data"), bytes) and _is(o.get("written"), bytes) and _is(o.get("nbytes"), int),
           "a launch output without its bytes")
    _check(0 <= o["nbytes"] <= len(o["data"]) and len(o["written"]) * 8 >= o["nbytes"],
           "a launch output whose sizes disagree")


def _check_launch(r: dict) -> None:
    _check(_is(r.get("kernel"), str) and _is(r.get("block_dim"), int) and _is(r.get("passed"), bool),
           "a launch without kernel, block_dim or passed")
    where = r.get("where")
    _check(isinstance(where, list) and len(where) == 2 and _is(where[0], str) and _is(where[1], int),
           "a launch without its source line")
    for key in ("ub", "counters", "cycles", "execution"):
        _check(isinstance(r.get(key), dict), f"a launch without {key}")
    ub = r["ub"]
    _check(_is(ub.get("total_bytes"), int) and _is(ub.get("budget_bytes"), int) and _is(ub.get("fits"), bool)
           and isinstance(ub.get("buffers"), list), "a launch with a malformed UB plan")
    _check(isinstance(r.get("diagnostics"), list) and all(
        isinstance(d, dict) and _is(d.get("code"), str) and _is(d.get("severity"), str) for d in r["diagnostics"]),
        "a launch with malformed diagnostics")
    _check(isinstance(r.get("outputs"), list), "a launch without outputs")
    for o in r["outputs"]:
        _check_output(o)


_SCHEMA: dict[str, Callable[[dict], None]] = {
    "launch": _check_launch,
    "host_error": lambda r: _check(_is(r.get("message"), str) and _is(r.get("detail"), str)
                                   and _is(r.get("code", ""), str), "a host error without message"),
    "exit": lambda r: _check(_is(r.get("status"), int), "an exit record without status"),
    "tool_error": lambda r: _check(_is(r.get("message"), str), "a tool error without message"),
    "log": lambda r: _check(_is(r.get("text"), str), "a log record without text"),
}


def decode(line: bytes) -> dict:
    """One channel line as a checked record; :class:`BadRecord` otherwise."""
    try:
        memo: dict[int, Any] = {}
        record = json.loads(line, object_hook=lambda d: _tagged(d, memo))
    except (ValueError, RecursionError) as err:
        if isinstance(err, BadRecord):
            raise
        raise BadRecord(f"not a JSON record ({type(err).__name__})") from None
    except TypeError as err:
        raise BadRecord(f"a record class given wrong fields ({err})") from None
    _check(isinstance(record, dict) and record.get("kind") in _SCHEMA, "a record of no known kind")
    _SCHEMA[record["kind"]](record)
    return record


class Reader:
    """The tool's end: bytes in as they arrive, checked records out (:attr:`records`); a bad line or too
    many bytes sets :attr:`error` and everything after it is ignored."""

    def __init__(self, limit: int = MAX_BYTES):
        self.limit = limit
        self.records: list[dict] = []
        self.error: str | None = None
        self._buf = bytearray()
        self._total = 0

    def feed(self, chunk: bytes) -> None:
        if self.error is not None:
            return
        self._total += len(chunk)
        if self._total > self.limit:
            self.error = f"the results exceed {self.limit >> 20} MiB"
            self._buf.clear()
            return
        start = len(self._buf)
        self._buf += chunk
        while self.error is None:
            cut = self._buf.find(b"\n", start)         # only the new bytes can hold the end of the line
            if cut < 0:
                break
            line = bytes(self._buf[:cut])
            del self._buf[:cut + 1]
            start = 0
            try:
                self.records.append(decode(line))
            except BadRecord as err:
                self.error = str(err)

    def finish(self) -> None:
        """The channel is closed: a last line without its newline was cut short (a crash mid-write)."""
        if self._buf and self.error is None:
            self.truncated = True
        self._buf.clear()

    truncated = False

    def count(self, kind: str) -> int:
        return sum(1 for r in self.records if r.get("kind") == kind)
