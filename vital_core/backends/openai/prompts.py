"""The LLM backend's prompts: one per pipeline step, each versioned, each here only.

The method comes from the VITAL paper (decompose -> rank and label by query
importance -> verify -> nuggets; perturbation from its appendix A) and the
AutoNuggetizer it builds on; the wording is the project's own.

Every system prompt starts with a marker line ``[vital-explorer step=NAME
v=VERSION]`` so a log, the cache or the test mock provider can tell which step
asked. User messages lay their inputs out in fixed blocks (``Query:``,
``Claims:`` with ``[S1] ...`` lines, ``<passage>`` / ``<document>`` tags) that
``tests/support/mock_provider.py`` reads back.

Changing a prompt's wording means bumping its ``version``: the version is part
of the cache key, so old cached answers are not reused for a new prompt.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from vital_core.results.model import ASSIGNMENTS, IMPORTANCE_LABELS, JUDGED_VERDICTS, MISSING, NUGGET_IMPORTANCE, WRONG
from vital_core.scoring.steps import ASSIGN, DECOMPOSE, NUGGETS, PERTURB, RANK, VERIFY  # noqa: F401  (prompts.RANK, ...)

# Version of the prompt set as a whole (recorded in results as backend.prompt_version).
PROMPT_SET_VERSION = "vital-explorer-prompts/1"

# Prompt names are the pipeline's step names (``vital_core.scoring.steps``); the nuggets step asks twice.
NUGGETS_CREATE, NUGGETS_LABEL = f"{NUGGETS}_create", f"{NUGGETS}_label"

MARKER_RE = re.compile(r"\[vital-explorer step=(?P<step>[a-z_]+) v=(?P<version>[^\]\s]+)\]")


def _obj(properties: dict, required: list[str] | None = None) -> dict:
    """A strict JSON-schema object (every property required, nothing extra)."""
    return {"type": "object", "properties": properties,
            "required": list(required or properties), "additionalProperties": False}


def _array(items: dict) -> dict:
    return {"type": "array", "items": items}


_STR = {"type": "string"}


@dataclass(frozen=True)
class Prompt:
    step: str
    version: str
    instructions: str        # the system prompt without its marker line
    schema: dict             # JSON schema of the expected reply
    example_reply: dict      # shown in the system prompt so text-only endpoints answer in shape

    @property
    def marker(self) -> str:
        return f"[vital-explorer step={self.step} v={self.version}]"

    @property
    def schema_name(self) -> str:
        return f"vital_{self.step}"

    def system(self) -> str:
        return (f"{self.marker}\n{self.instructions.strip()}\n\n"
                "Reply with one JSON object and nothing else, shaped like this example:\n"
                f"{json.dumps(self.example_reply, ensure_ascii=False)}")

    def response_format(self) -> dict:
        return {"type": "json_schema",
                "json_schema": {"name": self.schema_name, "strict": True, "schema": self.schema}}


def step_of(system_text: str) -> str | None:
    """Which step a system prompt belongs to (None if it has no marker).

    Kept next to ``Prompt.marker`` so the marker's format is known in one place;
    the mock provider (tests, benchmarks) tells the steps apart with it.
    """
    m = MARKER_RE.search(system_text or "")
    return m.group("step") if m else None


# ---------------------------------------------------------------- 1. decompose

DECOMPOSE_PROMPT = Prompt(
    step=DECOMPOSE, version="1",
    instructions="""
You prepare an answer for fact-checking by breaking it into atomic claims.

You receive a query, the whole answer as context, and some numbered sentences of
that answer. For each numbered sentence, write the claims it makes:
- one claim states exactly one fact (split lists and compound statements);
- every claim is a complete sentence that makes sense on its own: replace
  pronouns and vague references ("he", "it", "the band", "this city") with the
  names they point to, taken from the context;
- stay close to the answer's wording; never add facts the sentence does not
  state, and do not judge whether a claim is true;
