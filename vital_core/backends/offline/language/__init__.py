"""The language processing the offline steps share: parse, embeddings, names and values, the lexicon.

Nothing here is a step of the method; ``decompose``, ``importance``, ``verify``, ``nuggets`` and
``perturb`` (one level up) are built from these modules.
"""
