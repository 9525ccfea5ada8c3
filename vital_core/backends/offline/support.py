"""When the aligned evidence states a claim: every name and value stated, most of its words
(``SUPPORT_COVERAGE``), its main verb or a close paraphrase, the same polarity; a bare "the + noun" subject
standing for the sentence's named subject; and not when a clause says it of another person (``rivalled``).
The reasons of "not enough evidence" name what is missing and never call absent what the quote writes."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vital_core.backends.offline import conflicts, stated
from vital_core.backends.offline.conflicts import stand_in
from vital_core.backends.offline.evidence_index import EvidenceIndex, joined
from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, lemma_found
from vital_core.backends.offline.language.frames import measure_frame
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.nlp import Tok, main_subject
from vital_core.backends.offline.language.roles import agent_verb
from vital_core.backends.offline.language.values import Value
from vital_core.backends.offline.language.word_rarity import UNKNOWN_RANK, frequency_rank
from vital_core.backends.offline.stated import rest_coverage
from vital_core.backends.offline.verdict import ALIGN_MIN, WINDOW_MARGIN, ClaimVerdict, quote, written_in
from vital_core.results.model import NOT_ENOUGH_EVIDENCE, SUPPORTED

SUPPORT_SIM = 0.40          # an evidence sentence this close may support a claim ...
# ... stating this share of its words (names count 1.5, values 1), less when the sentence is closer
SUPPORT_COVERAGE = ((0.85, 0.55), (0.75, 0.65), (-1.0, 0.75))
# A long claim (this many content words) whose names and values are all stated is a paraphrase when
# its closest sentence is this close and states half its words: rewording a long sentence drops words,
# while the claims that add one unsupported detail are short ("Antonio Salieri taught Beethoven").
LONG_CLAIM_WORDS, LONG_CLAIM_SIM, LONG_CLAIM_COVERAGE = 4, 0.65, 0.50
PREDICATE_FREE = 0.75       # this close, the main verb may be paraphrased beyond the lexicon

CLAUSE_BINDING = 0.6   # a clause holding the claim's value and this share of its other words states the value


def _bound_in_clause(value: Value, claim: Analysis, clauses: list[Analysis]) -> bool:
    """The value stands in a clause that says most of the rest of the claim: "Official dismantling got under
    way in June 1990" states "demolition started in June 1990" though the sentence goes on to 3 October."""
    return any(stated.value_found(value, [clause]) and
               rest_coverage(claim, clause, skip_value=value, soft=True) >= CLAUSE_BINDING for clause in clauses)


def _missing_parts(claim: Analysis, window: list[Analysis], index: EvidenceIndex, aligned: list[Analysis],
                   clauses: list[Analysis]) -> tuple[list[str], list[str], float]:
    """(names and values not stated, words not stated, weighted coverage) of the claim over the window.

    A name the evidence is about (``topics``: "Alan Turing" in a biography, where most sentences say "he")
    counts as stated when it is stated anywhere in the evidence.
    """
    together = joined(window)
    nearby = joined(aligned)
    topic = joined([index.everything, _names_only(index.topics)]) if index.everything else together
    unstated = [n for n in claim.names if not name_found(n, nearby)
                and not (any(name_found(n, _names_only({t})) for t in index.topics) and name_found(n, topic))]
    unstated += [v.text for v in claim.values if not stated.value_bound(v, claim, aligned + [joined(aligned)])
                 and not _bound_in_clause(v, claim, clauses) and not stated.uncounted_one(v, aligned)]
    measure_words = [_measure_words(claim, w) for w in window]
    unneeded = {lemma for skip in measure_words for lemma in skip}
    words = [word for lemma, word in claim.content.items()
             if lemma not in unneeded and not lemma_found(lemma, together, soft=True)]
    coverage = max([rest_coverage(claim, w, skip, soft=True, by_rarity=True) for w, skip in zip(window, measure_words)]
                   + [rest_coverage(claim, together, soft=True, by_rarity=True)])
    return unstated, words, coverage


def _measure_words(claim: Analysis, sentence: Analysis) -> tuple[str, ...]:
    """The claim's words a sentence giving its measure need not say: the measure's frame ("from bow to stern",
    "At its deepest point") and a verb that only gives a measure of the dimension said ("measured 692 feet" /
    "was 692 feet long")."""
    if not any(v.is_measure and stated.value_found(v, [sentence]) for v in claim.values):
        return ()
    verbs = (w for w in claim.content if w in lexicon.MEASURE_VERBS
             and (not lexicon.MEASURE_VERBS[w] or set(lexicon.MEASURE_VERBS[w]) & sentence.lemmas))
    return (*measure_frame(claim, sentence), *verbs)


