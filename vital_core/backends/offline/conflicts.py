"""The ways a claim can disagree with one evidence sentence, each a small function returning a reason or None.

Every rule needs the rest of the claim to be stated by the sentence
(``rest_coverage``): a different number or name only contradicts a claim
when it fills the same slot of the same statement ("2,200 people were
aboard" is not contradicted by "1,500 people died"). Reasons are plain words
that quote the claim and the evidence as written.
"""
from __future__ import annotations

import re

from dataclasses import dataclass

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import _close_word
from vital_core.backends.offline.language.analysis import Analysis, lemma_found, name_found, place_of
from vital_core.backends.offline.language.roles import relations
from vital_core.backends.offline.language.values import Value, comparable, compatible, consistent, whole_years
from vital_core.backends.offline.language.word_rarity import frequency_rank
from vital_core.backends.offline.language.lexicon import (ANTONYMS, DIMENSION_WORDS, EVENT_QUALIFIERS, FIRST_WORDS,
                                                          GENERIC_HEADS, GROUP_NOUNS, LIFE_EVENTS, NAME_PARTICLES,
                                                          NON_EXCLUSIVE, ORGANISATION_WORDS, REFUTED_BELIEF,
                                                          STAND_IN_DETERMINERS)

# Opposite words, compared whole (lemma or word): "exclusive" is no form of "exclude".
OPPOSITES: dict[str, set[str]] = {}
for _a, _b in ANTONYMS:
    OPPOSITES.setdefault(_a, set()).add(_b)
    OPPOSITES.setdefault(_b, set()).add(_a)

@dataclass
class Context:
    """Where the rest of a claim may be stated: the sentence (joined with the best-aligned one when they
    differ), and those full sentences, where a claim's own value or name may sit in its own statement."""
    joined: Analysis
    sentences: list[Analysis]
    others: list[Analysis]          # the other aligned sentences
    evidence: Analysis | None = None  # all the evidence as one text
    rest_needed: float = 0.75       # share of the rest of the claim the sentence must state (REST_COVERAGE)


NAME_WEIGHT = 1.5
COMMON_RANK, COMMON_WEIGHT = 2_000, 0.5
VALUE_CONTEXT_COVERAGE = 0.35
NEIGHBOURHOOD = 4
OWN_STATEMENT = 0.6     # a sentence stating this much of the claim, with the claim's value, states it

REST_COVERAGE = 0.75      # (Context.rest_needed's default)
NEGATION_COVERAGE = 0.85


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
        if value is skip_value:
            continue
        total += 1.0
        found += value_found(value, [target])
    return found / total if total else 1.0


def _same_subject(claim: Analysis, target: Analysis, conflicting: str) -> bool:
    """The claim's subject is the evidence's subject too, not a possessor ("Christie's detective is Belgian")."""
    subject = claim.subject
    if not subject or subject == conflicting:
        return True
    for name, head in target.names.items():
        if name_found(subject, _only(name)):
            return target.toks[head].dep != "poss"
    return True


def _only(name: str) -> Analysis:
    return Analysis(text=name, toks=(), names={name: 0}, words={w.lower() for w in name.split()})


def role(a: Analysis, name: str) -> str:
    """"doer", "undergoer", or "" for a name: its syntactic role, through appositions and compounds."""
    if not a.toks or name not in a.names:
        return ""
    tok = a.toks[a.names[name]]
    for _ in range(3):
        if tok.dep in ("appos", "compound", "conj") and tok.head != tok.i:
            tok = a.toks[tok.head]
            continue
        if tok.dep == "poss" and a.toks[tok.head].lemma in GROUP_NOUNS:
            tok = a.toks[tok.head]     # "Jonas Salk's team produced it": Salk is the doer
            continue
        break
    if tok.dep in ("nsubj", "attr") and a.toks[tok.head].lemma in ("be", "become", "remain"):
        return "copula"     # "X is the capital" = "the capital is X"
    if tok.dep == "nsubj" or (tok.dep == "pobj" and a.toks[tok.head].dep == "agent"):
        return "doer"
    if tok.dep in ("nsubjpass", "dobj", "attr", "oprd"):
        return "undergoer"
    return "other"


