"""Sample records and their key answers for the mock provider (``tests/support/mock_provider.py``): varied
enough that scoring them through it gives supported, contradicted and unsupported claims, and vital, okay
and less-important ones."""
from __future__ import annotations

# Facts for sample records: (topic, question, answer, wrong answer, extra facts).
_FACTS = [
    ("Geronimo", "Of which tribe was Geronimo a leader", "Apache", "Sioux",
     ["Geronimo was born in 1829 near the Gila River", "Geronimo surrendered in 1886"]),
    ("The Eiffel Tower", "In which city is the Eiffel Tower", "Paris", "Lyon",
     ["The Eiffel Tower was completed in 1889", "The Eiffel Tower is made of wrought iron"]),
    ("Hamlet", "Who wrote the play Hamlet", "Shakespeare", "Marlowe",
     ["Hamlet is set in Denmark", "Hamlet was written around 1600"]),
    ("The Nile", "Into which sea does the Nile flow", "Mediterranean", "Red",
     ["The Nile flows through Egypt", "The Nile is about 6650 kilometres long"]),
    ("Penicillin", "Who discovered penicillin", "Fleming", "Pasteur",
     ["Penicillin was discovered in 1928", "Penicillin is an antibiotic"]),
    ("Mount Kilimanjaro", "In which country is Mount Kilimanjaro", "Tanzania", "Kenya",
     ["Mount Kilimanjaro is a dormant volcano", "Mount Kilimanjaro has three volcanic cones"]),
]


def sample_answers() -> dict[str, str]:
    """Query fragment -> key answer, for ``MockProvider(answers=...)``."""
    return {question: answer for _, question, answer, _, _ in _FACTS}


def sample_records(n: int = 4, *, with_variants: bool = True) -> list[dict]:
    """Input records (project JSONL shape) whose scoring through the mock is varied:
    supported, contradicted and unsupported claims; vital, okay and less-important ones."""
    out = []
    for i in range(n):
        topic, question, answer, wrong, extra = _FACTS[i % len(_FACTS)]
        key = f"{topic} is associated with {answer}, and {topic} is widely known"
        normal = (f"{key}. {extra[0]}; {extra[1]}. "
                  f"Many visitors ask about {topic.lower()} every year, and guides mention it often.")
        documents = [f"{key}. {extra[0]}. {extra[1]}.",
                     f"Unrelated note number {i}. Guides like to talk about weather."]
        responses = {"normal": normal}
        if with_variants:
            responses["missing"] = normal[len(key) + 2:]
            responses["wrong"] = normal.replace(answer, wrong, 1)
        out.append({"id": f"q{i + 1}", "query": f"{question}?", "responses": responses,
                    "documents": documents, "reference": None})
    return out
