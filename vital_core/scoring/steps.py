"""The steps of the method, one name each, as the pipeline (``vital_core.scoring.pipeline``) runs them.

Results (``backend.steps``), per-step backends (``backends.per_step``), the LLM prompts' marker
lines (``backends.openai.prompts``) and the app's progress all read these names; the number of
progress messages a run announces is ``pipeline.progress_messages``. Adding a step means adding it
here, a ``Backend`` method for it, and its announcements in the pipeline.
"""
from __future__ import annotations

DECOMPOSE, RANK, VERIFY, NUGGETS, ASSIGN, PERTURB = "decompose", "rank", "verify", "nuggets", "assign", "perturb"
# Each step, in the order the pipeline runs it, with the ``Backend`` method that does it.
BACKEND_METHODS = {DECOMPOSE: "decompose", RANK: "rank", VERIFY: "verify", NUGGETS: "make_nuggets",
                   ASSIGN: "assign_nuggets", PERTURB: "perturb"}
STEPS = tuple(BACKEND_METHODS)
# The steps that may run on a backend of their own (``--rank-backend``, ``--verify-backend``).
OWN_BACKEND_STEPS = (RANK, VERIFY)
