"""The evidence as the verifier reads it: sentences, their vectors, analyses and clauses, and what it is about.

``build_index`` splits each document into sentences (pronouns resolved to the
last named subject), embeds and analyses them, reads each sentence's dates
after what its document said before, and finds the evidence's topic (the name
it gives most often, and document titles). ``joined`` reads several analysed
sentences as one text.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vital_core.backends.offline.decompose import split_sentences
from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, analyse_texts
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.evidence_units import clauses_of
from vital_core.backends.offline.language.pronouns import resolve_pronouns
from vital_core.backends.offline.language.value_match import DateContext, in_context
from vital_core.results.model import Document

TOPIC_MENTIONS = 3          # the most frequent name is the evidence's topic when named this often


@dataclass
class EvidenceIndex:
    sentences: list[str]
    vectors: np.ndarray
    analyses: list[Analysis]
    clauses: list[list[Analysis]]
    everything: Analysis | None = None     # all sentences as one text
    topics: set[str] = frozenset()         # what the evidence is about: its most frequent name, document titles


def build_index(documents: list[Document]) -> EvidenceIndex:
    sentences: list[str] = []
    # each document's sentences, as read and (if a pronoun was) as written
    narratives: list[list[tuple[str, str]]] = []
    for doc in documents:
        written = split_sentences(doc.text)
        narratives.append([])
        for original, sentence in zip(written, resolve_pronouns(written)):
            narratives[-1].append((sentence, original if sentence != original else ""))
            sentences.append(sentence)
    sentences = list(dict.fromkeys(s for s in sentences if s.strip()))
    if not sentences:
        sentences = [d.title.strip() for d in documents if d.title.strip()]
    vectors = embed(sentences) if sentences else np.zeros((0, 384), dtype=np.float32)
    pieces = [clauses_of(s) for s in sentences]
    flat = analyse_texts(sentences + [c for p in pieces for c in p])
    analyses, rest = flat[:len(sentences)], flat[len(sentences):]
    by_text = dict(zip(sentences, analyses))
    _dates_in_context(narratives, by_text)
    clauses, at = [], 0
    for p in pieces:
        clauses.append(rest[at:at + len(p)])
        at += len(p)
    # the topic is the person or thing named most often, counted by its last word ("Johann Sebastian Bach",
    # then "Bach" in every other sentence), and written as the evidence first gives it in full
    counts: dict[str, int] = {}
    first_full: dict[str, str] = {}
    for a in analyses:
        for name in a.names:
            key = name.split()[-1].lower()
            counts[key] = counts.get(key, 0) + 1
            if key not in first_full or len(first_full[key].split()) < 2 <= len(name.split()):
                first_full[key] = name
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    topics = {first_full[ranked[0][0]]} if ranked and ranked[0][1] >= TOPIC_MENTIONS else set()
    topics |= {d.title for d in documents if d.title}
    _with_possible_antecedents(narratives, by_text, dict(zip(sentences, clauses)))
    return EvidenceIndex(sentences, vectors, analyses, clauses, joined(analyses) if analyses else None, topics)


def _dates_in_context(narratives: list[list[tuple[str, str]]], by_text: dict[str, Analysis]) -> None:
    """Each sentence's dates read after what its document said before it (``value_match.in_context``)."""
    done: set[str] = set()
    for narrative in narratives:
        context = DateContext()
        for text, _ in narrative:
            a = by_text.get(text)
            if a is None:
                continue
            if text not in done:
                a.values = in_context(a.values, a.text, context)
                done.add(text)
            context = context.after(a.values)


def _with_possible_antecedents(narratives: list[list[tuple[str, str]]], by_text: dict[str, Analysis],
                               clauses: dict[str, list[Analysis]]) -> None:
    """A sentence whose "he"/"she" was read as the last named subject also names the other people of the
    sentence that named them: in "Pope Julius II hired Michelangelo ... Working from 1508, he stood upright"
    the pronoun may be either, and a claim naming either is not unstated there. The name read for the
    pronoun is a guess, so it never contradicts a claim (``Analysis.guessed``)."""
    for narrative in narratives:
        people: list[str] = []
        for text, original in narrative:
            a = by_text.get(text)
            if a is None:
                continue
            own = [n for n in a.names if len(n.split()) >= 2 and lexicon.person_like(n)]
            if original:
                guessed = {n for n in a.names if n not in original}
                for unit in [a, *clauses.get(text, [])]:
                    unit.guessed |= guessed
                own = [n for n in own if n not in guessed]
                head = next(iter(a.names.values()), 0)
                for name in people:
                    if name not in a.names:
                        a.names[name] = head
                        a.words |= {w.lower() for w in name.split()}
                        a.name_keys |= lexicon.expansions(name, words=True)
            if own:
                people = own


def joined(units: list[Analysis]) -> Analysis:
    """Several sentences read as one text (for a claim that combines them)."""
    if len(units) == 1:
        return units[0]
    return Analysis(text=" ".join(u.text for u in units), toks=(), lemmas=set().union(*(u.lemmas for u in units)),
                    words=set().union(*(u.words for u in units)), names={n: 0 for u in units for n in u.names},
                    name_keys=set().union(*(u.name_keys for u in units)), values=[v for u in units for v in u.values],
                    negated=set().union(*(u.negated for u in units)))
