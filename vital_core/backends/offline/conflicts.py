"""The ways a claim can disagree with one evidence sentence, each a small function returning a reason or None.

Every rule needs the rest of the claim to be stated by the sentence
(``stated.rest_coverage``): a different number or name only contradicts a claim
when it fills the same slot of the same statement ("2,200 people were
aboard" is not contradicted by "1,500 people died"). Reasons are plain words
that quote the claim and the evidence as written.
"""
from __future__ import annotations

import re

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.analysis import Analysis, lemma_found
from vital_core.backends.offline.language.demonyms import describes_a_noun, says_where_from
from vital_core.backends.offline.language.frames import measure_frame
from vital_core.backends.offline.language.instances import may_be_one_person, same_instance
from vital_core.backends.offline.language.lexicon import (
    ANTONYMS,
    EVENT_QUALIFIERS,
    GROUP_NOUNS,
    LIFE_EVENTS,
    NAME_PARTICLES,
    NON_EXCLUSIVE,
    NON_EXCLUSIVE_ADVERBS,
    REFUTED_BELIEF,
    STAND_IN_DETERMINERS,
    person_like,
    place_of,
)
from vital_core.backends.offline.language.name_match import name_found
from vital_core.backends.offline.language.nlp import Tok, children, governing_verb, subtree
from vital_core.backends.offline.language.roles import relations
from vital_core.backends.offline.language.value_match import (
    comparable,
    consistent,
    distance_and_size,
    in_lifespan,
    mismatch_reason,
    name_mismatch,
    time_offset,
)
from vital_core.backends.offline.language.values import Value, vague
from vital_core.backends.offline.stated import (
    NEIGHBOURHOOD,
    REST_COVERAGE,
    Context,
    as_name,
    claimed_by_rival,
    derivable,
    name_stated,
    of_another_verb,
    rest_coverage,
    said_near,
    same_clause,
    same_party,
    same_time,
    token_at,
    value_found,
    value_stated,
)

# Opposite words, compared whole (lemma or word): "exclusive" is no form of "exclude".
OPPOSITES: dict[str, set[str]] = {}
for _a, _b in ANTONYMS:
    OPPOSITES.setdefault(_a, set()).add(_b)
    OPPOSITES.setdefault(_b, set()).add(_a)
NEGATION_COVERAGE = 0.85


def _same_subject(claim: Analysis, target: Analysis, conflicting: str) -> bool:
    """The claim's subject is the evidence's subject too, not a possessor ("Christie's detective is Belgian")."""
    subject = claim.subject
    if not subject or subject == conflicting:
        return True
    for name, head in target.names.items():
        if name_found(subject, as_name(name)):
            return target.toks[head].dep != "poss"
    return True


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


def anchor(claim: Analysis, value: Value) -> Analysis | None:
    """The claim's words that a value in a side clause belongs to: the verb that governs it and the content
    words next to it ("Born in Venice in 1678, he was ordained ...": 1678 belongs to "born"); None when
    the value belongs to the main verb (all of the claim is its anchor) or no content word is by it."""
    if not claim.toks:
        return None
    toks = claim.toks
    p = token_at(claim, value.start)
    governor = governing_verb(toks, p)
    if governor is None or toks[governor].dep == "ROOT" or governor and toks[governor].text[:1].isupper():
        return None     # (a capitalised verb mid-sentence is a title's word: "his 'I Have a Dream' speech in 1965")
    near = {t.lemma for t in toks[max(0, p - NEIGHBOURHOOD):p + NEIGHBOURHOOD + 1] if same_clause(toks, p, t.i)}
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
    if not claim.toks or not target.subject and not _noun_of_named_subject(target):
        return ()
    for t in claim.toks:
        subject = t.dep in ("nsubj", "nsubjpass") and claim.toks[t.head].dep == "ROOT"
        # or the subject's owner: "The book's author was ..." is Heidi's author
        owner = t.dep == "poss" and claim.toks[t.head].dep in ("nsubj", "nsubjpass") \
            and claim.toks[claim.toks[t.head].head].dep == "ROOT"
        if (subject or owner) and t.pos == "NOUN":
            kids = [k for k in children(claim.toks, t.i) if k.dep != "case"]
            if kids and all(k.dep == "det" and k.lemma in STAND_IN_DETERMINERS for k in kids) \
                    and not lemma_found(t.lemma, target):
                return (t.lemma,)
    return ()