- a sentence with no factual content (a greeting, a question, pure opinion) gets
  an empty list.
Report every numbered sentence once, under its number, in order.
""",
    schema=_obj({"sentences": _array(_obj({"sentence": {"type": "integer"},
                                           "claims": _array(_STR)}))}),
    example_reply={"sentences": [{"sentence": 1, "claims": ["Marie Curie was a physicist.",
                                                           "Marie Curie was born in Warsaw."]},
                                 {"sentence": 2, "claims": ["Marie Curie won two Nobel Prizes."]}]},
)

# ---------------------------------------------------------------- 2. rank and label

RANK_PROMPT = Prompt(
    step=RANK, version="1",
    instructions="""
A fact-checking pipeline works in four steps: (1) an answer was broken into
claims; (2) the claims are ordered by how much they matter for the query -
this is your step; (3) a later step checks whether each claim is true;
(4) the answer is scored with the claims weighted by importance.

Importance here is about the query only, never about truth. A claim that
directly answers the query is important even if it may be false; checking
truth is step 3's job, so do not move a claim up or down because you doubt it.

Label every claim with exactly one of:
- "vital": it addresses the core of the query; an answer without it would fail
  the person asking;
- "okay": helpful supporting detail that is not essential;
- "less-important": background, context or side information.

Order the claims:
- every "vital" claim first, then every "okay" claim, then every
  "less-important" claim; inside each label, the more important first;
- claims about the same aspect of the query stay together, in the order they
  were given, even when they disagree with each other (for instance two
  claims naming different capitals of the same country stay side by side).

Use every claim id you were given exactly once; do not invent, merge or drop
claims, and use no label other than the three above.
""",
    schema=_obj({"ranking": _array(_obj({"id": _STR,
                                         "label": {"type": "string", "enum": list(IMPORTANCE_LABELS)}}))}),
    example_reply={"ranking": [{"id": "S2", "label": "vital"}, {"id": "S1", "label": "okay"},
                               {"id": "S3", "label": "less-important"}]},
)

# ---------------------------------------------------------------- 3. verify

VERIFY_PROMPT = Prompt(
    step=VERIFY, version="1",
    instructions="""
You check claims against a source. For each claim give:
- "verdict": "supported" when the source states the claim or it follows
  directly from it; "contradicted" when the source states something that cannot
  be true together with the claim; "not_enough_evidence" when the source
  neither confirms nor rules it out;
- "reason": one short sentence explaining the verdict;
- "evidence": the words of the source that decide it, copied exactly (at most
  about 40 words); an empty string when there are none.
Judge each claim on its own, by the source alone, and give every claim id
exactly once.

When the message says no source is given, judge from your own knowledge
instead: "supported" only if you are confident the claim is true,
"contradicted" only if you are confident it is false, otherwise
"not_enough_evidence"; leave "evidence" empty.
""",
    schema=_obj({"verdicts": _array(_obj({
        "id": _STR, "verdict": {"type": "string", "enum": list(JUDGED_VERDICTS)},
        "reason": _STR, "evidence": _STR}))}),
    example_reply={"verdicts": [{"id": "S1", "verdict": "supported",
                                 "reason": "The passage gives the same birthplace.",
                                 "evidence": "she was born in Warsaw"},
                                {"id": "S2", "verdict": "not_enough_evidence",
                                 "reason": "The passages do not mention her prizes.", "evidence": ""}]},
)

# ---------------------------------------------------------------- 4a. nuggets

NUGGETS_CREATE_PROMPT = Prompt(
    step=NUGGETS_CREATE, version="1",
    instructions="""
You build the list of nuggets for a query: short, self-contained facts that a
good answer to the query should contain, each taken from the documents.

You receive the query, the nuggets found so far (possibly none) and a batch
of documents. Return the updated list:
- keep the nuggets found so far (you may sharpen their wording);
- add facts from these documents that help answer the query;
- no duplicates or near-duplicates; each nugget is one fact in a short
  sentence (about 12 words at most);
