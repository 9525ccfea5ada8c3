"""Files in and out: the one rule for writing and deleting outputs (``outputs``), whole-file replacement
(``atomic``), the append-only results log (``appendlog``), reading users' JSON Lines bytes (``text_input``)
and the errors that name a file, line or field (``errors``)."""