def _noun_of_named_subject(a: Analysis) -> bool:
    """Is the main verb's subject a noun with a name on it, a named subject too ("The Ggantija temples are on
    Gozo")?"""
    named = set(a.names.values())
    return any(t.dep in ("nsubj", "nsubjpass") and a.toks[t.head].dep == "ROOT" and t.pos == "NOUN"
               and any(k.dep in ("compound", "amod") and k.i in named for k in children(a.toks, t.i)) for t in a.toks)


def value_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """A claim value whose slot the sentence fills with another value, the rest of the claim stated."""
    for value in claim.values:
        rivals = [v for v in target.values if comparable(value, v) and not of_another_noun(claim, target, v)
                  and not (in_lifespan(target.text, v) and not claim.lemmas & LIFE_EVENTS)
                  and not time_offset(target.text, v) and not of_another_verb(claim, target, v)
                  # a distance from somewhere is no rival of a size ("110 metres long" / "2.5 km south of ...")
                  and not distance_and_size(claim.text, value, target.text, v) and not vague(target.text, v)]
        if not rivals or derivable(value, target) or not same_instance(claim, target) \
                or _range_end(claim, value, rivals):
            continue
        if any(consistent(value, v) for v in rivals):
            if not claimed_by_rival(value, claim, target, rivals):
                continue
            rivals = [v for v in rivals if not consistent(value, v)]
        others = [v for v in claim.values if v is not value]
        # a value the claim states too is no rival ("from September 1994 to May 2004" against "premiering on
        # September 22, 1994, and ending on May 6, 2004": 1994 is the claim's other end)
        rivals = [v for v in rivals if not any(consistent(o, v) for o in others)]
        if not rivals:
            continue
        if not all(value_found(v, [context.joined]) for v in others) or value_stated(value, claim, context):
            continue
        if any(w in EVENT_QUALIFIERS and not lemma_found(w, context.joined) for w in claim.content) \
                or not same_time(claim, target):
            continue   # another value is unknown too (a different event, another time), or the claim's own is stated
        bound_to = anchor(claim, value)
        if bound_to is not None and not said_near(bound_to, target, [token_at(target, v.start) for v in rivals],
                                                 {value.dim.lstrip("#")}):
            continue   # "Born in 1678, he was ordained": 1703 stands by "priest", not by "born"
        skip = stand_in(claim, context.sentences[0]) if context.rest_needed >= 1.0 else ()
        skip = (*skip, *measure_frame(claim, target))
        if rest_coverage(claim, context.joined, skip, skip_value=value, soft=True) >= context.rest_needed and \
                rest_coverage(claim, _with_subject(target, context), skip, skip_value=value,
                              soft=True) >= context.rest_needed:
            return mismatch_reason(value, rivals[0])
    return None


_RANGE_OPENING = re.compile(r"\b(?:between|from)\s+(?:\S+\s+){1,3}(?:and|to)\s+$", re.IGNORECASE)


def _range_end(claim: Analysis, value: Value, rivals: list[Value]) -> bool:
    """The value ends a range ("between June and September 1692") and a rival is a day of its year ("10 June
    1692"), which the range may hold: no other value in the claim's slot."""
    return bool(_RANGE_OPENING.search(claim.text[:value.start])) \
        and any(v.kind == "date" and v.value == value.value for v in rivals)


