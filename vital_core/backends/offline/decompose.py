"""Rule-based decomposition: sentences (pysbd) split into atomic claims.

A sentence is cut further where it coordinates whole clauses or predicates
("..., and it ...", "...; ...", "... and now draws ..."; ``coordination``),
where a non-restrictive relative clause adds a second fact
("the Four Seas, which correspond to ..."), and where a list coordinates
subjects or objects ("X, Y and Z wrote it" -> "X wrote it", "Y wrote it",
"Z wrote it"). Each claim keeps the subject of its sentence so that it stands
alone; a sentence-initial pronoun is replaced by the previous sentence's
subject when that subject is a name (``language.pronouns``). The cuts inside
one clause (subordinate and relative clauses, participles, appositives, a
second predicate, modifiers, manner adverbs) are ``clause_cuts``'.
"""
from __future__ import annotations

import re

from vital_core.backends.offline.clause_cuts import cut_claim
from vital_core.backends.offline.coordination import FINITE_VERB_TAGS, has_verb, split_clauses
from vital_core.backends.offline.language.lexicon import (
    AUXILIARIES,
    DAYS,
    DETERMINERS,
    FUNCTION_CAPS,
    LEAD_IN_WORDS,
    LIST_VERBS,
    PLACE_WORDS,
    SENTENTIAL_VERB_FORMS,
    TITLE_NOUNS,
)
from vital_core.backends.offline.language.nlp import analyse
from vital_core.backends.offline.language.pronouns import (
    CLEFT,
    FULL_NAME,
    LEADING_PRONOUN,
    Antecedents,
    drop_alias,
    replace_object_pronoun,
    replace_subject_pronoun,
    sentence_subject_name,
)
from vital_core.backends.offline.language.values import FULL_DATE
from vital_core.backends.sentences import split_sentences  # noqa: F401 - re-exported for verification
from vital_core.scoring import deadline


