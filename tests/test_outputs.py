"""toolkit.console.outputs.OutputPlan: what each kind of target gets, what is refused up front, all or none."""
from __future__ import annotations

import io
import os
import socket
import stat
from contextlib import redirect_stdout

import pytest
from _hostile import fifo_reader, leftovers, snapshot

from toolkit.console.outputs import BadUsage, OutputError, OutputPlan


def refused(targets: dict, *needles: str, **kw) -> str:
    with pytest.raises(OutputError) as exc:
        OutputPlan(targets, **kw)
    msg = str(exc.value)
    assert isinstance(exc.value, BadUsage) and "\n" not in msg
    for n in needles:
        assert n in msg, (n, msg)
    return msg


# -- regular files ---------------------------------------------------------------------------------

def test_new_file_gets_the_usual_mode_and_a_trailing_newline(tmp_path):
    target = tmp_path / "r.json"
    plan = OutputPlan({"json": str(target), "trace": None})
    assert plan.requested == ["json"] and "json" in plan and "trace" not in plan and not plan.stdout_taken
    plan.commit({"json": '{"a": 1}', "trace": "ignored: not requested"})
    assert target.read_text() == '{"a": 1}\n'
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(tmp_path) == ["r.json"]


def test_existing_file_is_replaced_keeping_its_mode(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old")
    target.chmod(0o640)
    OutputPlan({"json": str(target)}).commit({"json": b"\x00new bytes"})
    assert target.read_bytes() == b"\x00new bytes"                      # bytes are written as they are
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_symlink_is_followed_not_replaced(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o600)
    (tmp_path / "link.json").symlink_to("real.json")
    (tmp_path / "dangling.json").symlink_to("sub/made.json")
    (tmp_path / "sub").mkdir()
    OutputPlan({"a": str(tmp_path / "link.json"), "b": str(tmp_path / "dangling.json")}).commit({"a": "A", "b": "B"})
    assert os.readlink(tmp_path / "link.json") == "real.json" and real.read_text() == "A\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert (tmp_path / "sub" / "made.json").read_text() == "B\n"
    assert os.path.islink(tmp_path / "dangling.json")


def test_hard_links_all_see_the_new_content(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("old")
    os.link(a, b)
    OutputPlan({"json": str(a)}).commit({"json": "new"})
    assert b.read_text() == "new\n" and os.path.samefile(a, b)


# -- written through in place ----------------------------------------------------------------------

def test_dev_null_stays_a_device():
    plan = OutputPlan({"json": "/dev/null"})
    plan.commit({"json": "x" * 10000})
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and not plan.stdout_taken


def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    with fifo_reader(fifo) as got:
        OutputPlan({"json": str(fifo)}).commit({"json": "through the fifo"})
    assert got == [b"through the fifo\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_descriptor_path_is_written_through():
    r, w = os.pipe()
    try:
        OutputPlan({"json": f"/dev/fd/{w}"}).commit({"json": "via /dev/fd"})
        assert os.read(r, 100) == b"via /dev/fd\n"
    finally:
        os.close(r)
        os.close(w)


def test_dash_is_stdout_and_taken():
    plan = OutputPlan({"json": "-", "trace": None})
    assert plan.stdout_taken
    out = io.StringIO()
    with redirect_stdout(out):
        plan.commit({"json": "{}"})
    assert out.getvalue() == "{}\n"


# -- refused before any work ----------------------------------------------------------------------

def test_refused_paths(tmp_path):
    (tmp_path / "file").write_text("x")
    before = snapshot(str(tmp_path))
    refused({"json": ""}, "--json ''", "empty path")
    refused({"json": "a\0b"}, "NUL")
    refused({"json": str(tmp_path)}, "is a directory")
    refused({"json": str(tmp_path / "missing" / "r.json")}, "does not exist")
    refused({"json": str(tmp_path / "file" / "r.json")}, "not a directory")
    refused({"json": str(tmp_path / ("n" * 300))}, "name too long")
    refused({"json": str(tmp_path / "new") + "/"}, "cannot end with a slash")
    refused({"json": "/proc/version"}, "/proc")
    refused({"html": str(tmp_path)}, "--html", "is a directory")                    # any output name
    refused({"o": str(tmp_path)}, "output file", labels={"o": "output file"})
    assert snapshot(str(tmp_path)) == before


def test_socket_is_refused(tmp_path):
    path = str(tmp_path / "s")
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(path)
        refused({"json": path}, "not a regular file, character device or FIFO")


@pytest.mark.parametrize("second", ["./{name}", "{dir}/../{base}/{name}", "link", "hard", "{dir}/{name}"])
def test_two_spellings_of_one_file_are_refused(tmp_path, monkeypatch, second):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text("keep")
    (tmp_path / "link").symlink_to("r.json")
    os.link(tmp_path / "r.json", tmp_path / "hard")
    other = second.format(name="r.json", dir=tmp_path, base=tmp_path.name)
    refused({"json": "r.json", "trace": other}, "two outputs write to", "give them different paths")
    assert (tmp_path / "r.json").read_text() == "keep"


def test_two_new_spellings_and_two_stdouts_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused({"json": "new.json", "trace": "./new.json"}, "two outputs write to")
    refused({"json": "-", "trace": "-"}, "two outputs write to stdout")


# -- all or none -------------------------------------------------------------------------------------

def test_a_failing_output_leaves_every_output_untouched(tmp_path):
    good, bad_dir = tmp_path / "good.json", tmp_path / "sub"
    good.write_text("old")
    bad_dir.mkdir()
    plan = OutputPlan({"a": str(good), "b": str(bad_dir / "b.json")})
    os.rmdir(bad_dir)                              # the directory vanishes between the check and the commit
    before = snapshot(str(tmp_path))
    with pytest.raises(OutputError, match="cannot write --b"):
        plan.commit({"a": "new", "b": "new"})
    assert snapshot(str(tmp_path)) == before and good.read_text() == "old" and not leftovers(str(tmp_path))


def test_make_dirs_creates_parents_and_removes_them_on_failure(tmp_path):
    root = tmp_path / "case"
    plan = OutputPlan({"a": str(root / "input" / "a.bin"), "b": str(root / "output" / "b.bin")}, make_dirs=True)
    assert not root.exists()
    plan.commit({"a": b"A", "b": b"B"})
    assert (root / "input" / "a.bin").read_bytes() == b"A" and (root / "output" / "b.bin").read_bytes() == b"B"
    fresh = tmp_path / "fresh"
    plan = OutputPlan({"a": str(fresh / "x" / "a.bin"), "b": str(tmp_path / "gone" / "b.bin")}, make_dirs=True)
    (tmp_path / "gone").write_text("now a file")       # b's directory cannot be made any more
    with pytest.raises(OutputError):
        plan.commit({"a": b"A", "b": b"B"})
    assert not fresh.exists() and not leftovers(str(tmp_path))


def test_commit_needs_content_for_every_requested_output(tmp_path):
    plan = OutputPlan({"json": str(tmp_path / "r.json"), "trace": str(tmp_path / "t.json")})
    with pytest.raises(ValueError, match="trace"):
        plan.commit({"json": "x"})
    assert os.listdir(tmp_path) == []
