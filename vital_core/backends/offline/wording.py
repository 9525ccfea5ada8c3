"""Word-level comparison of a claim with evidence text, for the verifier's rules (``verify``).

Crude lemmas (``stems``, ``keys``), the values a claim states that the
evidence gives otherwise (``typed_conflict``), opposite wording
(``ANTONYMS``), one-sided negation, quoted titles, and a substituted span of
words (``substitution``). Pure text functions: no vectors, no model.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher

from vital_core.backends.offline.answer_types import Mentions, name_tokens, negation_scope, words
from vital_core.backends.offline.importance import STOPWORDS

# Substituted wording: the text shares this share of its content words with the
# sentence, and swaps a span of at most this many words.
SUBSTITUTION_SHARED = 0.60
SUBSTITUTION_SPAN = 3

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
    ("promote", "demote"), ("promoted", "demoted"), ("upper", "lower"), ("northern", "southern"),
    ("eastern", "western"), ("visible", "invisible"), ("possible", "impossible"),
)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> set[str]:
    return {_stem(w) for w in words(text) if w not in STOPWORDS}


def word_key(word: str) -> str:
    """A crude lemma: the first five letters ("conserved" ~ "conservation")."""
    return word[:5] if len(word) > 5 else _stem(word)


def keys(text: str) -> set[str]:
    return {word_key(w) for w in words(text) if w not in STOPWORDS}


def _antonym_keys() -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for a, b in ANTONYMS:
        table.setdefault(word_key(a), set()).add(word_key(b))
        table.setdefault(word_key(b), set()).add(word_key(a))
    return table


ANTONYM_KEYS = _antonym_keys()
_QUOTE = re.compile(r"[\"“]([^\"“”]{2,80})[\"”]")
_CLAUSE_BREAK = re.compile(r"[;:,]|\s(?:but|while|whereas|although|though|instead|yet)\s")


def fmt_num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def names_missing(claim_names: set[str], evidence_text: str) -> set[str]:
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


def matching_clause(claim_stems: set[str], sentence: str) -> str | None:
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


def compatible_year(year: str, claim: Mentions, aligned: Mentions) -> bool:
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


def compatible_number(value: float, claim: Mentions, aligned: Mentions) -> bool:
    if claim.approximate or aligned.approximate:
        return any(abs(value - o) <= 0.15 * max(abs(o), 1.0) for o in aligned.numbers)
    return False


def negation_mismatch(claim: str, clause: str) -> bool:
    """One side negates, and what it negates is what the other side states.

    "X was not developed by anyone" does not contradict "X is part of Y": the
    negated words ("developed") must appear on the other side.
    """
    claim_scope, clause_scope = negation_scope(claim), negation_scope(clause)
    if (claim_scope is None) == (clause_scope is None):
        return False
    scope, other = (claim_scope, clause) if claim_scope is not None else (clause_scope, claim)
    other_keys = keys(other)
    return not scope or any(word_key(w) in other_keys for w in scope)


def typed_conflict(claim: Mentions, aligned: Mentions, evidence: Mentions, evidence_text: str) -> str | None:
    """The first typed disagreement (date, number, ordinal, name) between a claim and its aligned
    evidence sentence, if any: the evidence (``evidence``: all its mentions) never states the claim's
    value and the aligned sentence states another."""
    missing_years = {y for y in claim.years if y not in evidence.years and not compatible_year(y, claim, aligned)}
    if missing_years and aligned.years - claim.years:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_years))}, the evidence says "
                f"{', '.join(sorted(aligned.years - claim.years))}")
    missing_numbers = {n for n in claim.numbers if n not in evidence.numbers
                       and not compatible_number(n, claim, aligned)}
    if missing_numbers and aligned.numbers - claim.numbers:
        return (f"number mismatch: the claim says {', '.join(fmt_num(n) for n in sorted(missing_numbers))}, "
                f"the evidence says {', '.join(fmt_num(n) for n in sorted(aligned.numbers - claim.numbers))}")
    missing_ordinals = {n for n in claim.ordinals if n not in evidence.ordinals}
    if missing_ordinals and aligned.ordinals - claim.ordinals:
        return "ordinal mismatch: the claim's position/rank differs from the evidence"
    missing_dates = {d for d in claim.dates if d not in evidence.dates}
    if missing_dates and aligned.dates - claim.dates:
        return (f"date mismatch: the claim says {', '.join(sorted(missing_dates))}, the evidence says "
                f"{', '.join(sorted(aligned.dates - claim.dates))}")
    missing = names_missing(claim.names, evidence_text)
    other_names = aligned.names - claim.names
    if missing and other_names:
        return (f"name mismatch: the claim names {', '.join(sorted(missing))}, the evidence names "
                f"{', '.join(sorted(other_names))}")
    return None


def antonym_conflict(claim_keys: set[str], sentence: str) -> tuple[str, str] | None:
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


def substitution(text: str, sentence: str, evidence_text: str) -> tuple[str, str] | None:
    """(new words, replaced words) when ``text`` follows ``sentence`` but swaps a short span.

    Word sequences are aligned (crude lemmas); a "replace" of at most
    ``SUBSTITUTION_SPAN`` words where the text's words occur nowhere in the
    evidence and the sentence's words are not in the text is a substitution
    ("rapid, automatic" -> "slow, deliberate"). Insertions and deletions alone
    (a detail added or dropped) are not.
    """
    a = [w for w in words(text)]
    b = [w for w in words(sentence)]
    a_keys, b_keys = [word_key(w) for w in a], [word_key(w) for w in b]
    text_content = {k for w, k in zip(a, a_keys) if _content(w)}
    if not text_content:
        return None
    shared = len(text_content & set(b_keys)) / len(text_content)
    if shared < SUBSTITUTION_SHARED:
        return None
    evidence_keys = {word_key(w) for w in words(evidence_text)}
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


def quoted(text: str) -> set[str]:
    return {q.strip(" .,").lower() for q in _QUOTE.findall(text) if q.strip(" .,")}
