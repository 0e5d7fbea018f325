"""What a launch tells whoever listens while it runs: a core finished (:func:`core_done`). A no-op unless a
command listens (:func:`listening`), so the engine never depends on how progress is shown
(``toolkit.console.progress`` turns cores into its own unit: rows, cores or launches)."""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Callable, Iterator

CoreListener = Callable[[int, int], None]          #: (core, block_num) of a core that finished
_LISTENER: contextvars.ContextVar[CoreListener | None] = contextvars.ContextVar("progress", default=None)


def core_done(core: int, block_num: int) -> None:
    """Called by a launch loop when core ``core`` of ``block_num`` finished (aborted included)."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(core, block_num)


def current_listener() -> CoreListener | None:
    """The listener of this context (a worker process of a lineup forwards its cores to it)."""
    return _LISTENER.get()


@contextmanager
def listening(listener: CoreListener) -> Iterator[None]:
    """Send the :func:`core_done` calls made inside the block to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
