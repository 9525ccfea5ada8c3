"""Is an uploaded or named file text? Binary files are refused with a sentence, never scored
or handed to a JSON parser that would answer "surrogates not allowed"."""
from __future__ import annotations

from pathlib import Path

from vital_core.files.errors import InputError
from vital_core.files.text_input import not_text

SAMPLE = 8192                 # bytes looked at
MAX_CONTROL_SHARE = 0.05      # text has almost no control characters other than tab and line breaks
_TEXT_CONTROLS = {"\t", "\n", "\r", "\f", "\v", "\x1b"}
_BOMS = (("utf-8-sig", b"\xef\xbb\xbf"), ("utf-16", b"\xff\xfe"), ("utf-16", b"\xfe\xff"))


def _decode(raw: bytes) -> str | None:
    """Text of ``raw`` (UTF-8 with or without a BOM, UTF-16 with a BOM, else Latin-1); None when
    it holds NUL bytes outside UTF-16."""
    for encoding, bom in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                return None
    if b"\x00" in raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(raw) - 3:     # a sample cut inside a multi-byte character
            return raw[:exc.start].decode("utf-8")
        return raw.decode("latin-1")


def is_text(raw: bytes) -> bool:
    """Whether bytes read as text: decodable, with at most a few control characters."""
    text = _decode(raw)
    if text is None:
        return False
    return _few_controls(text[:SAMPLE])


def _few_controls(text: str) -> bool:
    controls = sum(1 for c in text if (c < " " or "\x7f" <= c < "\xa0") and c not in _TEXT_CONTROLS)
    return controls <= MAX_CONTROL_SHARE * max(1, len(text))


def decode_text(name: str, raw: bytes) -> str:
    """The text of an uploaded file, or ``InputError`` when it is binary - judged on the whole file, so
    text followed by NUL bytes or binary data is named as binary, never read as empty or as Latin-1."""
    if not is_text(raw[:SAMPLE]):
        raise InputError(not_text(name), name)
    text = _decode(raw)
    if text is None or not _few_controls(text):
        raise InputError(not_text(name), name)
    return text


def check_text_file(path: Path, name: str | None = None) -> None:
    """``InputError`` naming ``name`` (default: the path) when the file at ``path`` is binary."""
    if path.is_file():
        with path.open("rb") as handle:
            if not is_text(handle.read(SAMPLE)):
                raise InputError(not_text(name or str(path)), name or path)
