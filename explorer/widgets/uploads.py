"""Text of an uploaded file, whatever its encoding; a binary file raises InputError naming it."""
from __future__ import annotations

from explorer.logic.text_files import decode_text


def read_uploaded_text(upload) -> str:
    return decode_text(upload.name, upload.getvalue())
