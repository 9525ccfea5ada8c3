"""What a sentence states, as the verifier compares it: content lemmas, names, values, negation, roles.

``analyse_texts`` turns sentences into ``Analysis`` objects with the spaCy
parse (``nlp``), the value normaliser (``values``) and the lexicon
(``lexicon``). ``lemma_found`` decides whether a word of a claim is stated by
some evidence text, allowing for lemmas, synonyms and soft matches
("financed"/"paid"); ``name_match.name_found`` does the same for a name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from vital_core.backends.offline.language import lexicon
from vital_core.backends.offline.language.embedder import embed
from vital_core.backends.offline.language.lexicon import (
    ADJECTIVE_NOUNS,
    DAYS,
    DIMENSION_WORDS,
    EVENT_HEADS,
    EVENT_PARTS,
    FUNCTION_CAPS,
    INSTITUTIONS,
    LIGHT,
    MAKER_NOUNS,
    MAKING_VERBS,
    MEASURE_VERBS,
    MONTHS,
    NAME_GLUE,
    NUMBER_WORDS,
    ORDINAL_WORDS,
)
from vital_core.backends.offline.language.makers import MAKER, maker_phrase
from vital_core.backends.offline.language.nlp import Tok, analyse_many
from vital_core.backends.offline.language.text import act_nouns
from vital_core.backends.offline.language.values import Value, extract_values
from vital_core.backends.offline.language.word_rarity import UNKNOWN_RANK, frequency_rank
from vital_core.scoring import deadline

CONTENT_POS = {"NOUN", "VERB", "ADJ", "ADV", "PROPN", "NUM"}
_CAPITAL_RUN = re.compile(r"[A-Z][\w'\-]+(?:,?\s+(?:(?:of|and|for|the|de|on)\s+)*[A-Z][\w'\-]+)+")


def _weekday_of_date(toks: tuple[Tok, ...], t: Tok) -> bool:
    """"on Monday 15 February 1971": the weekday says no more than the date after it."""
    after = toks[t.i + 1] if t.i + 1 < len(toks) else None
    return t.text.lower() in DAYS and after is not None and (after.pos == "NUM" or after.text.lower() in MONTHS)


@dataclass
class Analysis:
    text: str
    toks: tuple[Tok, ...]
    content: dict[str, str] = field(default_factory=dict)     # content lemma -> the word as written
    lemmas: set[str] = field(default_factory=set)             # every lemma, light words included
    words: set[str] = field(default_factory=set)              # every lower-cased word
    names: dict[str, int] = field(default_factory=dict)       # name as written -> index of its head token
    name_keys: set[str] = field(default_factory=set)          # the names' other forms (acronyms, countries)
    values: list[Value] = field(default_factory=list)
    negated: set[str] = field(default_factory=set)            # lemmas under a negation
    subject: str = ""                                         # the main clause's subject name, if a name
    predicate: str = ""                                       # the main verb's lemma (or the copula's complement)
    guessed: set[str] = field(default_factory=set)            # names read for a pronoun: never a rival

    @property
    def lowered(self) -> str:
        return self.text.lower()


def _name_spans(toks: tuple[Tok, ...]) -> list[tuple[int, int]]:
    """Runs of proper nouns (with "of"/"de" glue inside: "Bureau of Investigation") and capitalised demonyms.

    Month and weekday names, single letters ("°C") and sentence-initial function words are not names.
    """
    def starts(t: Tok, i: int) -> bool:
        low = t.text.lower()
        if low in ("st", "st.") and i + 1 < len(toks) and toks[i + 1].pos == "PROPN":
            return True     # "St Mary's Hospital"
        if low in ORDINAL_WORDS and t.text[:1].isupper() and i > 0 and i + 1 < len(toks) \
                and toks[i + 1].pos == "PROPN":
            return True     # "the Second World War", "the Third Reich"
        if not t.text[:1].isupper() or low in FUNCTION_CAPS or len(t.text) < 2 or t.text == "No" \
                or low in NUMBER_WORDS or low in ORDINAL_WORDS or t.pos == "NUM":
            return False
        if t.pos == "PROPN" or low in lexicon.DEMONYMS:
            return True
        # a capitalised noun opening a sentence is a name only when it is no English word ("Chimborazo")
        return t.pos in ("ADJ", "NOUN") and (i > 0 or frequency_rank(low) == UNKNOWN_RANK)

    quoted = {a: b for a, b in _quoted_titles(toks)}
    spans, i = [], 0
    while i < len(toks):
        if i in quoted:     # a quoted title is one name, whatever its words ("Take On Me")
            spans.append((i, quoted[i]))
            i = quoted[i]
            continue
        if not starts(toks[i], i):
            i += 1
            continue
        j = i + 1
        while j < len(toks):
            t = toks[j]
            if starts(t, j) or (t.text.isdigit() and toks[j - 1].pos == "PROPN" and len(t.text) <= 3):
                j += 1
            elif t.text.lower() in NAME_GLUE and j + 1 < len(toks) and starts(toks[j + 1], j + 1):
                j += 1
            elif t.text == "of" and j + 2 < len(toks) and toks[j + 1].text == "the" and starts(toks[j + 2], j + 2):
                j += 2      # "the Battle of the Oranges", "the Museum of the Moon": one name
            elif t.text == "'s" and j + 1 < len(toks) and toks[j + 1].text.lower() in INSTITUTIONS:
                j += 1      # "King's College", "St Mary's Hospital": one name
            else:
                break
        spans.extend(_split_apart(toks, i, j))
        i = j
    return spans


_QUOTES = {'"', "\u201c", "\u201d"}
MAX_TITLE_WORDS = 10


def _quoted_titles(toks: tuple[Tok, ...]) -> list[tuple[int, int]]:
    """(start, end) of the words inside each pair of double quotes that open with a capital: a title."""
    marks = [t.i for t in toks if t.text in _QUOTES]
    out = []
    for a, b in zip(marks[::2], marks[1::2]):
        inner = [t for t in toks[a + 1:b] if t.pos != "PUNCT"]
        if inner and len(inner) <= MAX_TITLE_WORDS and inner[0].text[:1].isupper():
            end = b
            while end > a + 1 and toks[end - 1].pos == "PUNCT":
                end -= 1
            out.append((a + 1, end))
    return out


def _split_apart(toks: tuple[Tok, ...], i: int, j: int) -> list[tuple[int, int]]:
    """A run of capitals the parse reads as two names side by side ("During the First World War Marie Curie
    helped"): split where no dependency joins the two halves, when each half has two words or more."""
    for cut in range(i + 1, j):
        left, right = range(i, cut), range(cut, j)
        # an event's name ends at its head word: "After the Second World War Churchill ..."
        if toks[cut - 1].text.lower() in EVENT_HEADS and cut - i >= 2 \
                and toks[cut].text.lower() not in EVENT_PARTS:
            return [(i, cut)] + _split_apart(toks, cut, j)
        if len(left) >= 2 and len(right) >= 2 and not any(toks[k].head in right for k in left) \
                and not any(toks[k].head in left for k in right):
            return [(i, cut)] + _split_apart(toks, cut, j)
    return [(i, j)]


def _negated(toks: tuple[Tok, ...]) -> set[str]:
    """Lemmas a negation applies to: the negated verb or word, its object/attribute, and "-less" words.

    "No. 9" is a number; "no X was taller than Y" and "no woman had won before Y" state a superlative
    or a first, not a denial, so negations with "than" or "before" in the sentence are left out.
    """
    out: set[str] = set()
    words = {t.text.lower() for t in toks}
    comparative = bool(words & {"than", "before", "until", "till", "unlike"})
    for t in toks:
        low = t.text.lower()
        if low == "no" and t.i + 1 < len(toks) and (toks[t.i + 1].text in (".",) or toks[t.i + 1].pos == "NUM"):
            continue
        if not comparative and (t.dep == "neg" or low in ("never", "no", "cannot", "nobody", "nothing",
                                                          "neither", "nor")):
            head = toks[t.head]
            out.add(head.lemma)
            for child in toks:
                if child.head == head.i and child.dep in ("dobj", "attr", "acomp", "pobj", "prep", "xcomp",
                                                          "advmod"):
                    out.add(child.lemma)
                    out.update(c.lemma for c in toks if c.head == child.i and c.dep in ("pobj", "dobj"))
            if low == "no" and head.pos == "NOUN":
                out.add(toks[head.head].lemma)
        if low.endswith("less") and len(low) > 6 and low not in ("nevertheless", "regardless", "unless"):
            root = low[:-4]
            out.update({root, {"flight": "fly", "harm": "harm", "sight": "see"}.get(root, root)})
    return out


def _main_subject(toks: tuple[Tok, ...], names: dict[str, int]) -> str:
    for name, head in names.items():
        dep = toks[head].dep
        if dep in ("nsubj", "nsubjpass") and toks[toks[head].head].dep == "ROOT":
            return name
    return ""


def _predicate(toks: tuple[Tok, ...]) -> str:
    root = next((t for t in toks if t.dep == "ROOT"), None)
    if root is None:
        return ""
    if root.lemma in ("be", "become", "remain") or root.lemma in LIGHT:
        comp = next((t for t in toks if t.head == root.i and t.dep in ("attr", "acomp", "oprd", "dobj")), None)
        return comp.lemma if comp is not None and comp.lemma not in LIGHT else ""
    return root.lemma


def build(text: str, toks: tuple[Tok, ...]) -> Analysis:
    a = Analysis(text=text, toks=toks)
    inside: set[int] = set()
    for i, j in _name_spans(toks):
        name = " ".join(t.text for t in toks[i:j]).replace(" 's", "'s").strip()
        heads = [k for k in range(i, j) if not i <= toks[k].head < j] or [j - 1]
        a.names[name] = heads[0]
        a.name_keys |= lexicon.expansions(name, words=True)
        inside.update(range(i, j))
    for run in _CAPITAL_RUN.findall(text):
        made = lexicon.acronym(run)
        if made:
            a.name_keys.add(made)
    a.values = extract_values(text)
    value_words = {w.lower() for v in a.values for w in re.findall(r"[\w\-]+", v.text)}
    for t in toks:
        a.lemmas.add(t.lemma)
        a.words.add(t.text.lower())
        noun = ADJECTIVE_NOUNS.get(t.text.lower())
        if noun:
            a.lemmas.add(noun)
        if t.i in inside or t.pos not in CONTENT_POS or t.lemma in LIGHT or not re.search(r"[a-z]", t.lemma):
            continue
        if t.text.lower() in value_words or t.pos == "NUM" or _weekday_of_date(toks, t):
            continue
        a.content.setdefault(t.lemma, t.text)
    said_by_phrase: dict[str, str] = {}     # a phrase's word -> the one word it says ("turns liquid": "melt")
    for word, phrase in lexicon.phrases_in(a.lemmas):
        a.lemmas.add(word)
        said_by_phrase.update(dict.fromkeys(phrase, "" if word in LIGHT else word))
        # the phrase's content words are the one word it says ("went online": "go" is a light verb)
        if any(part in a.content for part in phrase):
            said = " ".join(a.content.pop(part) for part in phrase if part in a.content)
            if word not in LIGHT:
                a.content[word] = said
    maker = maker_phrase(toks)
    if maker is not None:    # "The studio behind it was Maxis": said by "developed by Maxis"
        a.content.pop(maker.lemma, None)
        a.content[MAKER] = maker.text
        a.lemmas.add(MAKER)
    a.negated = _negated(toks)
    a.lemmas |= {w for w in a.negated if any(t.text.lower().endswith("less") for t in toks)}
    a.subject = _main_subject(toks, a.names)
    a.predicate = MAKER if maker is not None else _predicate(toks)
    # "took place": an event happened, which any verb of the event says ("" for a light word)
    a.predicate = said_by_phrase.get(a.predicate, a.predicate)
    return a


def analyse_texts(texts: list[str]) -> list[Analysis]:
    out = []
    for text, toks in zip(texts, analyse_many(texts)):
        deadline.check()
        out.append(build(text, toks))
    return out


def _key(word: str) -> str:
    return word[:5] if len(word) > 5 else word


SOFT_MATCH = 0.55   # MiniLM cosine of two single words that say the same ("financed"/"paid": 0.68)


def lemma_found(lemma: str, target: Analysis, soft: bool = False) -> bool:
    """Is the claim's content lemma stated in ``target``: same lemma, a synonym, a derived form or a name
    word; with ``soft``, also a word whose embedding is close (``SOFT_MATCH``)."""
    if lemma in target.lemmas or lemma in target.words:
        return True
    if lexicon.synonyms(lemma) & target.lemmas or lemma == MAKER and (MAKING_VERBS | MAKER_NOUNS) & target.lemmas:
        return True
    if len(lemma) > 5 and any(_key(other) == _key(lemma) for other in target.lemmas if len(other) > 4):
        return True
    if lemma in MEASURE_VERBS and any(v.is_measure for v in target.values) \
            and not any(t.dep == "npadvmod" and target.toks[t.head].lemma in DIMENSION_WORDS
                        and target.toks[t.head].lemma not in MEASURE_VERBS[lemma] for t in target.toks):
        # "reaches a depth of 594 metres" is said by "has a depth of 594 metres"; not by "stands 1.8 metres
        # tall", which measures something of its own; "rises to 158 metres" is said by "is 158 metres tall"
        return True
    if act_nouns(lemma) & target.lemmas:
        return True     # the act's noun: "The painting is by Bosch" says it was painted by him
    if any(all(part in target.lemmas for part in phrase) for phrase in lexicon.STATED_BY_PHRASES.get(lemma, ())):
        return True
    if lemma in target.name_keys:
        return True
    # a word the vocabulary does not know is a name or a coinage ("twttr", "tweetr"): written, or not stated
    return soft and frequency_rank(lemma) < UNKNOWN_RANK and close_word(lemma, tuple(sorted(target.content)))


@lru_cache(maxsize=50_000)
def close_word(lemma: str, others: tuple[str, ...]) -> bool:
    if not others:
        return False
    vectors = embed([lemma, *others])
    return float((vectors[1:] @ vectors[0]).max()) >= SOFT_MATCH


def memo(a: Analysis, key: str, version: int, compute):
    """``compute(a)``, kept on the analysis and worked out again only when ``version`` changes (the
    verifier adds names and words to evidence analyses after building them: the version counts them)."""
    cached = a.__dict__.get(key)
    if cached is None or cached[0] != version:
        cached = (version, compute(a))
        a.__dict__[key] = cached
    return cached[1]
