"""The deadline of one record's work (``--record-timeout``), honoured by CPU-bound code in worker threads.

``asyncio.wait_for`` stops *waiting* for a record when its time is up, but a thread cannot be cancelled:
the offline backend's computation would go on, holding a core and its locks, and ``asyncio.run`` would
wait for it at the end of the run. So the deadline travels with the work (a context variable, copied into
each worker thread) and the offline backend's loops call ``check()``, which raises ``DeadlinePassed`` once
it has passed; and ``in_thread`` runs the work on a daemon thread, so a process whose run is over exits
even while a thread is between two checks.
"""
from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("vital_deadline", default=None)


class DeadlinePassed(TimeoutError):
    """The record's deadline passed while its work was still running."""


@contextmanager
def within(seconds: float | None) -> Iterator[None]:
    """Work started (awaited, or put in a task) inside this block must end within ``seconds`` (None: no
    deadline; an earlier deadline already set stays)."""
    if seconds is None:
        yield
        return
    end = time.monotonic() + seconds
    current = _DEADLINE.get()
    token = _DEADLINE.set(end if current is None else min(current, end))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check() -> None:
    """Raise ``DeadlinePassed`` when the current work's deadline has passed (a no-op without one)."""
    end = _DEADLINE.get()
    if end is not None and time.monotonic() > end:
        raise DeadlinePassed("the record's time (--record-timeout) ran out")


def _settle(future: asyncio.Future, ok: bool, value: Any) -> None:
    if not future.done():          # the awaiting task may have been cancelled at its deadline
        (future.set_result if ok else future.set_exception)(value)


async def in_thread(func: Callable[..., Any], *args: Any) -> Any:
    """``func(*args)`` on a daemon thread of its own, with the caller's context (its deadline)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    context = contextvars.copy_context()

    def work() -> None:
        try:
            outcome = (True, context.run(func, *args))
        except BaseException as exc:   # handed to the awaiting task, as asyncio.to_thread would
            outcome = (False, exc)
        try:
            loop.call_soon_threadsafe(_settle, future, *outcome)
        except RuntimeError:           # the loop is closed: the run is over, nobody waits for this
            pass

    threading.Thread(target=work, name="vital-offline-step", daemon=True).start()
    return await future
