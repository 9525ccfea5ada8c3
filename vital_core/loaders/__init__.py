"""Read scored results: the VitalErrors release layout (any subtree), a folder of condition files,
or the project's own results format. ``discover`` finds what a path holds, ``records`` reads a
condition's files line by line, ``codes`` turns records into label codes (the hot path),
``examples`` into the data model, and ``load`` puts them together (``load_examples``)."""
from vital_core.loaders.discover import NoDataError  # noqa: F401
from vital_core.loaders.load import load_examples  # noqa: F401