- never more nuggets in total than the limit stated in the message; when over
  it, keep the facts that matter most for the query.
""",
    schema=_obj({"nuggets": _array(_STR)}),
    example_reply={"nuggets": ["Marie Curie discovered polonium.", "Marie Curie won two Nobel Prizes."]},
)

NUGGETS_LABEL_PROMPT = Prompt(
    step=NUGGETS_LABEL, version="1",
    instructions="""
You grade nuggets (short facts) by how much a good answer to the query needs
them:
- "vital": any good answer must contain it;
- "okay": good to have, but an answer can do without it.
Grade every nugget id exactly once, using only these two labels.
""",
    schema=_obj({"labels": _array(_obj({"id": _STR, "importance": {"type": "string",
                                                                     "enum": list(NUGGET_IMPORTANCE)}}))}),
    example_reply={"labels": [{"id": "N0", "importance": "vital"}, {"id": "N1", "importance": "okay"}]},
)

# ---------------------------------------------------------------- 4b. assignment

ASSIGN_PROMPT = Prompt(
    step=ASSIGN, version="1",
    instructions="""
You check which nuggets (short facts) a response contains. For each nugget:
- "support": the response states the fact fully;
- "partial_support": the response states part of it or only implies it;
- "not_support": the response does not state it, or states something else.
Give every nugget id exactly once.
""",
    schema=_obj({"assignments": _array(_obj({"id": _STR, "assignment": {"type": "string",
                                                                          "enum": list(ASSIGNMENTS)}}))}),
    example_reply={"assignments": [{"id": "N0", "assignment": "support"},
                                   {"id": "N1", "assignment": "not_support"}]},
)

# ---------------------------------------------------------------- 5. perturb

_PERTURB_SHAPE = _obj({"modified_response": _STR})

PERTURB_MISSING_PROMPT = Prompt(
    step=PERTURB, version="missing-1",
    instructions="""
You make test data for factuality metrics. You receive a query and an answer.
Remove from the answer the information that matters most for answering the
query - usually the sentence, or the part of a sentence, that gives the
answer itself - and leave every other word exactly as it was. Do not add,
reword or reorder anything. The result must be shorter than the answer.

Example
Query: What is the largest desert in Asia?
Answer: The Gobi is the largest desert in Asia. It stretches across northern
China and southern Mongolia. Much of it is bare rock rather than sand.
Modified answer: It stretches across northern China and southern Mongolia.
Much of it is bare rock rather than sand.
""",
    schema=_PERTURB_SHAPE,
    example_reply={"modified_response": "It stretches across northern China and southern Mongolia. "
                                        "Much of it is bare rock rather than sand."},
)

PERTURB_WRONG_PROMPT = Prompt(
    step=PERTURB, version="wrong-1",
    instructions="""
You make test data for factuality metrics. You receive a query and an answer.
Change the key piece of information that answers the query into a plausible
but false one (a different name, number, date or place of the same kind), so
that the answer becomes factually wrong. Change one sentence only - usually
the first - and as few words as possible; copy everything else exactly.