def _finish(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if text[-1] not in ".!?\"')":
        text += "."
    return text


# the clause runs to the next comma, colon or semicolon, but not one inside a number ("11:30", "1,500"); a
# phrase set off by commas may open it ("which, being heavier than air, rolled down ...")
_RELATIVE = re.compile(r",\s+(which|who)(,\s+[^,:;]+,)?\s+((?:[^,:;]|(?<=\d)[:,](?=\d))+?)(?=[,:;](?!\d)|\.?$)")


def _noun_phrase(words_before: str) -> str | None:
    """The noun phrase a relative clause hangs on, from the few words before its comma: "knew her father"
    -> "her father", "married William King" -> "William King"; None when it starts with a verb and has
    neither ("to calculate Bernoulli numbers, which is ...": "which" is the whole statement)."""
    words = words_before.split()
    verbs = [i for i, w in enumerate(words[:-1]) if w.lower() in AUXILIARIES]
    if verbs:       # "behind the Sims was Maxis, which ...": the phrase after the verb
        words = words[verbs[-1] + 1:]
        words_before = " ".join(words)
    # the agent of a passive: "invented around 1700 by Bartolomeo Cristofori, who ..." ("the daughter of a
    # banker, who ..." stays ambiguous, so only "by")
    after = [i for i, w in enumerate(words[:-1]) if w.lower() == "by"]
    if after and words[after[-1] + 1][:1].isupper():
        return " ".join(words[after[-1] + 1:])
    if words[0].lower() in DETERMINERS or words[0][:1].isupper() or words[0][:1].isdigit() \
            or words[0].lower() in ("about", "around", "some"):
        return words_before
    for i, w in enumerate(words):
        if w.lower() in DETERMINERS:
            return " ".join(words[i:])
    capitalised = [i for i in range(len(words)) if all(x[:1].isupper() for x in words[i:])]
    return " ".join(words[capitalised[0]:]) if capitalised else None


# a capitalised name, words such as "of" or "in the" inside it ("Castle in the Sky", "Museum of Fine Arts")
_TITLE = r"[A-Z][\w'\-]*(?:\s+(?:(?:of|in|the|and|de|la|von|van)\s+)*[A-Z][\w'\-]*)*"


def _split_relatives(clause: str) -> list[str]:
    """"the Four Seas, which correspond to X, ..." -> main clause + "The Four Seas correspond to X"."""
    extra: list[str] = []
    match = _RELATIVE.search(clause)
    if not match:
        return [clause]
    before = clause[:match.start()]
    why = re.match(r"(?:is|was)\s+why\s+(.+)$", match.group(3))
    if why and match.group(1) == "which" and not match.group(2):
        # "..., which is why chemists write it as C60": the consequence is a statement of its own
        rest = clause[match.end():]
        return [before + ("." if rest.strip() in ("", ".") else rest), why.group(1)[:1].upper() + why.group(1)[1:]]
    # antecedent: a capitalised phrase or a short "the ..." noun phrase ending the main part
    ante = re.search(r"(?<![\w'\-.,])((?:the|a|an|The|A|An)\s+|"
                     r"(?:[Aa]bout |[Aa]round |[Ss]ome )?[\d.,]+\s+(?:million\s+|"
                     rf"thousand\s+|billion\s+)?)?({_TITLE}|"
                     r"(?:[A-Za-z][\w'\-]*\s+){0,2}[A-Za-z][\w\-]*)$", before.strip())
    quoted = _QUOTE_AT_END.search(before.strip())
    if not (ante or quoted) or len(match.group(3).split()) < 2:
        return [clause]
    # '... the ringing cry "Vincerò!", which means ...': the quotation is what the clause speaks of
    antecedent = quoted.group(0) if quoted else _noun_phrase(ante.group(0))
    named = _PERSON_BEFORE_APPOSITIVE.search(before) or _PERSON_DESCRIBED.match(before.strip())
    if match.group(1) == "who" and named:
        # "Tove Jansson, a Finnish artist and writer ..., who published ...", "Tove Jansson was a writer, who ..."
        antecedent = named.group(1)
    elif match.group(1) == "which" and (titled := _NAME_BEFORE_APPOSITIVE.search(before)) \
            and (titled.start(1) > 0 or analyse(before)[0].pos == "PROPN"):  # "Interestingly, the ...": no name
        # "... was Castle in the Sky, an adventure about a floating city, which reached cinemas in 1986": the
        # name the appositive describes, not the appositive's last noun
        antecedent = titled.group(1)
    if not antecedent or antecedent.split()[0].lower() in AUXILIARIES or antecedent.lower() in FUNCTION_CAPS:
        return [clause]
    # "..., which makes it the second-longest river": "which" stands for the whole statement, and a
    # measure ("6,400 kilometres, which ...") is no subject of its own; one claim, not a fragment
    if not quoted and match.group(3).split()[0].lower() in SENTENTIAL_VERB_FORMS or re.search(r"\d", antecedent) and \
            re.search(r"\b(kilometres|kilometers|metres|meters|miles|feet|km|years|percent|%)\b", antecedent):
        return [clause]
    # "..., which ran in Le Petit Vingtième, the children's supplement of a newspaper, ...": the appositive
    # that follows belongs to the clause's last noun, not to the main clause
    after = clause[match.end():]
    appositive = _TRAILING_APPOSITIVE.match(after)
    relative = match.group(3) + (appositive.group(0) if appositive else "")
    after = after[appositive.end():] if appositive else after
    if re.match(_RUNS_ON, after) and not any(t.tag in FINITE_VERB_TAGS | {"MD"} for t in analyse(after)):
        # ", who published the first book, The Moomins and the Great Flood, in 1945.": no verb resumes the
        # main clause, so the relative clause runs to the sentence's end
        relative, after = relative + after.rstrip(" ."), "."
    # the comma that closed the clause goes ("The Seas, which ..., are old"), unless a participle follows
    main = (before + (after if re.match(r",\s+\w+ing\b", after) else re.sub(r"^,\s*(?=\w)", " ", after))
            ).replace(" ,", ",")
    aside = match.group(2)
    extra.append(f"{antecedent}{aside} {relative}" if aside else _relative_claim(antecedent, match.group(1), relative))
    return [main] + extra


# "on 15 April 1912, a Monday, ...", "on 1 November 1755, All Saints' Day, ...": what the day was is a fact
# of its own, and the parser reads the day as the verb's object
_DAY_OF_DATE = re.compile(rf"(?P<date>(?i:{FULL_DATE})),\s+(?P<day>(?:an?\s+)?(?i:{'|'.join(DAYS)})|"
                          rf"(?:[A-Z][\w'’]*\s+){{1,3}}(?:Day|Eve|Sunday))(?=\s*[,;.]|$)")
# ... and the claim it makes ("15 April 1912 was a Monday"), context wherever it is ranked (``importance``)
DAY_OF_DATE_CLAIM = re.compile(rf"(?i:{FULL_DATE})\s+(?:was|is)\b")


def _day_of_date(text: str) -> tuple[str, str | None]:
    """The text without the day named after its date, and the claim saying what day the date was."""
    match = _DAY_OF_DATE.search(text)
    if match is None:
        return text, None
    return text[:match.end("date")] + text[match.end():], _finish(f"{match['date']} was {match['day']}")


_QUOTE_AT_END = re.compile(r'"[^"]+"$|\u201c[^\u201d]+\u201d$')
# "Caleb Bradham, a pharmacist in New Bern, North Carolina, who ...": the name before the appositive
_PERSON_BEFORE_APPOSITIVE = re.compile(rf"(?<![\w.])((?:{FULL_NAME})),\s+(?:a|an|the)\s+[^,]*"
                                       r"(?:,\s+[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*)*)*$")
# ... and a thing's name before one ("Castle in the Sky, an adventure about ..., which ...")
_NAME_BEFORE_APPOSITIVE = re.compile(rf"(?<![\w'.\-])({_TITLE}),\s+(?:a|an|the)\s+[^,]*$")
# "Gustave Eiffel was an engineer, who ...": the person the description is of
_PERSON_DESCRIBED = re.compile(rf"((?:{FULL_NAME}))\s+(?:is|was)\s+(?:a|an)\s+[^,]*$")
# what may follow a relative clause's comma and still be its own: a title or a name set off, or a phrase of
# time or place ("..., The Moomins and the Great Flood, in 1945."); not "hence ..." or a participle
_RUNS_ON = re.compile(r",\s+(?:[A-Z]|(?:the|a|an|in|on|at|from|by|with|for)\b)")
_TRAILING_APPOSITIVE = re.compile(r",\s+(?:the|a|an)\s+[^,;:]*?(?=[,;:]|\.?$)")


def _relative_claim(antecedent: str, pronoun: str, rest: str) -> str:
    """The relative clause as a claim of its own: "New York, which *Lang had visited in 1924*" -> "Lang had
    visited New York in 1924"; "the Seas, which *correspond to X*" -> "the Seas correspond to X"."""
    toks = analyse(f"{pronoun} {rest}")
    verb = next((t for t in toks if t.dep == "ROOT"), None)
    if toks and toks[0].dep == "dobj" and verb is not None and verb.i > 1:
        # the pronoun is the object: the antecedent goes after its verb
        offset = verb.start + len(verb.text) - len(pronoun) - 1
        article = antecedent.split()[0] in ("The", "A", "An")
        return f"{rest[:offset]} {antecedent[:1].lower() + antecedent[1:] if article else antecedent}{rest[offset:]}"
    return f"{antecedent} {rest}"


def _is_item(words: list[str]) -> bool:
    # Stricter than has_verb: plural nouns ("soybeans") end in -s too.
    return 0 < len(words) <= 5 and not any(
        w.lower() in AUXILIARIES or w.lower() in LIST_VERBS or w.lower().endswith("ed") for w in words)


def _lead_in_cut(words: list[str]) -> int | None:
    """Where a lead-in ends ("protectors of | the East Sea"): the item is the rest, at most 5 words."""
    return next((i for i in range(len(words) - 1, 0, -1)
                 if words[i - 1].lower() in LEAD_IN_WORDS and len(words) - i <= 5), None)


def _items_before(body: str) -> tuple[list[str], list[str], list[str]] | None:
    """The list items before the conjunction: (pieces left before them, the lead-in's words, items).

    The items are the short, verbless comma-separated pieces; the first may carry
    a lead-in ("protectors of the East Sea"). None when there is no such list.
    """
    pieces = [p.strip() for p in body.split(",")]
    items: list[str] = []
    while pieces and _is_item(pieces[-1].split()) and len(items) < 8:
        items.insert(0, pieces.pop())
    prefix_words: list[str] = []
    if pieces:
        words = pieces.pop().split()
        cut = _lead_in_cut(words)
        if cut is None:
            return None
        prefix_words = words[:cut]
        items.insert(0, " ".join(words[cut:]))
    if not items or any(not _is_item(i.split()) for i in items):
        return None
    return pieces, prefix_words, items


def _item_after(right: str) -> list[str]:
    """The words of the last item: after the conjunction, up to punctuation, a verb or 5 words."""
    take: list[str] = []
    for w in right.split():
        lw = w.lower().strip(",.;:")
        if lw in AUXILIARIES or lw in LIST_VERBS or lw in ("who", "which", "that") or len(take) >= 5:
            break
        take.append(w)
        if re.search(r"[,.;:]$", w):
            break
    return take


def _one_claim_per_item(prefix: str, items: list[str], rest: str, subject_list: bool) -> list[str]:
    out = []
    for item in items:
        tail = rest
        if subject_list:
            # agreement: "X, Y and Z are ..." -> "X is ..."
            tail = re.sub(r"^(\s+)(are|were|have)\b",
                          lambda m: m.group(1) + {"are": "is", "were": "was", "have": "has"}[m.group(2)], tail)
        out.append(f"{prefix} {item}{tail}".strip())
    return out


def _finite_verb_in(claim: str, start: int, item: str) -> bool:
    """Does the parse read a finite verb inside ``item`` (written at or after ``start``)? Irregular pasts
    ("became", "won") escape the word rules."""
    at = claim.find(item, start)
    return at >= 0 and any(at <= t.start < at + len(item) and t.pos in ("VERB", "AUX") and t.tag in
                           ("VBD", "VBZ", "VBP", "MD") for t in analyse(claim))


def _split_list(claim: str) -> list[str]:
    """One claim per item of a coordinated list of short noun phrases.

    Scans each "and"/"or" with plain string operations (no backtracking
    regex): the items are the short, verbless comma-separated pieces before
    the conjunction and the phrase after it up to punctuation or a verb.
    """
    for conj in re.finditer(r",?\s+(and|or)\s+", claim):
        left, right = claim[:conj.start()], claim[conj.end():]
        if ":" in left:
            continue   # "There are four bases: A, B and C" - one claim; "There are four bases: C" is a fragment
        boundary = max(left.rfind(";"), left.rfind("("))
        head, body = left[:boundary + 1], left[boundary + 1:]
        before = _items_before(body)
        take = _item_after(right) if before is not None else []
        if not take:
            continue
        pieces, prefix_words, items = before
        if re.search(r"\bbetween\s+[^;]*$", body, re.IGNORECASE):
            continue   # "the strait between Portsmouth and the Isle of Wight": one thing between two
        if pieces and prefix_words or any(len(i.split()) >= 3 and _lead_in_cut(i.split()) for i in items[1:]):
            continue   # "concertos for violin and strings, one for each of spring, summer and winter": whose lead-in?
        last = " ".join(take).rstrip(",.;:")
        if not last or has_verb(last.split()) or _finite_verb_in(claim, conj.end(), last):
            continue
        items.append(last)
        if _mixed(items):
            continue   # "in Milwaukee, Wisconsin, in 1903, when William S. Harley and his friend ...": no list
        if items[0][:1].isupper() and any(re.match(r"(?:the|a|an)\s+.*\b[a-z]", i) for i in items[1:]):
            continue   # "Antonio Vivaldi, the Italian composer and violinist": an apposition, not a list
        comma_list = len(items) >= 3
        if not (comma_list or all(i[:1].isupper() for i in items)):
            continue
        if not comma_list and _inside_title(left, items):
            continue   # "Pride and Prejudice", "the film "Romeo and Juliet"": one title, not two things
        rest = right[len(last):] if right.startswith(last) else right.split(last, 1)[1] if last in right else ""
        group = _GROUP_APPOSITIVE.match(rest)
        if group:
            # "by Larry Page and Sergey Brin, two PhD students at Stanford, in 1996": the pair is described
            # together - a claim of its own - and did together what the sentence says (one claim: "by Page"
            # alone would read as against evidence naming both)
            stop = rest.find(",", group.end())
            stop = len(rest.rstrip(" .")) if stop < 0 else stop
            end = conj.end() + right.find(last) + len(last)
            start = claim.find(items[0])
            if start < 0:
                continue
            main = claim[:end] + rest[stop:]
            return [main, f"{claim[start:end]} were {rest[2:stop].strip()}"]
        if not head.strip() and not pieces and rest.strip(" .,;:!?") and (
                prefix_words and prefix_words[-1].lower() == "of"
                or re.match(r"(?:the|a|an)\s+[a-z][\w\-]*\s+of\s+[A-Z]", items[0], re.IGNORECASE)
                and items[0].split()[1][:1].islower()):
            continue   # "The cast of A, B and C became ...": the list says who the subject is, one claim
        lead = ([", ".join(pieces)] if pieces else []) + prefix_words
        prefix = (head + (" " if head else "") + " ".join(lead)).strip()
        subject_list = not prefix
        if subject_list and not rest.strip(" .,;:!?"):
            # nothing follows the list, so it is not a subject: "Refugees came from Iraq and
            # Syria" lists objects, and the first item carries the lead-in
            first = items[0].split()
            cut = _lead_in_cut(first)
            if cut is None:
                continue
            prefix, items[0], subject_list = " ".join(first[:cut]), " ".join(first[cut:]), False
        return _one_claim_per_item(prefix, items, rest, subject_list)
    return [claim]


_GROUP_APPOSITIVE = re.compile(r",\s+(?:two|both|three|four|five|the pair|the two|the duo|the couple|"
                               r"a pair|a duo|a couple)\b", re.IGNORECASE)
_PHRASE_OPENERS = {"in", "on", "at", "by", "from", "with", "for", "to", "during", "after", "before", "when",
                   "where", "while", "because", "since", "although", "though", "if", "until", "as"}


def _mixed(items: list[str]) -> bool:
    """Do the "items" open differently, some with a preposition or a subordinator ("in 1903", "when ...")?
    A list's items are alike; a sentence's phrases that happen to sit between commas are not."""
    openers = {i.split()[0].lower() if i.split() and i.split()[0].lower() in _PHRASE_OPENERS else ""
               for i in items}
    return len(openers) > 1


_PAREN = re.compile(r"\([^()]*\)")


def _inside_title(left: str, items: list[str]) -> bool:
    """Is the two-item "X and Y" ending at ``left`` one title or name rather than two things?

    Yes when it sits inside quotes, when the capitalised words before "and"
    follow "of" or a title noun ("the novel Pride and Prejudice", "the Museum
    of Arts and Sciences"), or when it joins two single capitalised words that
    are not known places ("Pride and Prejudice", "War and Peace"; but "Iraq and
    Syria" is split).
    """
    if left.count('"') % 2 == 1 or left.count("\u201c") > left.count("\u201d"):
        return True
    words = left.split()
    run = 0
    while run < len(words) and words[len(words) - 1 - run][:1].isupper():
        run += 1
    if run < len(words) and words[len(words) - 1 - run].lower().strip(",") in ({"of"} | TITLE_NOUNS):
        return True
    singles = [i for i in (words[-1:] if run == 1 else []) + items[1:] if len(i.split()) == 1]
    return (run == 1 and len(singles) == len(items) and all(i[:1].isupper() for i in singles)
            and not any(i.lower().strip(".,") in PLACE_WORDS for i in singles))


def decompose_sentence(sentence: str, previous_subject: str | None = None, vessel: bool = False,
                       defined: bool = False) -> list[str]:
    """Atomic, self-contained claims of one sentence (at least the sentence itself). ``vessel``: the previous
    subject is a ship, which "she" may stand for; ``defined``: the text said what it is, so "It" may too."""
    # Hide parentheticals so their commas do not cut lists; restored at the end.
    asides = _PAREN.findall(sentence)
    text = sentence.strip()
    for n, aside in enumerate(asides):
        text = text.replace(aside, f"\u27e8{n}\u27e9", 1)
    text = replace_object_pronoun(replace_subject_pronoun(text, previous_subject, vessel, defined), previous_subject)
    text, alias = drop_alias(text)
    text, day = _day_of_date(text)
    claims: list[str] = []
    subject = sentence_subject_name(text)
    for n, clause in enumerate(split_clauses(text)):
        # "..., and they are often called upon": the later clause's pronoun is the sentence's subject
        if n and subject and LEADING_PRONOUN.match(clause[:1].upper() + clause[1:]) \
                and subject.split()[0].lower() not in ("he", "she", "it", "they") \
                and not CLEFT.match(clause):
            clause = LEADING_PRONOUN.sub(subject, clause[:1].upper() + clause[1:], count=1)
        for part in _split_relatives(clause):
            for claim in _split_list(part):
                for n, aside in enumerate(asides):
                    claim = claim.replace(f"\u27e8{n}\u27e9", aside)
                for atom in cut_claim(_finish(claim), _finish):
                    if len(atom.split()) >= 2 and atom not in claims:
                        claims.append(atom)
    claims += [extra for extra in (day, alias) if extra]
    return claims or [_finish(sentence)]


def decompose(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, claims) pairs for a whole response."""
    out = []
    seen = Antecedents()
    for sentence in split_sentences(text):
        deadline.check()
        out.append((sentence, decompose_sentence(sentence, *seen.for_sentence(sentence))))
        seen.saw(sentence)
    return out
