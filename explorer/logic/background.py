"""A coroutine run in an event loop on a thread of its own, so that a page can show progress while a long
step (the offline backend computes without yielding) holds that loop. No Streamlit here: the page's side
(the status box it polls from) is ``explorer.widgets.scoring_run``."""
from __future__ import annotations

import asyncio
import threading


class BackgroundRun:
    """Starts ``coro`` at once; ``future`` is done when it returns or raises, and cancelling it stops the
    run at its next step. The thread's loop is closed when the run ends."""

    def __init__(self, coro) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._serve, name="vital-scoring", daemon=True)
        self.thread.start()
        self.future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        self.future.add_done_callback(lambda _: self.loop.call_soon_threadsafe(self.loop.stop))

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.run_until_complete(self.loop.shutdown_default_executor())
            self.loop.close()