def _names_only(names) -> Analysis:
    return Analysis(text=" ".join(names), toks=(), names={n: 0 for n in names},
                    words={w.lower() for n in names for w in n.split()})


def _polarity_agrees(claim: Analysis, unit: Analysis) -> bool:
    if claim.negated:
        return bool(unit.negated)
    return not (claim.predicate and claim.predicate in unit.negated)


@dataclass
class SupportSignals:
    """What the aligned evidence says of a claim, measured: the inputs of the support decision."""
    best: float                 # cosine of the closest evidence sentence
    coverage: float             # share of the claim's words stated (rarity-weighted, soft matches)
    unstated: list[str]         # names and values of the claim the evidence does not state
    missing_words: list[str]    # content words not stated in the window, as written in the claim
    predicate_ok: bool
    subject_unsaid: str         # a "the + noun" subject the window does not say, as written, or ""
    polarity_ok: bool
    quote: str                  # the closest evidence sentence
    stating: str                # the window's sentence holding most of the claim's names and values
    replaced: tuple[str, str] | None = None   # (the claim's word, the closest sentence's word in its place)


def window_of(top: list[int], sims: np.ndarray) -> list[int]:
    """The aligned sentences close enough to the best one to support a claim together, best first."""
    best = float(sims[top[0]])
    return [i for i in top if float(sims[i]) >= max(ALIGN_MIN, best - WINDOW_MARGIN)]


def support_signals(claim: Analysis, index: EvidenceIndex, top: list[int], sims: np.ndarray) -> SupportSignals:
    best = float(sims[top[0]])
    in_window = window_of(top, sims)
    window = [index.analyses[i] for i in in_window]
    aligned = [i for i in top if float(sims[i]) >= ALIGN_MIN]
    unstated, words, coverage = _missing_parts(claim, window, index, [index.analyses[i] for i in aligned],
                                               [c for i in aligned for c in index.clauses[i]])
    others_found = sum(lemma_found(w, joined(window), soft=True) for w in claim.content if w != claim.predicate)
    # what a "be" says is its complement: "Thailand's currency is the ringgit" is no paraphrase of "... is the
    # baht", however close the two sentences are; nor "Sweden's currency is the euro" of "... is the krona"
    paraphrased = not complement_predicate(claim) and (best >= PREDICATE_FREE or others_found >= 2)
    predicate_ok = not _rival_complement(claim, index.analyses[top[0]]) and (
        not claim.predicate or lemma_found(claim.predicate, joined(window), soft=True)
        or paraphrased or claim.predicate in lexicon.DIMENSION_WORDS
        or any(stated.same_relation(claim, w) for w in window))
    return SupportSignals(best, coverage, unstated, words, predicate_ok,
                          _subject_unsaid(claim, joined(window), index.analyses[top[0]]),
                          _polarity_agrees(claim, index.analyses[top[0]]), index.sentences[top[0]],
                          index.sentences[_quoted(claim, index, in_window or top[:1])],
                          _replaced_word(claim, joined(window), index.analyses[top[0]]))


_FILLED_SLOTS = ("dobj", "oprd", "pobj", "amod", "compound")


def _slot(a: Analysis, t: Tok) -> tuple[str, ...] | None:
    """Where a word stands: the object of a verb ("called twttr": oprd of "call"), of a preposition on a word
    ("oil of bergamot": of "of" on "oil"), or a word before a noun ("from murex sea snails")."""
    if t.dep not in _FILLED_SLOTS or t.head == t.i:
        return None
    head = a.toks[t.head]
    if t.dep != "pobj":
        return (t.dep, head.lemma)
    return None if head.head == head.i else (head.lemma, a.toks[head.head].lemma)


def _around(a: Analysis, t: Tok) -> tuple[str, ...] | None:
    """The two words before a word and what follows it (a mark of punctuation or the end as one): "extracted
    from cochineal, predatory" and "extracted from murex, predatory" stand the same, however parsed."""
    if t.i < 2 or not a.toks[t.i - 1].text.isalpha() or not a.toks[t.i - 2].text.isalpha():
        return None
    after = a.toks[t.i + 1].text.lower() if t.i + 1 < len(a.toks) else ""
    return a.toks[t.i - 2].text.lower(), a.toks[t.i - 1].text.lower(), after if after.isalnum() else ","


