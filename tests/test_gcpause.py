"""Entry points run with the cyclic garbage collector paused and give it back as they found it."""
from __future__ import annotations

import gc

import pytest

from toolkit.cli import guarded, main
from toolkit.console.outputs import BadUsage


@pytest.mark.parametrize("ending", ["return", "bad usage", "interrupt"])
def test_guarded_pauses_the_collector_and_restores_it(capsys, ending):
    seen: list[bool] = []

    def body():
        seen.append(gc.isenabled())
        if ending == "bad usage":
            raise BadUsage("no")
        if ending == "interrupt":
            raise KeyboardInterrupt
        return 0

    assert gc.isenabled()
    code = guarded("t", body)
    assert seen == [False] and gc.isenabled()
    assert code == {"return": 0, "bad usage": 2, "interrupt": 130}[ending]


def test_a_caller_that_paused_the_collector_keeps_it_paused():
    gc.disable()
    try:
        guarded("t", lambda: 0)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("mode", [[], ["--serial"]])
def test_a_run_leaves_no_core_contexts_for_the_collector(capsys, mode):
    # with the collector paused for a whole command, whatever a launch leaves in reference cycles stays
    # until the command ends (a sweep's worker runs many): the cores' contexts (UB, events) must be freed
    # by reference counting alone
    from toolkit.engine.runtime import CoreContext
    gc.collect()
    gc.disable()
    try:
        main([*mode, "kv_rms_norm_rope_cache", "--batch", "2", "--seq", "8"])
        left = [o for o in gc.get_objects() if isinstance(o, CoreContext)]
    finally:
        gc.enable()
    capsys.readouterr()
    assert left == []