_ITEM = r"[A-Z][\w'’\-]*(?:\s+[A-Z][\w'’\-]*)*"
_LIST = re.compile(rf"{_ITEM}(?:,\s+{_ITEM})*,?\s+(?:and|or)\s+{_ITEM}")


def list_lengths(text: str) -> set[int]:
    """How many names each list in the text has ("Belgium, France, Romania and Yugoslavia": 4)."""
    return {len([item for item in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", m.group(0)) if item])
            for m in _LIST.finditer(text)}


def derivable(value: Value, target: Analysis) -> bool:
    """A count the sentence gives by simple arithmetic (2 players x 16 pieces = 32; 1989 - 1961 = 28;
    "in 1835 ... three years later" = 1838)."""
    numbers = [v.value for v in target.values if v.kind in ("number", "year") and v.value == int(v.value)
               and v.dim in ("", "#") or v.dim.startswith("#")]
    numbers += [years for v in target.values if (years := whole_years(v))]
    if value.kind == "number" and value.dim.startswith("#") and 2 <= value.value <= 12 \
            and value.value in list_lengths(target.text):
        return True     # "four nations" and "Belgium, France, Romania and Yugoslavia"
    for i, a in enumerate(numbers):
        for b in numbers[i + 1:]:
            if value.value in (a * b, a + b, abs(a - b)):
                return True
    return False


def _with_subject(target: Analysis, context: Context) -> Analysis:
    """The clause holding a rival, with its sentence's subject (a clause "was shot dead in 1865" shares it)
    and the countries its sentence names (the frame: "... of Catalonia, in Spain; the capital is Madrid"):
    the rest of the claim must be stated there, not anywhere in a long sentence or list."""
    sentence = context.sentences[0]
    subject = sentence.subject
    countries = {k for k in sentence.name_keys if lexicon.place_kind(k) == "country"}
    if (not subject or subject in target.names) and not countries:
        return target
    names = {**target.names, **({subject: 0} if subject else {})}
    words = target.words | {w.lower() for w in subject.split()} if subject else target.words
    return Analysis(text=f"{subject} {target.text}", toks=(), lemmas=target.lemmas, words=words, names=names,
                    name_keys=target.name_keys | countries, values=target.values, content=target.content)


def value_found(value: Value, targets: list[Analysis]) -> bool:
    if value.kind == "ordinal" and value.value == 1 and any(t.lemmas & FIRST_WORDS for t in targets):
        return True
    same_head = [v for t in targets for v in t.values if comparable(value, v)]
    pool = same_head if value.dim.startswith("#") and same_head else [v for t in targets for v in t.values]
    return any(compatible(value, v) for v in pool) or any(derivable(value, t) for t in targets)


def _said_near(claim: Analysis, sentence: Analysis, positions: list[int], skip: set[str],
               with_names: bool = False, soft: bool = True) -> bool:
    """Does one of the words around ``positions`` in ``sentence`` restate a word of the claim?

    "Essex was rammed by a sperm whale in 1820": 1820 sits next to "rammed", so another year elsewhere in
    the sentence is about something else; Sydney "as a compromise" is not next to "capital".
    """
    wanted = {l for l in claim.content if l not in skip}
    wanted |= {w for l in wanted for w in lexicon.synonyms(l)}
    # for a value, the claim's names count too ("in 2021 the Bank of England put ..."); never for a name itself
    named = {w.lower() for name in claim.names for w in name.split() if len(w) > 2} if with_names else set()
    toks = sentence.toks
    for p in positions:
        if p >= len(toks):
            continue
        governor = _governor(toks, p)
        verb = toks[governor].lemma if governor is not None else ""
        # the soft match only for content words, whose vectors the verifier embedded in one batch
        if verb and (verb in wanted or (soft and verb in sentence.content
                                        and _close_word(verb, tuple(sorted(wanted))))):
            return True     # "died in the same town in 1616": the verb that governs 1616 is "die"
        near = [t for t in toks[max(0, p - NEIGHBOURHOOD):p + NEIGHBOURHOOD + 1] if _same_clause(toks, p, t.i)]
        if any(t.lemma in wanted and t.lemma not in skip or t.pos == "PROPN" and t.lemma in named for t in near):
            return True
    return False


def _governor(toks, index: int) -> int | None:
    """The verb a word depends on ("in 1616" -> "died"), a few steps up the parse."""
    at = index
    for _ in range(4):
        head = toks[at].head
        if head == at:
            return None
        at = head
        if toks[at].pos in ("VERB", "AUX") or toks[at].dep == "ROOT":
            return at
    return None


def _same_clause(toks, a: int, b: int) -> bool:
    """No comma, semicolon or coordinating "and"/"but" between two positions."""
    low, high = sorted((a, b))
    return not any(t.text in (",", ";", ":", "and", "but", "while", "where", "which", "who")
                   for t in toks[low + 1:high])


def _token_at(sentence: Analysis, offset: int) -> int:
    index = 0
    for t in sentence.toks:
        if t.start <= offset:
            index = t.i
    return index


def _spots(value: Value, sentence: Analysis) -> list[int]:
    return [_token_at(sentence, v.start) for v in sentence.values if compatible(value, v)
            and (comparable(value, v) or not value.dim.startswith("#") or value.dim == "#")]


def value_stated(value: Value, claim: Analysis, context: Context) -> bool:
    """The claim's value appears in its own statement: next to a word of the claim in the sentence that
    holds the rival, or in another aligned sentence that states most of the claim."""
    skip = {value.dim.lstrip("#")}
    for sentence in context.sentences:
        spots = _spots(value, sentence)
        if spots and _said_near(claim, sentence, spots, skip):
            return True
    for sentence in context.others:
        spots = _spots(value, sentence)
        if spots and (_said_near(claim, sentence, spots, skip) or rest_coverage(claim, sentence) >= OWN_STATEMENT):
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
    sentences = [s for s in sentences if not (s.toks and _claimed_by_rival(
        value, claim, s, [v for v in s.values if comparable(value, v)]))]
    if value_found(value, sentences) and any(
            _in_context(k, claim, s, value) and
            _said_near(claim, s, [_token_at(s, v.start) for v in s.values if consistent(value, v)],
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
        if in_context and (not others or not spots) or _said_near(claim, sentence, spots, {value.dim.lstrip("#")}, with_names=True):
            return True
    return False


def name_stated(name: str, claim: Analysis, context: Context) -> bool:
    """The claim's name next to a word of the claim in the sentence holding the rival, or in another aligned
    sentence that states most of the claim: "an oral vaccine created by Albert Sabin" does not state that
    Sabin's team at Pittsburgh made the first one."""
    for sentence in context.sentences + context.others:
        spots = [head for other, head in sentence.names.items() if name_found(name, _only(other))]
        if spots and _said_near(claim, sentence, spots, set()) and (
                sentence in context.sentences or rest_coverage(claim, sentence, soft=True) >= OWN_STATEMENT):
            return True
    return False


_LIFESPAN = re.compile(r"\((?:c\.\s*|born\s+)?\d{3,4}\s*[-–]\s*\d{2,4}\)|^\s*\d{3,4}\s*[-–]\s*\d{2,4}\b")


def _in_lifespan(text: str, value: Value) -> bool:
    """A year of "(1678-1741)" after a name (or of that bracket read as a clause of its own): the
    person's birth or death, no other event's date."""
    return any(m.start() <= value.start < m.end() for m in _LIFESPAN.finditer(text))


def _claimed_by_rival(value: Value, claim: Analysis, target: Analysis, rivals: list[Value]) -> bool:
    """The sentence has the claim's value, but for something else: the claim's words stand by another value
    and not by this one ("Children have 20 primary teeth, ... 32 permanent teeth in adults" against "an
    adult has 20 teeth")."""
    noun = value.dim.lstrip("#")
    skip = {noun} | {lemma for lemma, word in claim.content.items() if word.lower() == noun}   # "teeth"/"tooth"
    own = [_token_at(target, v.start) for v in rivals if consistent(value, v)]
    other = [_token_at(target, v.start) for v in rivals if not consistent(value, v)]
    # strict for the rival (the same words, no near-synonyms), generous for the claim's own value
    return bool(own) and bool(other) and _said_near(claim, target, other, skip, with_names=True, soft=False) \
        and not _said_near(claim, target, own, skip, with_names=True)


def _anchor(claim: Analysis, value: Value) -> Analysis | None:
    """The claim's words that a value in a side clause belongs to: the verb that governs it and the content
    words next to it ("Born in Venice in 1678, he was ordained ...": 1678 belongs to "born"); None when
    the value belongs to the main verb (all of the claim is its anchor) or no content word is by it."""
    if not claim.toks:
        return None
    toks = claim.toks
    p = _token_at(claim, value.start)
    governor = _governor(toks, p)
    if governor is None or toks[governor].dep == "ROOT" or governor and toks[governor].text[:1].isupper():
        return None     # (a capitalised verb mid-sentence is a title's word: "his 'I Have a Dream' speech in 1965")
    near = {t.lemma for t in toks[max(0, p - NEIGHBOURHOOD):p + NEIGHBOURHOOD + 1] if _same_clause(toks, p, t.i)}
    near.add(toks[governor].lemma)
    words = {lemma: word for lemma, word in claim.content.items() if lemma in near}
    return Analysis(text=claim.text, toks=(), content=words) if words else None


def stand_in(claim: Analysis, target: Analysis) -> tuple[str, ...]:
    """The claim's subject noun when it stands for the sentence's named subject: "The film was directed
    by Howard Hawks" against "Casablanca was directed by Michael Curtiz" — "the film" is Casablanca, so
    its word need not be stated for the rest of the claim to be. Only a bare "the/this + noun" subject of
    the claim's main verb, against a sentence whose main subject is a name, and only where the sentence
    must state all the rest of the claim (``Context.rest_needed`` 1.0: ``verify`` asks it of a sentence
    the claim's changed slot made less similar)."""
    if not claim.toks or not target.subject:
        return ()
    for t in claim.toks:
        if t.dep in ("nsubj", "nsubjpass") and claim.toks[t.head].dep == "ROOT" and t.pos == "NOUN":
            kids = [k for k in claim.toks if k.head == t.i and k.i != t.i]
            if kids and all(k.dep == "det" and k.lemma in STAND_IN_DETERMINERS for k in kids) \
                    and not lemma_found(t.lemma, target):
                return (t.lemma,)
    return ()


def value_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """A claim value whose slot the sentence fills with another value, the rest of the claim stated."""
    for value in claim.values:
        rivals = [v for v in target.values if comparable(value, v)
                  and not (_in_lifespan(target.text, v) and not claim.lemmas & LIFE_EVENTS)]
        if not rivals or derivable(value, target):
            continue
        if any(consistent(value, v) for v in rivals):
            if not _claimed_by_rival(value, claim, target, rivals):
                continue
            rivals = [v for v in rivals if not consistent(value, v)]
        others = [v for v in claim.values if v is not value]
        if not all(value_found(v, [context.joined]) for v in others) or value_stated(value, claim, context):
            continue
        if any(l in EVENT_QUALIFIERS and not lemma_found(l, context.joined) for l in claim.content):
            continue   # another value is unknown too (a different event), or the claim's own value is stated
        anchor = _anchor(claim, value)
        if anchor is not None and not _said_near(anchor, target, [_token_at(target, v.start) for v in rivals],
                                                 {value.dim.lstrip("#")}):
            continue   # "Born in 1678, he was ordained": 1703 stands by "priest", not by "born"
        skip = stand_in(claim, context.sentences[0]) if context.rest_needed >= 1.0 else ()
        if rest_coverage(claim, context.joined, skip, skip_value=value, soft=True) >= context.rest_needed and \
                rest_coverage(claim, _with_subject(target, context), skip, skip_value=value,
                              soft=True) >= context.rest_needed:
            kind = "date" if value.kind in ("year", "date", "century") else "number"
            return f"{kind} mismatch: the claim says {value.text}, the evidence says {rivals[0].text}"
    return None


def competing_names(claim: Analysis, target: Analysis, name: str) -> list[str]:
    place, kind = place_of(name)
    out = []
    for other in target.names:
        if other in target.guessed or name_found(other, claim) or other in claim.names \
                or role(claim, name) != role(target, other):
            continue
        other_place, other_kind = place_of(other)
        if kind or other_kind:
            if kind and other_kind == kind and other_place != place and not lexicon.nested(place, other_place):
                out.append(other)
            continue
        shared = ([w.lower() for w in name.split() if w.lower() not in NAME_PARTICLES],
                  [w.lower() for w in other.split() if w.lower() not in NAME_PARTICLES])
        if len(shared[0]) >= 2 and shared[0][:-1] == shared[1][:-1] and shared[0][-1] != shared[1][-1]:
            out.append(other)   # "Space Shuttle Challenger" / "Space Shuttle Discovery": one class, two members
        elif not set(shared[0]) & set(shared[1]) and person_like(name) and person_like(other) \
                and role(claim, name) in ("doer", "undergoer", "copula"):
            out.append(other)   # another person in the same role
    return out


def person_like(name: str) -> bool:
    words = {w.lower() for w in name.split()}
    return (all(w[:1].isupper() for w in name.split() if w.lower() not in NAME_PARTICLES)
            and not name.isupper() and len(name) > 2
            and not words & GENERIC_HEADS and not words & ORGANISATION_WORDS)


_ALIAS_CUES = r"(?:born|née|nee|known as|called|later|formerly|also|alias|or)"


def may_be_one_person(name: str, other: str, evidence: str) -> bool:
    """Two names that may be one person's: a word in common, first names alike ("Marie"/"Maria"), or
    the evidence saying one is the other ("Marie Curie, born Maria Skłodowska")."""
    a, b = [w.lower() for w in name.split()], [w.lower() for w in other.split()]
    if set(a) & set(b) or a[0][:4] == b[0][:4]:
        return True
    first, second = re.escape(name), re.escape(other)
    return bool(re.search(rf"{first}\W+{_ALIAS_CUES}\W+{second}|{second}\W+{_ALIAS_CUES}\W+{first}", evidence))


def name_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """A name (person, country, city) of the claim that the sentence replaces with another of the same kind."""
    for name in claim.names:
        if name_found(name, target):
            continue
        if claim.predicate in NON_EXCLUSIVE or any(t.dep == "ROOT" and t.lemma in NON_EXCLUSIVE for t in claim.toks):
            return None
        rivals = competing_names(claim, target, name)
        if not rivals or not _same_subject(claim, target, name) or name_stated(name, claim, context):
            continue
        if not place_of(name)[1] and context.evidence is not None and name_found(name, context.evidence) \
                and not name_found(name, context.sentences[0]) \
                and any(may_be_one_person(name, rival, context.evidence.text) for rival in rivals):
            continue   # the evidence knows this person elsewhere: "Maria Skłodowska" may be "Marie Curie"
        skip = stand_in(claim, context.sentences[0]) if context.rest_needed >= 1.0 else ()
        if rest_coverage(claim, context.joined, skip, skip_names=(name,), soft=True) >= context.rest_needed and \
                rest_coverage(claim, _with_subject(target, context), skip, skip_names=(name,),
                              soft=True) >= context.rest_needed:
            return f"name mismatch: the claim names {name}, the evidence names {rivals[0]}"
    return None


def _matches(lemma: str, lemmas: set[str]) -> bool:
    # "be" is in the synonyms of "lie" (to be located), but a denied "is" denies no "lies in"
    return bool(lemma) and bool((lexicon.synonyms(lemma) - {"be", "have"} | {lemma}) & lemmas)


def negation_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """The same statement, negated on one side only: what is negated is the other side's main statement
    ("never received the prize" / "won the prize"), and the rest of the claim is stated too. A double
    negative ("cannot ... without") affirms, and a hedged claim ("may not") denies nothing."""
    if bool(claim.negated) == bool(target.negated) or {"without", "unless", "except"} & (target.words | claim.words):
        return None
    if REFUTED_BELIEF & target.lemmas:
        return None   # "the saying that lightning never strikes twice is a myth" denies the negation
    if claim.words & {"may", "might", "could", "some"}:
        return None
    if claim.negated:
        denied = _matches(target.predicate, claim.negated)
        said = "negation mismatch: the claim denies what the evidence states"
    else:
        denied = _matches(claim.predicate, target.negated)
        said = "negation mismatch: the evidence denies what the claim states"
    if not denied:
        return None
    skip = {"never", "not", "no"}
    if rest_coverage(claim, context.joined, skip_lemmas=skip) < NEGATION_COVERAGE or \
            rest_coverage(claim, target, skip_lemmas=skip, soft=True) < REST_COVERAGE:
        return None
    return said


def antonym_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """An opposite word ("above" / "below") where the sentence does not also use the claim's word."""
    target_words = target.lemmas | target.words
    sentence_words = {w for s in context.sentences for w in s.lemmas | s.words}
    in_names = {w.lower() for n in claim.names for w in n.split()}
    words = {t.lemma: t.text for t in claim.toks if t.pos != "PROPN" and t.text.lower() not in in_names}
    for lemma, word in words.items():
        if lemma in sentence_words or word.lower() in sentence_words:
            continue
        opposite = next((o for o in sorted(OPPOSITES.get(lemma, set()) | OPPOSITES.get(word.lower(), set()))
                         if o in target_words), None)
        # the rest of the claim stated in this clause too, not only with the best-aligned sentence
        if opposite and rest_coverage(claim, context.joined, skip_lemmas={lemma}) >= REST_COVERAGE \
                and rest_coverage(claim, target, skip_lemmas={lemma}, soft=True) >= REST_COVERAGE:
            return f"opposite wording: the claim says '{word}', the evidence says '{opposite}'"
    return None


def role_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """The same relation with the roles reversed ("Kasparov beat Deep Blue" vs "Deep Blue beat Kasparov")."""
    theirs = relations(target)
    if not all(value_found(v, [context.joined]) for v in claim.values):
        return None
    for rel, doer, receiver in relations(claim):
        for t_rel, t_doer, t_receiver in theirs:
            if t_rel != rel:
                continue
            if _same(doer, t_receiver) and _same(receiver, t_doer) and not (_same(doer, t_doer)):
                return f"roles reversed: in the evidence {t_doer} did it to {t_receiver}, not the other way round"
    return None


def same_relation(claim: Analysis, target: Analysis) -> bool:
    """The evidence states the claim's relation with the same roles ("lost to" for "defeated")."""
    theirs = relations(target)
    return any(r == t_r and _same(d, t_d) and _same(o, t_o)
               for r, d, o in relations(claim) for t_r, t_d, t_o in theirs)


def _same(a: str, b: str) -> bool:
    return bool(a and b) and (name_found(a, _only(b)) or name_found(b, _only(a)))