def _replaced_word(claim: Analysis, window: Analysis, closest: Analysis) -> tuple[str, str] | None:
    """A noun of the claim the window does not say, where the closest sentence has another word the claim does
    not say: "comes from oil of neroli" against "comes from oil of bergamot", "was called tweetr" against "was
    called twttr". However many of its other words are stated, the claim says something else there."""
    for t in claim.toks:
        # an object noun or a word before a noun, both words unknown to the vocabulary, names or coinages
        # ("neroli", "twttr", "cochineal"): a known word may be said in other words ("the top" for "the tips",
        # "skeleton" for "framework") or stand in another structure ("for women" where "for men's matches" is)
        if not (t.pos == "NOUN" and t.dep in ("dobj", "oprd", "pobj", "attr") or t.dep in ("amod", "compound")) \
                or frequency_rank(t.lemma) < UNKNOWN_RANK or t.lemma not in claim.content \
                or lemma_found(t.lemma, window):
            # exactly: two words the vocabulary does not know look alike to the embeddings by their spelling
            # alone ("polyvinyl" / "polytetrafluoroethylene")
            continue
        slot, around = _slot(claim, t), _around(claim, t)
        if slot is None and around is None:
            continue
        # a word before its noun stands where a one-word noun may ("is polyvinyl chloride" / "is
        # polytetrafluoroethylene"): the two words before it place it
        modifier = t.dep in ("amod", "compound") and t.head > t.i
        for u in closest.toks:
            there = _around(closest, u)
            if u.pos in ("NOUN", "PROPN", "NUM", "X", "ADJ") and u.text.isalpha() \
                    and frequency_rank(u.lemma) >= UNKNOWN_RANK \
                    and (slot is not None and _slot(closest, u) == slot
                         or around is not None and there is not None
                         and (there == around or modifier and there[:2] == around[:2])) \
                    and u.lemma not in claim.lemmas and u.lemma not in lexicon.synonyms(t.lemma) \
                    and not lemma_found(u.lemma, claim, soft=True):
                return t.text, u.text
    return None


def _subject_unsaid(claim: Analysis, window: Analysis, closest: Analysis) -> str:
    """The claim's "the + noun" subject, a rare word, when the window does not say it and it stands for no name
    there: "The ringgit is divided into 100 satang" is not stated by "... the baht, which is divided into 100
    satang". Not of a "be", whose subject may be a role the complement fills ("The company behind Tetris was
    Elorg")."""
    root = next((t for t in claim.toks if t.dep == "ROOT"), None)
    if root is None or root.lemma in ("be", "become", "remain"):
        return ""
    subject = main_subject(claim.toks)
    # only a word rare enough to name one thing ("ringgit"), not one that describes it ("The search engine was
    # originally called BackRub", "the top of the net")
    if subject is None or subject.pos != "NOUN" or not _names_one_thing(claim, subject) \
            or lemma_found(subject.lemma, window, soft=True) or subject.lemma in stand_in(claim, closest):
        return ""
    return subject.text


def _rival_complement(claim: Analysis, closest: Analysis) -> bool:
    """Does the closest sentence give "be" another definite noun than the claim's, which it does not say: "...
    is the krona" against "Sweden's currency is the euro"?"""
    complement = _definite_complement(claim)
    if complement is None or complement.lemma in closest.lemmas:
        return False
    theirs = _definite_complement(closest)
    return theirs is not None and theirs.lemma not in lexicon.synonyms(complement.lemma)


def _definite_complement(a: Analysis) -> Tok | None:
    """The noun after the main "be" with "the": "is *the* krona"."""
    root = next((t for t in a.toks if t.dep == "ROOT"), None)
    if root is None or root.lemma != "be":
        return None
    return next((t for t in a.toks if t.head == root.i and t.dep == "attr" and t.pos == "NOUN"
                 and any(d.head == t.i and d.lemma == "the" for d in a.toks)), None)


def complement_predicate(claim: Analysis) -> bool:
    """Is the claim's predicate the definite complement of its main "be", a word rare enough to name one thing
    ("is the baht")? A common one may be said in other words ("the largest" / "the biggest"), and an indefinite
    one says what kind it is ("was an eye doctor" / "was an ophthalmologist")."""
    root = next((t for t in claim.toks if t.dep == "ROOT"), None)
    if not claim.predicate or root is None or root.lemma not in ("be", "become", "remain"):
        return False
    complement = next((t for t in claim.toks if t.head == root.i and t.lemma == claim.predicate
                       and t.dep in ("attr", "acomp", "oprd")), None)
    return complement is not None and _names_one_thing(claim, complement, possessive=True)


