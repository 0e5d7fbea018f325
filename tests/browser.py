"""A real headless browser for the HTML report tests: Debian's ``chromium`` driven over the DevTools
protocol on a pipe (``--remote-debugging-pipe``: JSON messages on fds 3/4, no network, no extra package).

``render(path)`` opens the file, waits for the load event and returns what the page did: every console
message and uncaught exception, every log entry (CSP violations, failed loads), every network request,
and the DOM facts that ``SCRIPT`` extracts (sections, their text, the text inside their SVG pictures and
the pictures' rendered sizes). Tests skip with a reason when no browser is installed (``.ci/run``
installs Debian's ``chromium`` when it can).
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from toolkit.console.children import become_subreaper, children_of, kill_tree, proc_table, reap

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--window-size=1400,1000"]
SCRIPT = """JSON.stringify({
  title: document.title,
  sections: [...document.querySelectorAll('section')].map(s => ({
    id: s.id, heading: (s.querySelector('h2') || {}).innerText, text: s.innerText,
    svg_text: [...s.querySelectorAll('svg text')].map(t => t.textContent).join('\\n'),
    svgs: [...s.querySelectorAll('svg')].map(v => { const r = v.getBoundingClientRect(); return [r.width, r.height]; }),
  })),
})"""


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


needs_browser = pytest.mark.skipif(find_browser() is None,
                                   reason="no headless browser (Debian's chromium) on this machine")


@dataclass
class Rendered:
    dom: dict
    console: list = field(default_factory=list)       # console API calls and uncaught exceptions
    log: list = field(default_factory=list)           # Log.entryAdded (CSP violations, failed loads ...)
    requests: list = field(default_factory=list)      # every URL the page asked for

    def section(self, sid: str) -> dict:
        return next(s for s in self.dom["sections"] if s["id"] == sid)


class _Pipe:
    def __init__(self, proc: subprocess.Popen, rfd: int, wfd: int):
        self.proc, self.rfd, self.wfd = proc, rfd, wfd
        self.buf = b""
        self.events: list[dict] = []
        self.next_id = 0

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 60) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        reply = self.wait(lambda m: m.get("id") == self.next_id, timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait(self, match, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "method" in msg:
                    self.events.append(msg)
                if match(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.rfd], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.rfd, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buf += chunk


def _start(browser: str, profile: str) -> _Pipe:
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def child_fds() -> None:                          # the browser reads fd 3, writes fd 4
        os.dup2(to_browser_r, 100)                    # (via high numbers: the pipes may be 3 or 4 already)
        os.dup2(from_browser_w, 101)
        os.dup2(100, 3)
        os.dup2(101, 4)

    proc = subprocess.Popen([browser, *FLAGS, f"--user-data-dir={profile}", "about:blank"], preexec_fn=child_fds,
                            pass_fds=(3, 4), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_browser_r)
    os.close(from_browser_w)
    return _Pipe(proc, from_browser_r, to_browser_w)


def render(path: str | Path, timeout: float = 90) -> Rendered:
    """Open ``path`` in a fresh headless browser profile and report what the page did."""
    browser = find_browser()
    if browser is None:
        pytest.skip("no headless browser (Debian's chromium) on this machine")
    become_subreaper()                                # the browser's helpers, orphaned, come to us
    before = children_of(os.getpid(), proc_table() or {})
    with tempfile.TemporaryDirectory(prefix="browser-profile-") as profile:
        pipe = _start(browser, profile)
        try:
            return _visit(pipe, Path(path).resolve().as_uri(), timeout)
        finally:
            try:
                pipe.send("Browser.close", timeout=10)
            except (RuntimeError, TimeoutError, OSError):
                pass
            try:
                pipe.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pipe.proc.kill()
                pipe.proc.wait()
            reap(kill_tree([pipe.proc.pid], spare=before))   # helpers left behind: ended and reaped
            os.close(pipe.rfd)
            os.close(pipe.wfd)


def _visit(pipe: _Pipe, url: str, timeout: float) -> Rendered:
    target = pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
    session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Runtime", "Log", "Network", "Page"):
        pipe.send(f"{domain}.enable", session=session)
    pipe.events.clear()
    pipe.send("Page.navigate", {"url": url}, session=session)
    pipe.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session, timeout)
    value = pipe.send("Runtime.evaluate", {"expression": SCRIPT, "returnByValue": True}, session=session)
    out = Rendered(json.loads(value["result"]["value"]))
    for ev in pipe.events:
        method, params = ev["method"], ev.get("params", {})
        if method in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown"):
            out.console.append(params)
        elif method == "Log.entryAdded":
            out.log.append(params["entry"])
        elif method == "Network.requestWillBeSent":
            out.requests.append(params["request"]["url"])
    return out
