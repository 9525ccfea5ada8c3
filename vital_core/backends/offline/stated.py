"""Is it stated? What the support path, the contradiction rules and nuggets ask of an evidence sentence.

``rest_coverage``: how much of a claim a sentence states (words, names, values); ``value_found`` /
``value_bound``: a claim's value is stated, and stated about the claim's own words, not another
thing's ("died in 1616" does not state a birth in 1616); ``value_stated`` / ``name_stated``: the
claim's value or name stands in its own statement next to a sentence's rival; ``same_relation``: the
evidence states the claim's relation with the same roles. ``Context`` says where the rest of a claim may
be stated. Pure functions of analysed texts (``language.analysis``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, close_word, lemma_found
from vital_core.backends.offline.language.lexicon import DIMENSION_WORDS, FIRST_WORDS
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.nlp import governing_verb
from vital_core.backends.offline.language.roles import relations
from vital_core.backends.offline.language.value_match import comparable, compatible, consistent, whole_years
from vital_core.backends.offline.language.values import Value
from vital_core.backends.offline.language.word_rarity import frequency_rank


@dataclass
class Context:
    """Where the rest of a claim may be stated: the sentence (joined with the best-aligned one when they
    differ), and those full sentences, where a claim's own value or name may sit in its own statement."""
    joined: Analysis
    sentences: list[Analysis]
    others: list[Analysis]          # the other aligned sentences
    evidence: Analysis | None = None  # all the evidence as one text
    rest_needed: float = 0.75       # share of the rest of the claim the sentence must state (REST_COVERAGE)
    parsed: tuple[Analysis, ...] = ()   # every evidence sentence with its parse (``evidence`` has none)


NAME_WEIGHT = 1.5
COMMON_RANK, COMMON_WEIGHT = 2_000, 0.5
VALUE_CONTEXT_COVERAGE = 0.35
NEIGHBOURHOOD = 4
OWN_STATEMENT = 0.6     # a sentence stating this much of the claim, with the claim's value, states it

REST_COVERAGE = 0.75      # (Context.rest_needed's default)


def rest_coverage(claim: Analysis, target: Analysis, skip_lemmas=(), skip_names=(), skip_value=None,
                  soft: bool = False, by_rarity: bool = False) -> float:
    """Share of the claim's words, names (x1.5) and values that ``target`` states, leaving out ``skip_*``;
    ``by_rarity``: a common word ("time", "major") weighs half, as a paraphrase often drops or swaps it."""
    measured = any(not v.dim.startswith("#") and v.kind == "number" for v in claim.values)
    total = found = 0.0
    for lemma in claim.content:
        if lemma in skip_lemmas or (measured and lemma in DIMENSION_WORDS):
            continue
        weight = COMMON_WEIGHT if by_rarity and frequency_rank(lemma) <= COMMON_RANK else 1.0
        total += weight
        found += weight * lemma_found(lemma, target, soft)
    for name in claim.names:
        if name in skip_names:
            continue
        total += NAME_WEIGHT
        found += NAME_WEIGHT * name_found(name, target)
    for value in claim.values:
        if value is skip_value or uncounted_one(value, [target]):
            continue
        total += 1.0
        found += value_found(value, [target])
    return found / total if total else 1.0


def uncounted_one(value: Value, sentences: list[Analysis]) -> bool:
    """Is the value a bare "one" of something the sentences count nowhere? A singular noun says "one" by
    itself ("joined them into one longer wall" / "into a single wall"); "one hump" needs saying only against
    another count ("has two humps")."""
    return value.text.lower() == "one" and not any(v.dim == value.dim for a in sentences for v in a.values)


def as_name(name: str) -> Analysis:
    return Analysis(text=name, toks=(), names={name: 0}, words={w.lower() for w in name.split()})


_ITEM = r"[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*"
_LIST = re.compile(rf"{_ITEM}(?:,\s+{_ITEM})*,?\s+(?:and|or)\s+{_ITEM}")