def of_another_noun(claim: Analysis, target: Analysis, value: Value) -> bool:
    """A value in a relative clause of a noun the claim does not speak of: "buried in the Church of San
    Domenico, which was demolished in 1869" dates the church, not the burial; or after "of" on a name the claim
    does not give ("to house the Great Exhibition of 1851")."""
    toks = target.toks
    if not toks:
        return False
    at = toks[token_at(target, value.start)]
    if at.dep == "pobj" and toks[at.head].lemma == "of" and toks[toks[at.head].head].pos == "PROPN":
        # "the Great Exhibition of 1851": the date is the named event's
        owner = toks[toks[at.head].head].text.lower()
        return not any(owner in n.lower().split() for n in claim.names)
    verb = governing_verb(toks, at.i)
    if verb is None or toks[verb].dep != "relcl":
        return False
    noun = toks[toks[verb].head]
    named = {w.lower() for n in claim.names for w in n.split()}
    return noun.lemma not in claim.lemmas and noun.text.lower() not in named


def competing_names(claim: Analysis, target: Analysis, name: str) -> list[str]:
    place, kind = place_of(name)
    described = describes_a_noun(claim, name)
    from_where = says_where_from(claim, name)
    out = []
    for other in target.names:
        tok = target.toks[target.names[other]] if target.toks else None
        if tok is not None and tok.dep in ("compound", "amod") and target.toks[tok.head].pos == "NOUN" \
                and not place_of(other)[1]:
            continue    # a name that describes a noun ("the Khmer ruler") is no one in the role; a place's
            # adjective still says where ("the German state of Bavaria", "the Norwegian composer")
        if described and other.lower() not in lexicon.DEMONYMS:
            continue    # "the German foundry" says where the foundry is from, not what a country named there is
        if from_where and other.lower() not in lexicon.DEMONYMS \
                and not (tok is not None and tok.dep == "pobj" and target.toks[tok.head].lemma == "from"):
            continue    # "was a German chemist" is where he is from ("the explorer from Norway"), not where he
            # worked ("at the University of Ghent in Belgium")
        if tok is not None and _of_something_else(claim, target, tok, other):
            continue
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
        elif (not set(shared[0]) & set(shared[1]) or _same_family(shared[0], shared[1])) \
                and person_like(name) and person_like(other) \
                and role(claim, name) in ("doer", "undergoer", "copula") and _same_verb(claim, name, target, other):
            out.append(other)   # another person in the same role of the same verb ("Bob Tenor" / "Walt Tenor")
    return sorted(out, key=lambda other: -_same_slot(claim, name, target, other))


def _of_something_else(claim: Analysis, target: Analysis, tok: Tok, other: str) -> bool:
    """A name after "in" that is no rival: a people's adjective there is a language ("first published in
    German"), and a place there may be another named thing's ("the Gotthard road tunnel in Switzerland")."""
    if tok.dep != "pobj" or target.toks[tok.head].text != "in":
        return False
    if other.lower() in lexicon.DEMONYMS:
        # ... unless the sentence also uses it of someone ("a Swedish writer who wrote in Swedish")
        return len(re.findall(rf"\b{re.escape(other.lower())}\b", target.lowered)) == 1
    # ... a thing of the kind the claim speaks of ("tunnel"), under a name the claim does not give; not a place
    # the sentence places in turn ("a village near Granada in southern Spain")
    owner = target.toks[target.toks[tok.head].head]
    named = [t for t in target.toks if t.head == owner.i and t.dep == "compound" and t.pos == "PROPN"]
    named += [owner] if owner.pos == "PROPN" else []
    return owner.pos in ("NOUN", "PROPN") and owner.text.lower() in claim.words \
        and any(not any(t.text.lower() in n.lower() for n in claim.names) for t in named)


def _same_slot(claim: Analysis, name: str, target: Analysis, other: str) -> int:
    """How much the two names' places in their sentences agree (their dependency, the verb governing them):
    the rival a reason names is the one in the claim's slot ("published by Faber" / "written by Tolkien and
    published by Allen & Unwin": Allen & Unwin)."""
    if not claim.toks or not target.toks:
        return 0
    mine, theirs = claim.toks[claim.names[name]], target.toks[target.names[other]]
    verbs = [governing_verb(a.toks, t.i) for a, t in ((claim, mine), (target, theirs))]
    same_verb = None not in verbs and claim.toks[verbs[0]].lemma == target.toks[verbs[1]].lemma
    return (mine.dep == theirs.dep) + 2 * same_verb