Example
Query: What is the largest desert in Asia?
Answer: The Gobi is the largest desert in Asia. It stretches across northern
China and southern Mongolia. Much of it is bare rock rather than sand.
Modified answer: The Taklamakan is the largest desert in Asia. It stretches
across northern China and southern Mongolia. Much of it is bare rock rather
than sand.
""",
    schema=_PERTURB_SHAPE,
    example_reply={"modified_response": "The Taklamakan is the largest desert in Asia. It stretches "
                                        "across northern China and southern Mongolia."},
)

PERTURB_PROMPTS = {MISSING: PERTURB_MISSING_PROMPT, WRONG: PERTURB_WRONG_PROMPT}


# ---------------------------------------------------------------- user messages
# Block headers, shared with the mock provider that parses them back.
QUERY_HEADER = "Query:"
SENTENCES_HEADER = "Sentences to decompose:"
CLAIMS_HEADER = "Claims:"
NUGGETS_HEADER = "Nuggets:"
NO_SOURCE_NOTE = "No source is given: judge from your own knowledge."


def one_line(text: str) -> str:
    """Collapse whitespace so every listed item stays on one line."""
    return " ".join(str(text).split())


def _items(pairs) -> str:
    return "\n".join(f"[{key}] {one_line(text)}" for key, text in pairs) or "(none)"


def render_decompose(query: str, context: str, sentences: list[tuple[int, str]]) -> str:
    return (f"{QUERY_HEADER} {one_line(query)}\n\n"
            f"Whole answer, for context only:\n<context>\n{context.strip()}\n</context>\n\n"
            f"{SENTENCES_HEADER}\n{_items(sentences)}")


def render_rank(query: str, claims: list[tuple[str, str]]) -> str:
    return f"{QUERY_HEADER} {one_line(query)}\n\n{CLAIMS_HEADER}\n{_items(claims)}"


def render_passages(passages) -> str:
    """``passages``: objects with ``id``, ``source`` and ``text``."""
    return "\n".join(f'<passage id="{p.id}" source="{p.source}">\n{p.text.strip()}\n</passage>'
                     for p in passages)


def render_verify(query: str, claims: list[tuple[str, str]], source_kind: str, passages) -> str:
    """``source_kind``: "documents" or "reference" (passages given) or "none"."""
    if source_kind == "none" or not passages:
        source = NO_SOURCE_NOTE
    else:
        label = ("Source: passages retrieved from the documents"
                 if source_kind == "documents" else "Source: the reference text")
        source = f"{label}\n{render_passages(passages)}"
    return (f"{QUERY_HEADER} {one_line(query)}\n\n{source}\n\n"
            f"{CLAIMS_HEADER}\n{_items(claims)}")


def render_nuggets_create(query: str, current: list[str], documents, limit: int) -> str:
    """``documents``: objects with ``id``, ``source`` and ``text`` (whole documents or passages)."""
    docs = "\n".join(f'<document id="{d.source}">\n{d.text.strip()}\n</document>' for d in documents)
    return (f"{QUERY_HEADER} {one_line(query)}\n\n"
            f"Limit: at most {limit} nuggets in total.\n\n"
            f"Nuggets found so far:\n{_items((f'N{i}', t) for i, t in enumerate(current))}\n\n"
            f"Documents:\n{docs}")


def render_nuggets_label(query: str, nuggets: list[tuple[str, str]]) -> str:
    return f"{QUERY_HEADER} {one_line(query)}\n\n{NUGGETS_HEADER}\n{_items(nuggets)}"


def render_assign(query: str, nuggets: list[tuple[str, str]], response: str) -> str:
    return (f"{QUERY_HEADER} {one_line(query)}\n\n"
            f"Response:\n<response>\n{response.strip()}\n</response>\n\n"
            f"{NUGGETS_HEADER}\n{_items(nuggets)}")


def render_perturb(query: str, response: str) -> str:
    return f"{QUERY_HEADER} {one_line(query)}\n\nAnswer:\n<answer>\n{response.strip()}\n</answer>"


# ---------------------------------------------------------------- follow-ups

def violation_followup(problems: list[str]) -> str:
    """The message sent after a reply that broke the rules, stating what was wrong."""
    listed = "\n".join(f"- {p}" for p in problems)
    return ("Your reply broke the rules:\n" + listed +
            "\nReply again with the complete JSON object, fixing these problems.")


INVALID_JSON_FOLLOWUP = ("Your previous reply could not be read as the requested JSON object ({error}). "
                         "Reply again with only that JSON object.")
TRUNCATED_FOLLOWUP = ("Your previous reply was cut off at the length limit. Reply again with the "
                      "complete JSON object, keeping reasons and quotes short.")