def list_lengths(text: str) -> set[int]:
    """How many names each list in the text has ("Belgium, France, Romania and Yugoslavia": 4)."""
    return {len([item for item in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", m.group(0)) if item])
            for m in _LIST.finditer(text)}


def derivable(value: Value, target: Analysis) -> bool:
    """A count the sentence gives by simple arithmetic (2 players x 16 pieces = 32; 1989 - 1961 = 28;
    "in 1835 ... three years later" = 1838)."""
    # each number with what it counts: a sum or a difference needs two of one kind, or a year and a span of
    # years; "30 fences ... twice on two circuits" gives no 32 fences (a product may mix: 2 players x 16 pieces)
    numbers = [(v.value, "year" if v.kind == "year" else v.dim) for v in target.values
               if v.kind in ("number", "year") and v.value == int(v.value) and v.dim in ("", "#")
               or v.dim.startswith("#")]
    numbers += [(years, "years") for v in target.values if (years := whole_years(v))]
    if value.kind == "number" and value.dim.startswith("#") and 2 <= value.value <= 12 \
            and value.value in list_lengths(target.text):
        return True     # "four nations" and "Belgium, France, Romania and Yugoslavia"
    for i, (a, kind_a) in enumerate(numbers):
        for b, kind_b in numbers[i + 1:]:
            alike = kind_a == kind_b or {kind_a, kind_b} == {"year", "years"}
            if value.value == a * b or alike and value.value in (a + b, abs(a - b)):
                return True
    return False


def value_found(value: Value, targets: list[Analysis]) -> bool:
    if value.kind == "ordinal" and value.value == 1 and any(t.lemmas & FIRST_WORDS for t in targets):
        return True
    same_head = [v for t in targets for v in t.values if comparable(value, v)]
    pool = same_head if value.dim.startswith("#") and same_head else [v for t in targets for v in t.values]
    return any(compatible(value, v) for v in beside_exact(value, pool)) or any(derivable(value, t) for t in targets)


def beside_exact(value: Value, values: list[Value]) -> list[Value]:
    """``values`` less the rough ones when an exact one of the same kind differs from the claim's exact
    ``value``: "8,091 metres, or roughly 26,545 feet" does not state "8,019 metres", nor "3,106 carats, a
    little over 600 grams" "3,016 carats" - the rough figure says the exact one again."""
    exact = [v for v in values if not v.approx and comparable(value, v)]
    if exact and not value.approx and not any(compatible(value, v) for v in exact):
        return [v for v in values if not v.approx]
    return values


def of_another_verb(claim: Analysis, sentence: Analysis, value: Value) -> bool:
    """Does the value belong to one of the sentence's joined verbs that does not say the claim's ("designed by
    Vincent Connare and released by Microsoft in 1995": 1995 is the release, not when it was made)?"""
    toks = sentence.toks
    # the main verb even when it is a light one ("was made in 1994")
    said = claim.predicate or next((t.lemma for t in claim.toks if t.dep == "ROOT" and t.pos == "VERB"), "")
    if not toks or not said:
        return False
    governor = governing_verb(toks, token_at(sentence, value.start))
    if governor is None or toks[governor].pos != "VERB" or toks[governor].lemma == "be" or not any(
            t.dep == "conj" and t.pos == "VERB" and governor in (t.head, t.i) for t in toks):
        return False     # one verb, or a "be" that states a measure: nothing else it could belong to
    verb = toks[governor].lemma
    return not (verb == said or verb in lexicon.synonyms(said) or close_word(verb, (said,)))


def said_near(claim: Analysis, sentence: Analysis, positions: list[int], skip: set[str],
               with_names: bool = False, soft: bool = True) -> bool:
    """Does one of the words around ``positions`` in ``sentence`` restate a word of the claim?

    "Essex was rammed by a sperm whale in 1820": 1820 sits next to "rammed", so another year elsewhere in
    the sentence is about something else; Sydney "as a compromise" is not next to "capital".
    """
    wanted = {w for w in claim.content if w not in skip}
    wanted |= {s for w in wanted for s in lexicon.synonyms(w)}
    # for a value, the claim's names count too ("in 2021 the Bank of England put ..."); never for a name itself
    named = {w.lower() for name in claim.names for w in name.split() if len(w) > 2} if with_names else set()
    toks = sentence.toks
    for p in positions:
        if p >= len(toks):
            continue
        governor = governing_verb(toks, p)
        verb = toks[governor].lemma if governor is not None else ""
        # the soft match only for content words, whose vectors the verifier embedded in one batch
        if verb and (verb in wanted or (soft and verb in sentence.content
                                        and close_word(verb, tuple(sorted(wanted))))):
            return True     # "died in the same town in 1616": the verb that governs 1616 is "die"
        near = [t for t in toks[max(0, p - NEIGHBOURHOOD):p + NEIGHBOURHOOD + 1] if same_clause(toks, p, t.i)]
        if any(t.lemma in wanted and t.lemma not in skip or t.pos == "PROPN" and t.lemma in named for t in near):
            return True
    return False


def same_clause(toks, a: int, b: int) -> bool:
    """No comma, semicolon or coordinating "and"/"but" between two positions."""
    low, high = sorted((a, b))
    return not any(t.text in (",", ";", ":", "and", "but", "while", "where", "which", "who")
                   for t in toks[low + 1:high])


def token_at(sentence: Analysis, offset: int) -> int:
    index = 0
    for t in sentence.toks:
        if t.start <= offset:
            index = t.i
    return index


def _spots(value: Value, sentence: Analysis) -> list[int]:
    return [token_at(sentence, v.start) for v in beside_exact(value, sentence.values) if compatible(value, v)
            and (comparable(value, v) or not value.dim.startswith("#") or value.dim == "#")]


def value_stated(value: Value, claim: Analysis, context: Context) -> bool:
    """The claim's value appears in its own statement: next to a word of the claim in the sentence that
    holds the rival, or in another aligned sentence that states most of the claim."""
    skip = {value.dim.lstrip("#")}
    for sentence in context.sentences:
        spots = _spots(value, sentence)
        if spots and said_near(claim, sentence, spots, skip):
            return True
    for sentence in context.others:
        spots = _spots(value, sentence)
        if spots and (said_near(claim, sentence, spots, skip) or rest_coverage(claim, sentence) >= OWN_STATEMENT):
            return True
    return False


def _in_context(k: int, claim: Analysis, sentence: Analysis, value: Value) -> bool:
    """The closest sentence (``k == 0``), or one stating the claim's other words too: "broke three world
    records" elsewhere does not state "won three gold medals"."""
    if not sentence.toks:     # several sentences read as one: each is judged on its own instead
        return False
    return k == 0 or rest_coverage(claim, sentence, skip_value=value, soft=True) >= VALUE_CONTEXT_COVERAGE


def value_bound(value: Value, claim: Analysis, sentences: list[Analysis]) -> bool:
    """For support: a sentence states the value, and either it is the sentence's only value of its kind
    or it stands next to a word of the claim ("died, in 1616" does not state a birth in 1616); or the
    value is stated somewhere and another sentence ties a less precise form of it to the claim's words
    ("(September 12, 1913 - March 31, 1980)" and "Lung cancer killed him in 1980")."""
    # a sentence whose value is another thing's (the claim's words stand by a rival) binds nothing
    sentences = [s for s in sentences if not (s.toks and claimed_by_rival(
        value, claim, s, [v for v in s.values if comparable(value, v)]))]
    if value_found(value, sentences) and any(
            _in_context(k, claim, s, value) and
            said_near(claim, s, [token_at(s, v.start) for v in s.values if consistent(value, v)],
                       {value.dim.lstrip("#")}) for k, s in enumerate(sentences) if s.toks):
        return True
    for k, sentence in enumerate(sentences):
        if not value_found(value, [sentence]):
            continue
        # a rival the claim states too is not another fact ("in 2016, 2017 and 2020")
        others = [v for v in sentence.values if comparable(value, v) and not consistent(value, v)
                  and not any(consistent(own, v) for own in claim.values)]
        spots = _spots(value, sentence)
        in_context = _in_context(k, claim, sentence, value)
        if in_context and (not others or not spots) \
                or said_near(claim, sentence, spots, {value.dim.lstrip("#")}, with_names=True):
            return True
    return False


def name_stated(name: str, claim: Analysis, context: Context) -> bool:
    """The claim's name next to a word of the claim in the sentence holding the rival, or in another aligned
    sentence that states most of the claim: "an oral vaccine created by Albert Sabin" does not state that
    Sabin's team at Pittsburgh made the first one."""
    for sentence in context.sentences + context.others:
        spots = [head for other, head in sentence.names.items() if name_found(name, as_name(other))]
        if spots and said_near(claim, sentence, spots, set()) and (
                sentence in context.sentences or rest_coverage(claim, sentence, soft=True) >= OWN_STATEMENT):
            return True
    return False


def claimed_by_rival(value: Value, claim: Analysis, target: Analysis, rivals: list[Value]) -> bool:
    """The sentence has the claim's value, but for something else: the claim's words stand by another value
    and not by this one ("Children have 20 primary teeth, ... 32 permanent teeth in adults" against "an
    adult has 20 teeth")."""
    noun = value.dim.lstrip("#")
    skip = {noun} | {lemma for lemma, word in claim.content.items() if word.lower() == noun}   # "teeth"/"tooth"
    own = [token_at(target, v.start) for v in rivals if consistent(value, v)]
    other = [token_at(target, v.start) for v in rivals if not consistent(value, v)]
    # strict for the rival (the same words, no near-synonyms), generous for the claim's own value
    return bool(own) and bool(other) and said_near(claim, target, other, skip, with_names=True, soft=False) \
        and not said_near(claim, target, own, skip, with_names=True)


def same_relation(claim: Analysis, target: Analysis) -> bool:
    """The evidence states the claim's relation with the same roles ("lost to" for "defeated")."""
    theirs = relations(target)
    return any(r == t_r and same_party(d, t_d) and same_party(o, t_o)
               for r, d, o in relations(claim) for t_r, t_d, t_o in theirs)


def same_party(a: str, b: str) -> bool:
    return bool(a and b) and (name_found(a, as_name(b)) or name_found(b, as_name(a)))


def same_time(claim: Analysis, target: Analysis) -> bool:
    """The claim says when it holds in no words the sentence lacks: "Today the tower rises to 330 metres" is
    no conflict with "When completed, the tower rose to 300 metres". The sentence may say it alone ("The
    pyramid originally stood 146.6 metres tall"): the claim without a time is about the same state."""
    return lexicon.TIME_FRAME & claim.lemmas <= target.lemmas
