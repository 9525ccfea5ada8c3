"""Text of an uploaded file, whatever its encoding."""
from __future__ import annotations


def read_uploaded_text(upload) -> str:
    raw = upload.getvalue()
    for encoding in ("utf-8-sig", "latin-1"):  # utf-8-sig reads plain UTF-8 too and drops a BOM
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("utf-8", errors="replace")
