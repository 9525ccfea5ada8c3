"""How a step's work is cut into calls that fit: balanced windows of items and, when the client knows the
model's context window, how many claims one verification call takes and how many evidence tokens it and a
nugget-creation call may carry (token counts estimated: characters / 4, within a safety share).

``CallPlanning`` is a part of ``backend.OpenAICompatBackend``: it reads the backend's ``client``,
``settings``, ``verify_window``, ``evidence_token_budget``, ``nugget_token_budget`` and ``max_nuggets``.
"""
from __future__ import annotations

import math

from vital_core.backends.openai import prompts
from vital_core.backends.openai.retrieval import estimate_tokens
from vital_core.results.model import Subclaim


class ContextWindowError(ValueError):
    """Even the smallest call of a step (verification, nugget creation) cannot fit the model's context window."""


# Tokens a verification reply needs: a few for the JSON, about this many per claim (id, verdict, one
# sentence of reason, a quote of up to about 40 words).
REPLY_TOKENS_BASE, REPLY_TOKENS_PER_CLAIM = 60, 110
NUGGET_REPLY_TOKENS = 20     # one short nugget of the creation reply
# The least evidence a call is given before the window is declared too small (a passage cut short).
MIN_EVIDENCE_TOKENS = 80
# Token counts are estimated (characters / 4): plan within this share of the window, the rest a margin.
WINDOW_SAFETY = 0.9


def balanced_windows(items: list, size: int) -> list[list]:
    """Split into the fewest windows of at most ``size``, balanced (22 -> 11 + 11)."""
    if not items:
        return []
    count = math.ceil(len(items) / max(1, size))
    per = math.ceil(len(items) / count)
    return [items[i:i + per] for i in range(0, len(items), per)]


class CallPlanning:
    async def _ask_window(self) -> int | None:
        """The window, asked of the server first (once per process): a run whose replies all come from the
        cache plans its calls, and so its prompts, as the run that filled the cache did."""
        probe = getattr(self.client, "probe_context_window", None)
        if probe is not None:
            await probe()
        return self._context_window()

    def _context_window(self) -> int | None:
        """The model's context window in tokens, when the client knows it (given or learnt)."""
        window = getattr(self.client, "context_window", None)
        return window if isinstance(window, int) and not isinstance(window, bool) and window > 0 else None

    def _reply_tokens(self, claims: int) -> int:
        return min(self.settings.max_tokens, REPLY_TOKENS_BASE + REPLY_TOKENS_PER_CLAIM * claims)

    def _evidence_room(self, query: str, part: list[Subclaim], mode: str) -> int | None:
        """Evidence tokens one call for ``part`` may carry: the budget, less what the context window
        cannot hold (None: no window known, the budget as set)."""
        window = self._context_window()
        if window is None:
            return None
        fixed = (estimate_tokens(prompts.VERIFY_PROMPT.system())
                 + estimate_tokens(prompts.render_verify(query, [(s.id, s.text) for s in part], mode, [])))
        return int(window * WINDOW_SAFETY) - fixed - self._reply_tokens(len(part))

    def _plan_verify(self, query: str, subclaims: list[Subclaim], mode: str,
                     has_passages: bool) -> list[tuple[list[Subclaim], int]]:
        """Calls of at most ``verify_window`` claims, each with its evidence budget; a call that does not
        fit the context window is halved (fewer claims per call), and its evidence cut down to what fits."""
        plan: list[tuple[list[Subclaim], int]] = []
        todo = balanced_windows(subclaims, self.verify_window)
        while todo:
            part = todo.pop(0)
            room = self._evidence_room(query, part, mode)
            if room is None:
                plan.append((part, self.evidence_token_budget))
                continue
            need = MIN_EVIDENCE_TOKENS if has_passages else 0
            if room >= need:
                plan.append((part, max(need, min(self.evidence_token_budget, room))))
            elif len(part) > 1:
                half = math.ceil(len(part) / 2)
                todo[:0] = [part[:half], part[half:]]
            else:
                raise ContextWindowError(
                    f"one claim with {need} evidence tokens and a {self._reply_tokens(1)}-token reply does "
                    f"not fit the model's context window of {self._context_window()} tokens: lower --max-tokens, "
                    "raise --context-window if the model allows more, or use a model with a larger window")
        return plan

    def _nugget_budget(self, query: str, found: list[str]) -> int:
        """Document tokens one nugget-creation call may carry: the budget, less what a known context
        window cannot hold with the prompt and a reply of ``max_nuggets`` short nuggets."""
        window = self._context_window()
        if window is None:
            return self.nugget_token_budget
        fixed = (estimate_tokens(prompts.NUGGETS_CREATE_PROMPT.system())
                 + estimate_tokens(prompts.render_nuggets_create(query, found, [], self.max_nuggets)))
        reply = min(self.settings.max_tokens, REPLY_TOKENS_BASE + NUGGET_REPLY_TOKENS * self.max_nuggets)
        room = int(window * WINDOW_SAFETY) - fixed - reply
        if room < MIN_EVIDENCE_TOKENS:
            raise ContextWindowError(
                f"building nuggets needs a {reply}-token reply and at least {MIN_EVIDENCE_TOKENS} tokens of "
                f"documents, more than the model's context window of {window} tokens holds: lower --max-tokens, "
                "raise --context-window if the model allows more, or use a model with a larger window")
        return min(self.nugget_token_budget, room)