def _names_one_thing(claim: Analysis, tok: Tok, possessive: bool = False) -> bool:
    """Is ``tok`` a word rare enough to name one thing, made definite by "the" (or, with ``possessive``, by a
    possessive): "the ringgit", "the baht"?"""
    return frequency_rank(tok.lemma) >= UNKNOWN_RANK and any(
        t.head == tok.i and (t.lemma == "the" or possessive and t.dep == "poss") for t in claim.toks)


def _quoted(claim: Analysis, index: EvidenceIndex, window: list[int]) -> int:
    """The sentence a reason quotes: the closest one, unless another sentence of the window states more of the
    claim's names and values (a claim read over two sentences is shown where its value is written)."""
    def held(i: int) -> int:
        a = index.analyses[i]
        return sum(stated.value_found(v, [a]) for v in claim.values) + sum(name_found(n, a) for n in claim.names)
    # the first of the best: max keeps the first of equal keys, and the window is closest first
    return max(window, key=held)


def support(claim: Analysis, index: EvidenceIndex, top: list[int], sims: np.ndarray) -> ClaimVerdict:
    s = support_signals(claim, index, top, sims)
    best, coverage, closest = s.best, s.coverage, s.quote
    needed = next(c for sim, c in SUPPORT_COVERAGE if best >= sim)
    long_paraphrase = (len(claim.content) >= LONG_CLAIM_WORDS and best >= LONG_CLAIM_SIM
                       and coverage >= LONG_CLAIM_COVERAGE and (s.predicate_ok or not complement_predicate(claim)))
    if best >= SUPPORT_SIM and not s.unstated and (coverage >= needed and s.predicate_ok or long_paraphrase) \
            and s.polarity_ok and not s.subject_unsaid and not s.replaced:
        return ClaimVerdict(SUPPORTED, f"supported: the evidence states it (similarity {best:.2f}, "
                                       f"{coverage:.0%} of its words) — \"{quote(s.stating)}\"", s.stating, best)
    named = said_of_named_subject(claim, index.analyses[top[0]])
    if best >= SUPPORT_SIM and named and s.polarity_ok:
        return ClaimVerdict(SUPPORTED, f"supported: the evidence states it of {named}, the claim's subject "
                                       f"(similarity {best:.2f}) — \"{quote(closest)}\"", closest, best)
    # a reason never calls absent what the evidence writes: a value it gives for something else
    # ("Pluto, found in 1930, ..." against "discovered in 1930 by ...") is named as given, not as missing
    evidence_text = index.everything.text if index.everything else closest
    absent = [x for x in s.unstated if not written_in(x, evidence_text)]
    elsewhere = [x for x in s.unstated if written_in(x, evidence_text)]
    verb = claim.content.get(claim.predicate, claim.predicate)
    words_absent = [w for w in s.missing_words if not written_in(w, closest)]
    if s.replaced:
        reason = f"not enough evidence: the evidence says '{s.replaced[1]}' where the claim says '{s.replaced[0]}'"
    elif absent:
        reason = f"not enough evidence: the evidence does not mention {'; '.join(absent)}"
    elif elsewhere:
        reason = (f"not enough evidence: the evidence gives {'; '.join(elsewhere)}, but not in a sentence that "
                  f"states the rest of the claim")
    elif not s.predicate_ok and not written_in(verb, closest):
        reason = f"not enough evidence: the evidence does not say '{verb}'"
    elif s.subject_unsaid and not written_in(s.subject_unsaid, closest):
        reason = f"not enough evidence: the evidence does not say '{s.subject_unsaid}'"
    elif words_absent:
        absent = ", ".join(repr(w) for w in words_absent[:4])
        reason = f"not enough evidence: the closest evidence does not say {absent}"
    else:
        reason = "not enough evidence: the closest evidence does not state the claim the same way"
    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"{reason} (closest: \"{quote(closest)}\", similarity {best:.2f})",
                        closest, best)


