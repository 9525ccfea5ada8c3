"""Claim verification against evidence by alignment and typed comparison.

For each claim the evidence sentences best aligned with it (MiniLM cosine;
leading pronouns of evidence sentences resolved first) are retrieved. Then
the first rule that fires decides:

1. ``contradicted`` — number / date / name mismatch: closely aligned
   evidence states another value where the claim's own value appears nowhere
   in the evidence ("around 1600" stays compatible with "1599-1601");
2. ``contradicted`` — title mismatch: a quoted title given differently;
3. ``contradicted`` — negation mismatch: the same statement negated on one
   side only (judged on the matching clause, and only when what is negated is
   what the other side states);
4. ``contradicted`` — opposite wording, from a small list (``ANTONYMS``);
5. ``contradicted`` — substituted wording (reference mode only): the claim's
   response sentence follows a reference sentence closely but swaps a short
   span for words the reference never uses, and the claim carries them;
6. ``supported`` — closely aligned (cosine plus share of the claim's content
   words found), every number, date and name it states found, and no rare
   word that the evidence never uses;
7. ``not_enough_evidence`` otherwise, saying what was not found.

The reason names the rule that fired and quotes the evidence sentence. With
no evidence at all the backend has nothing to check against and says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vital_core.model import CONTRADICTED, NOT_ENOUGH_EVIDENCE, SUPPORTED, Document
from vital_core.backends.offline.answer_types import Mentions, extract_mentions, name_tokens, negation_scope, words
from vital_core.backends.offline.embedder import embed
from vital_core.backends.offline.importance import STOPWORDS
from vital_core.backends.offline.decompose import resolve_pronouns, split_sentences
from vital_core.backends.offline.word_rarity import is_rare

NO_EVIDENCE_REASON = "no evidence given (offline backend has no world knowledge)"

# Cosine thresholds (MiniLM): below ALIGN_MIN nothing in the evidence is about
# the claim; above CONFLICT_MIN a typed mismatch is read as a contradiction.
ALIGN_MIN = 0.45
CONFLICT_MIN = 0.55
# Supported: cosine >= 0.60 with >= 80% of the claim's content words found
# in the aligned window, cosine >= 0.85 with >= 60% found, or >= 0.50 with all.
SUPPORT_SIM_WITH_COVERAGE = 0.60
SUPPORT_COVERAGE = 0.80
SUPPORT_SIM = 0.85
SUPPORT_COVERAGE_HIGH_SIM = 0.60
SUPPORT_SIM_ALL_WORDS = 0.50      # every content word found: a looser cosine will do
NEGATION_MIN = 0.70
ANTONYM_MIN = 0.65
TOP_K = 3
# Substituted wording (reference mode): the claim, or the response sentence it
# comes from, follows a reference sentence this closely (cosine, and share of
# its content words found there) yet says other content words in one place.
SUBSTITUTION_SENTENCE_MIN = 0.75
SUBSTITUTION_SHARED = 0.60
SUBSTITUTION_SPAN = 3
WINDOW_MARGIN = 0.05

# Word pairs with opposite meaning; compared by their first five letters.
ANTONYMS = (
    ("increase", "decrease"), ("rise", "fall"), ("rise", "decline"), ("more", "fewer"),
    ("higher", "lower"), ("high", "low"), ("largest", "smallest"), ("large", "small"),
    ("major", "minor"), ("rapid", "slow"), ("fast", "slow"), ("quick", "slow"),
    ("automatic", "deliberate"), ("early", "late"), ("earliest", "latest"), ("before", "after"),
    ("always", "never"), ("widely", "rarely"), ("common", "rare"), ("commonly", "rarely"),
    ("often", "rarely"), ("frequently", "rarely"), ("male", "female"), ("east", "west"),
    ("north", "south"), ("won", "lost"), ("win", "lose"), ("victory", "defeat"),
    ("success", "failure"), ("positive", "negative"), ("strong", "weak"), ("hot", "cold"),
    ("warm", "cold"), ("wet", "dry"), ("ancient", "modern"), ("true", "false"),
    ("legal", "illegal"), ("allowed", "prohibited"), ("permitted", "prohibited"),
    ("including", "excluding"), ("include", "exclude"), ("inhabit", "avoid"),
    ("support", "oppose"), ("accept", "reject"), ("different", "identical"),
    ("different", "same"), ("landmark", "minor"), ("significant", "slight"),
    ("significantly", "slightly"), ("fundamentally", "slightly"), ("abundant", "scarce"),
    ("stability", "instability"), ("peace", "war"), ("enemy", "ally"), ("entered", "left"),
    ("gain", "loss"), ("maximum", "minimum"), ("above", "below"), ("inside", "outside"),
    ("open", "closed"), ("alive", "dead"), ("born", "died"), ("beginning", "end"),
    ("start", "end"), ("first", "last"), ("private", "public"), ("rural", "urban"),
    ("domestic", "foreign"), ("native", "foreign"), ("few", "several"), ("few", "many"),
)


@dataclass
class ClaimVerdict:
    verdict: str
    reason: str
    evidence: str
    similarity: float = 0.0   # cosine of the claim with its best-aligned evidence sentence


@dataclass
class EvidenceIndex:
    """Evidence sentences with their vectors and mentions."""
    sentences: list[str]
    vectors: np.ndarray
    mentions: list[Mentions]
    all_mentions: Mentions
    all_stems: set[str]
    all_text: str


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> set[str]:
    return {_stem(w) for w in words(text) if w not in STOPWORDS}


def _key(word: str) -> str:
    """A crude lemma: the first five letters ("conserved" ~ "conservation")."""
    return word[:5] if len(word) > 5 else _stem(word)


def keys(text: str) -> set[str]:
    return {_key(w) for w in words(text) if w not in STOPWORDS}


def _antonym_keys() -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for a, b in ANTONYMS:
        table.setdefault(_key(a), set()).add(_key(b))
        table.setdefault(_key(b), set()).add(_key(a))
    return table


ANTONYM_KEYS = _antonym_keys()
_QUOTE = re.compile(r"[\"“]([^\"“”]{2,80})[\"”]")


@lru_cache(maxsize=256)
def _mentions(text: str) -> Mentions:
    return extract_mentions(text)


def build_index(documents: list[Document]) -> EvidenceIndex:
    sentences: list[str] = []
    for doc in documents:
        if doc.title.strip():
            sentences.append(doc.title.strip())
        # "It was completed in 1889": the pronoun is replaced by the previous
        # sentence's named subject, so that the sentence aligns with its claims.
        sentences.extend(resolve_pronouns(split_sentences(doc.text)))
    sentences = list(dict.fromkeys(s for s in sentences if s.strip()))
    vectors = embed(sentences) if sentences else np.zeros((0, 384), dtype=np.float32)
    mentions = [_mentions(s) for s in sentences]
    union = Mentions()
    for m in mentions:
        union.years |= m.years
        union.dates |= m.dates
        union.numbers |= m.numbers
        union.ordinals |= m.ordinals
        union.names |= m.names
        union.places |= m.places
    all_text = " ".join(sentences)
    return EvidenceIndex(sentences, vectors, mentions, union, stems(all_text), all_text.lower())


def _fmt_num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _names_missing(claim_names: set[str], evidence: Mentions, evidence_text: str) -> set[str]:
    """Claim names not in the evidence: neither the whole name nor each of its words appears.

    Each word must appear: "Bob Tenor" is not found in evidence about "Walt Tenor".
    """
    missing = set()
    for name in claim_names:
        if re.search(rf"\b{re.escape(name)}\b", evidence_text):
            continue
        toks = name_tokens({name})
        if toks and all(re.search(rf"\b{re.escape(t)}\b", evidence_text) for t in toks):
            continue
        missing.add(name)
    return missing


_CLAUSE_BREAK = re.compile(r"[;:,]|\s(?:but|while|whereas|although|though|instead|yet)\s")


def _matching_clause(claim_stems: set[str], sentence: str) -> str | None:
    """The clause of ``sentence`` that states the same thing as the claim, if any.

    Negation is judged on this clause only: "X does not do A; instead X does B"
    must not make the claim "X does B" look negated. "The same thing" means
    most words shared both ways (the smaller of the two coverages).
    """
    best, best_share = None, 0.0
    for clause in _CLAUSE_BREAK.split(sentence):
        clause_stems = stems(clause)
        if not claim_stems or not clause_stems:
            continue
        shared = len(claim_stems & clause_stems)
        # the clause states the claim (>= 80% of its words) or the two nearly coincide
        share = max(shared / len(claim_stems) - 0.2, min(shared / len(claim_stems), shared / len(clause_stems)))
        if share > best_share:
            best, best_share = clause, share
    return best if best_share >= 0.6 else None


def _compatible_year(year: str, claim: Mentions, aligned: Mentions) -> bool:
    """Is ``year`` consistent with the aligned evidence's years despite not being one of them?

    Inside a range the evidence gives ("between 1599 and 1601"), or within two
    years of one when either side says "around"/"about"/"early" etc.
    """
    value = int(year[:4])
    others = sorted(int(y[:4]) for y in aligned.years)
    if len(others) >= 2 and others[0] <= value <= others[-1]:
        return True
    if claim.approximate or aligned.approximate:
        return any(abs(value - o) <= 2 for o in others)
    return False


def _compatible_number(value: float, claim: Mentions, aligned: Mentions) -> bool:
    if claim.approximate or aligned.approximate:
        return any(abs(value - o) <= 0.15 * max(abs(o), 1.0) for o in aligned.numbers)
    return False


def _negation_mismatch(claim: str, clause: str) -> bool:
    """One side negates, and what it negates is what the other side states.

    "X was not developed by anyone" does not contradict "X is part of Y": the
    negated words ("developed") must appear on the other side.
    """
    claim_scope, clause_scope = negation_scope(claim), negation_scope(clause)
    if (claim_scope is None) == (clause_scope is None):
        return False
    scope, other = (claim_scope, clause) if claim_scope is not None else (clause_scope, claim)
    other_keys = keys(other)
    return not scope or any(_key(w) in other_keys for w in scope)


def _typed_conflict(claim: Mentions, aligned: Mentions, index: EvidenceIndex) -> str | None:
    """The first typed disagreement between a claim and its aligned evidence, if any."""
    missing_years = {y for y in claim.years if y not in index.all_mentions.years
                     and not _compatible_year(y, claim, aligned)}
    if missing_years and aligned.years - claim.years:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_years))}, the evidence says "
                f"{', '.join(sorted(aligned.years - claim.years))}")
    missing_numbers = {n for n in claim.numbers if n not in index.all_mentions.numbers
                       and not _compatible_number(n, claim, aligned)}
    if missing_numbers and aligned.numbers - claim.numbers:
        return (f"number mismatch: the claim says {', '.join(_fmt_num(n) for n in sorted(missing_numbers))}, "
                f"the evidence says {', '.join(_fmt_num(n) for n in sorted(aligned.numbers - claim.numbers))}")
    missing_ordinals = {n for n in claim.ordinals if n not in index.all_mentions.ordinals}
    if missing_ordinals and aligned.ordinals - claim.ordinals:
        return "ordinal mismatch: the claim's position/rank differs from the evidence"
    missing_dates = {d for d in claim.dates if d not in index.all_mentions.dates}
    if missing_dates and aligned.dates - claim.dates:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_dates))}, the evidence says "
                f"{', '.join(sorted(aligned.dates - claim.dates))}")
    missing_names = _names_missing(claim.names, index.all_mentions, index.all_text)
    other_names = aligned.names - claim.names
    if missing_names and other_names:
        return (f"name mismatch: the claim names {', '.join(sorted(missing_names))}, the evidence names "
                f"{', '.join(sorted(other_names))}")
    return None


def _window(index: EvidenceIndex, top: list[int]) -> set[str]:
    return set().union(*(keys(index.sentences[i]) for i in top))


def _antonym_conflict(claim_keys: set[str], sentence: str) -> tuple[str, str] | None:
    """(claim word, evidence word) when the claim says the opposite of the sentence."""
    sentence_keys = keys(sentence)
    for key in sorted(claim_keys - sentence_keys):
        for opposite in sorted(ANTONYM_KEYS.get(key, ())):
            if opposite in sentence_keys and opposite not in claim_keys:
                return key, opposite
    return None


def _content(word: str) -> bool:
    return len(word) > 2 and word.isalpha() and word not in STOPWORDS


def _same_word(a: str, b: str) -> bool:
    return a[:4] == b[:4]


def _substitution(text: str, sentence: str, index: EvidenceIndex) -> tuple[str, str] | None:
    """(new words, replaced words) when ``text`` follows ``sentence`` but swaps a short span.

    Word sequences are aligned (crude lemmas); a "replace" of at most
    ``SUBSTITUTION_SPAN`` words where the text's words occur nowhere in the
    evidence and the sentence's words are not in the text is a substitution
    ("rapid, automatic" -> "slow, deliberate"). Insertions and deletions alone
    (a detail added or dropped) are not.
    """
    from difflib import SequenceMatcher
    a = [w for w in words(text)]
    b = [w for w in words(sentence)]
    a_keys, b_keys = [_key(w) for w in a], [_key(w) for w in b]
    text_content = {k for w, k in zip(a, a_keys) if _content(w)}
    if not text_content:
        return None
    shared = len(text_content & set(b_keys)) / len(text_content)
    if shared < SUBSTITUTION_SHARED:
        return None
    evidence_keys = {_key(w) for w in words(index.all_text)}
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a_keys, b_keys, autojunk=False).get_opcodes():
        if op != "replace" or i2 - i1 > SUBSTITUTION_SPAN or j2 - j1 > SUBSTITUTION_SPAN:
            continue
        new = [a[i] for i in range(i1, i2) if _content(a[i]) and a_keys[i] not in evidence_keys]
        old = [b[j] for j in range(j1, j2) if _content(b[j]) and b_keys[j] not in text_content]
        # another form of the same word ("moving" / "move") is no substitution
        if any(_same_word(x, y) for x in new for y in old):
            continue
        if new and old:
            return " ".join(new), " ".join(old)
    return None


def _quoted(text: str) -> set[str]:
    return {q.strip(" .,").lower() for q in _QUOTE.findall(text) if q.strip(" .,")}


def verify_claim(claim: str, claim_vector: np.ndarray, index: EvidenceIndex,
                 substitution: bool = False, source: tuple[str, np.ndarray] | None = None) -> ClaimVerdict:
    """The verdict on one claim; ``substitution`` enables rule 5 (reference mode).

    ``source`` is the response sentence the claim comes from, with its vector:
    a claim split off a sentence may align poorly on its own while its sentence
    follows a reference sentence closely.
    """
    if not index.sentences:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, "no evidence sentences to compare with", "")
    sims = index.vectors @ claim_vector
    top = [int(i) for i in np.argsort(-sims, kind="stable")[:TOP_K]]
    best = top[0]
    best_sim = float(sims[best])
    quote = index.sentences[best]
    if best_sim < ALIGN_MIN:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE,
                       f"no evidence sentence is about this claim (best similarity {best_sim:.2f})", quote,
                       best_sim)
    mentions = _mentions(claim)
    claim_stems = stems(claim)
    claim_keys = keys(claim)
    # Rule 1: typed mismatch (number, date, name) with closely aligned evidence.
    for i in top:
        if float(sims[i]) < CONFLICT_MIN:
            break
        conflict = _typed_conflict(mentions, index.mentions[i], index)
        if conflict:
            return ClaimVerdict(CONTRADICTED, f"{conflict} (similarity {float(sims[i]):.2f})",
                           index.sentences[i], float(sims[i]))
    # Rule 2: a quoted title that the evidence gives differently.
    claim_quotes = _quoted(claim)
    if claim_quotes and best_sim >= CONFLICT_MIN:
        missing_quotes = {q for q in claim_quotes if q not in index.all_text}
        other_quotes = _quoted(quote) - claim_quotes
        if missing_quotes and other_quotes:
            return ClaimVerdict(CONTRADICTED, f"title mismatch: the claim says \"{sorted(missing_quotes)[0]}\", "
                           f"the evidence says \"{sorted(other_quotes)[0]}\" (similarity {best_sim:.2f})",
                           quote, best_sim)
    best_stems = stems(quote)
    coverage = len(claim_stems & best_stems) / len(claim_stems) if claim_stems else 0.0
    # Rule 3: the same statement, negated on one side only.
    if best_sim >= NEGATION_MIN and coverage >= 0.7:
        clause = _matching_clause(claim_stems, quote)
        if clause is not None and _negation_mismatch(claim, clause):
            said = "negates" if mentions.negated else "affirms"
            return ClaimVerdict(CONTRADICTED, f"negation mismatch: the claim {said} what the evidence "
                           f"{'affirms' if mentions.negated else 'negates'} (similarity {best_sim:.2f})",
                           quote, best_sim)
    # Rule 4: an opposite word ("decreased" where the evidence says "increased").
    if best_sim >= ANTONYM_MIN:
        opposite = _antonym_conflict(claim_keys, quote)
        if opposite:
            return ClaimVerdict(CONTRADICTED, f"opposite wording: the claim says '{opposite[0]}...', the evidence "
                           f"says '{opposite[1]}...' (similarity {best_sim:.2f})", quote, best_sim)
    # Rule 5 (reference mode): the claim's response sentence follows a reference sentence
    # closely but substitutes content words, and the claim carries the substitute. Judged on
    # whole sentences: a claim split off its sentence is reworded ("made" for "provided"),
    # whereas the response and reference sentences share their wording where they agree.
    if substitution:
        if source is not None and source[0].strip() and source[0].strip() != claim.strip():
            source_sims = index.vectors @ source[1]
            j = int(np.argmax(source_sims))
            if float(source_sims[j]) >= SUBSTITUTION_SENTENCE_MIN:
                swap = _substitution(source[0], index.sentences[j], index)
                claim_words = set(words(claim))
                if swap and all(w in claim_words for w in swap[0].split()):
                    return ClaimVerdict(CONTRADICTED, f"substituted wording: the claim's sentence says "
                                        f"'{swap[0]}' where the closely matching reference sentence says "
                                        f"'{swap[1]}' (sentence similarity {float(source_sims[j]):.2f})",
                                        index.sentences[j], float(source_sims[j]))
    # Rule 6: supported when aligned, every content word found, and no typed value missing.
    unfound = []
    aligned_mentions = index.mentions[best]
    unfound += [y for y in mentions.years if y not in index.all_mentions.years
                and not _compatible_year(y, mentions, aligned_mentions)]
    unfound += [_fmt_num(n) for n in mentions.numbers if n not in index.all_mentions.numbers
                and not _compatible_number(n, mentions, aligned_mentions)]
    unfound += sorted(_names_missing(mentions.names, index.all_mentions, index.all_text))
    # a second sentence counts when nearly as well aligned (a claim merging two sentences)
    window = [i for i in top[:2] if float(sims[i]) >= best_sim - WINDOW_MARGIN]
    uncovered = sorted(claim_keys - _window(index, window))
    key_coverage = 1 - len(uncovered) / len(claim_keys) if claim_keys else 0.0
    # a specific word ("methane") the evidence never uses is a detail it does not state
    rare_unsaid = sorted({w for w in words(claim) if w not in STOPWORDS and _key(w) in uncovered
                          and is_rare(w) and not re.search(rf"\b{re.escape(w)}", index.all_text)})
    aligned = not rare_unsaid and (best_sim >= SUPPORT_SIM_WITH_COVERAGE and key_coverage >= SUPPORT_COVERAGE) or (
        best_sim >= SUPPORT_SIM and key_coverage >= SUPPORT_COVERAGE_HIGH_SIM) or (
        best_sim >= SUPPORT_SIM_ALL_WORDS and key_coverage == 1.0)
    if aligned and not unfound:
        return ClaimVerdict(SUPPORTED, f"aligned with the evidence (similarity {best_sim:.2f}, "
                       f"{key_coverage:.0%} of the claim's words found) and no disagreement", quote, best_sim)
    if unfound or rare_unsaid:
        return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"the evidence does not state "
                       f"{', '.join(sorted(unfound) + rare_unsaid)} (best similarity {best_sim:.2f})",
                       quote, best_sim)
    return ClaimVerdict(NOT_ENOUGH_EVIDENCE, f"evidence is related but does not state the claim (similarity "
                   f"{best_sim:.2f}; not found: {', '.join(uncovered[:5]) or '-'})", quote, best_sim)


def verify_claims(claims: list[str], documents: list[Document], *, reference: bool = False,
                  source_sentences: list[str] | None = None) -> list[ClaimVerdict]:
    """Verdicts for ``claims`` against ``documents``.

    ``reference=True`` when the evidence is a reference answer to the same
    question (written in parallel with the response): then the substituted
    wording rule also applies, using ``source_sentences`` (each claim's response
    sentence) when given.
    """
    if not documents or not any(d.text.strip() or d.title.strip() for d in documents):
        return [ClaimVerdict(NOT_ENOUGH_EVIDENCE, NO_EVIDENCE_REASON, "") for _ in claims]
    index = build_index(documents)
    vectors = embed(claims) if claims else np.zeros((0, 384), dtype=np.float32)
    sources: list[tuple[str, np.ndarray] | None] = [None] * len(claims)
    if reference and source_sentences:
        unique = list(dict.fromkeys(t for t in source_sentences if t and t.strip()))
        by_text = dict(zip(unique, embed(unique))) if unique else {}
        sources = [(t, by_text[t]) if t in by_text else None for t in source_sentences]
    return [verify_claim(c, v, index, substitution=reference, source=src)
            for c, v, src in zip(claims, vectors, sources)]