def _same_family(mine: list[str], theirs: list[str]) -> bool:
    """Two full names with one surname and two first names: two people ("Pierre Curie" / "Marie Curie")."""
    return len(mine) >= 2 and len(theirs) >= 2 and mine[-1] == theirs[-1] and mine[0] != theirs[0] \
        and len(mine[0].strip(".")) > 1 and len(theirs[0].strip(".")) > 1


def _same_verb(claim: Analysis, name: str, target: Analysis, other: str) -> bool:
    """The two names hang on one verb or its synonym, or on two verbs acting on one thing ("Newton formulated
    the theory" / "Einstein presented his theory"), or one side's verb is unknown. "Serena Williams grew up in
    Compton" is no rival of the father by whom she "was trained" there."""
    mine, theirs = (governing_verb(a.toks, a.names[n]) for a, n in ((claim, name), (target, other)))
    if mine is None or theirs is None:
        return True
    lemma = claim.toks[mine].lemma
    # "had Angkor Wat built": the act is the causative's complement
    theirs_too = {target.toks[theirs].lemma} | {c.lemma for c in children(target.toks, theirs)
                                                if c.dep in ("ccomp", "xcomp") and c.pos == "VERB"}
    if "be" in {lemma} | theirs_too or _matches(lemma, theirs_too) or any(_matches(t, {lemma}) for t in theirs_too):
        return True
    # two verbs for one act ("performed" / "carried out") share what is acted on: the claim's verb has a
    # patient the sentence states ("The first heart transplant was performed by ...")
    patients = {t.lemma for t in claim.toks if t.head == mine and t.dep in ("nsubjpass", "dobj")}
    # in the rival verb's own clause, not in a clause coordinated with it ("..., and Persson left the company")
    clause = subtree(target.toks, theirs) - set().union(
        *(subtree(target.toks, c.i) for c in children(target.toks, theirs) if c.dep == "conj"))
    theirs_words = {target.toks[i].lemma for i in clause}
    return bool(patients & theirs_words)


def name_conflict(claim: Analysis, target: Analysis, context: Context) -> str | None:
    """A name (person, country, city) of the claim that the sentence replaces with another of the same kind."""
    for name in claim.names:
        if name_found(name, target):
            continue
        if claim.predicate in NON_EXCLUSIVE or any(t.dep == "ROOT" and t.lemma in NON_EXCLUSIVE for t in claim.toks) \
                or claim.words & NON_EXCLUSIVE_ADVERBS:
            return None
        rivals = competing_names(claim, target, name)
        if not rivals or not _same_subject(claim, target, name) or name_stated(name, claim, context) \
                or not same_instance(claim, target):
            continue
        if not place_of(name)[1] and context.evidence is not None and name_found(name, context.evidence) \
                and not name_found(name, context.sentences[0]) \
                and any(may_be_one_person(name, rival, context.evidence.text) for rival in rivals):
            continue   # the evidence knows this person elsewhere: "Maria Skłodowska" may be "Marie Curie"
        skip = stand_in(claim, context.sentences[0]) if context.rest_needed >= 1.0 else ()
        if rest_coverage(claim, context.joined, skip, skip_names=(name,), soft=True) >= context.rest_needed and \
                rest_coverage(claim, _with_subject(target, context), skip, skip_names=(name,),
                              soft=True) >= context.rest_needed:
            return name_mismatch(name, rivals[0])
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
    # an opposite inside a name is no word of the sentence's ("the First World War" says no "war" against
    # "peace"), nor one the claim says itself
    their_names = {w.lower() for n in target.names for w in n.split()} | \
        {t.lemma for t in target.toks if t.pos == "PROPN"}
    for lemma, word in words.items():
        if lemma in sentence_words or word.lower() in sentence_words:
            continue
        opposite = next((o for o in sorted(OPPOSITES.get(lemma, set()) | OPPOSITES.get(word.lower(), set()))
                         if o in target_words and o not in their_names and o not in claim.lemmas), None)
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
            if same_party(doer, t_receiver) and same_party(receiver, t_doer) and not (same_party(doer, t_doer)):
                return f"roles reversed: in the evidence {t_doer} did it to {t_receiver}, not the other way round"
    return None