def said_of_named_subject(claim: Analysis, sentence: Analysis) -> str:
    """The sentence's named subject, when the claim's bare "the + noun" subject stands for it and the sentence
    states all the rest of the claim, a value or a name among it: "The figure is only 11.1 centimetres tall"
    against "The Venus of Willendorf is 11.1 centimetres tall"."""
    skip = stand_in(claim, sentence) if claim.values or claim.names else ()
    if not skip:
        return ""
    # a measure's dimension as said ("a height" is "tall", "tall" is no "wide"), every other word at least by a
    # close one
    senses = lexicon.dimension_senses(t.lemma for t in sentence.toks)
    mine = lexicon.dimension_senses(claim.content)
    # "reaches a height of 553 metres": a measure verb with its dimension named is said by that dimension
    if mine and mine <= senses:
        skip = (*skip, *(w for w in claim.content if w in lexicon.MEASURE_VERBS))
    if rest_coverage(claim, sentence, skip, soft=True) >= 1.0 and all(
            lexicon.DIMENSION_SENSES[w] in senses if w in lexicon.DIMENSION_SENSES
            else lemma_found(w, sentence, soft=w not in lexicon.DIMENSION_WORDS)
            for w in claim.content if w not in skip):
        return sentence.subject
    return ""


def _agent_of_another_verb(claim: Analysis, sentence: Analysis) -> str:
    """What the sentence says when the claim's agent (named by "by", or the subject of an active verb) is there
    the agent of another verb, and the claim's verb has an agent of its own: "published by Maxis" or "Maxis
    created it" against "developed by Maxis and published by Electronic Arts"."""
    agents = {n: agent_verb(sentence, n) for n in sentence.names}
    for name in claim.names:
        mine = agent_verb(claim, name) or _active_subject_verb(claim, name)
        theirs = next((verb for n, verb in agents.items() if name_found(name, stated.as_name(n))), "")
        if not mine or not theirs or theirs in lexicon.synonyms(mine):
            continue
        other = next((n for n, verb in agents.items() if verb in lexicon.synonyms(mine)), "")
        if other:
            return f"it names {other} for '{agents[other]}' and {name} for '{theirs}'"
    return ""


def _active_subject_verb(claim: Analysis, name: str) -> str:
    """The active main verb whose subject ``name`` is ("Kosmos created Catan": "create"), or ""."""
    subject = main_subject(claim.toks)
    root = next((t for t in claim.toks if t.dep == "ROOT"), None)
    if subject is None or root is None or root.pos != "VERB" or claim.names.get(name) != subject.i \
            or any(t.head == root.i and t.dep == "auxpass" for t in claim.toks):
        return ""
    return root.lemma


RIVAL_CLAUSE_COVERAGE = 0.5   # a clause stating this much of the claim with another person in its role
JOINED_RIVAL_COVERAGE = 0.75  # ... in a sentence the closest one is joined with: most of the claim


def rivalled(claim: Analysis, index: EvidenceIndex, window: list[int], sim: float) -> ClaimVerdict | None:
    """Not supported after all: a clause of a sentence that supports the claim says it with another person in
    the claim's person's role, and that person is named only outside it ("Armstrong was the first to climb
    down onto the surface; Aldrin followed" does not state that Aldrin was first; "Suryavarman II had Angkor
    Wat built ..." beside "Jayavarman VII built Angkor Thom" does not state that Jayavarman VII built it). Too
    little stated for a contradiction, so not enough evidence."""
    by_another = _agent_of_another_verb(claim, index.analyses[window[0]])
    if by_another:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"not enough evidence: the evidence says {by_another} — "
                                                 f"\"{quote(index.sentences[window[0]])}\"",
                            index.sentences[window[0]], sim)
    # the closest sentence clause by clause; one it is joined with (a claim read over two) whole too, unless
    # the closest sentence states the claim by itself
    joined_too = len(window) > 1 and rest_coverage(claim, index.analyses[window[0]], soft=True) < JOINED_RIVAL_COVERAGE
    for i in window if joined_too else window[:1]:
        for clause in index.clauses[i] if i == window[0] else index.clauses[i] or [index.analyses[i]]:
            for name in claim.names:
                if name_found(name, clause) or not lexicon.person_like(name):
                    continue
                rivals = [r for r in conflicts.competing_names(claim, clause, name) if lexicon.person_like(r)]
                needed = RIVAL_CLAUSE_COVERAGE if i == window[0] else JOINED_RIVAL_COVERAGE
                if rivals and rest_coverage(claim, clause, skip_names=(name,), soft=True) >= needed:
                    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"not enough evidence: the evidence says this of "
                                                             f"{rivals[0]}, not of {name} — "
                                                             f"\"{quote(index.sentences[i])}\"",
                                        index.sentences[i], sim)
    return None
