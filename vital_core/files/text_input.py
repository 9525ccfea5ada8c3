"""How every command reads a JSON Lines input's bytes: a UTF-8 byte order mark at the start is skipped
(as editors on Windows write one), and a binary file is named as binary from its first bytes - before a
line is read, so a huge or sparse file is never held in memory to find that out.
"""
from __future__ import annotations

from pathlib import Path

from vital_core.files.errors import InputError

BOM = b"\xef\xbb\xbf"
SAMPLE = 8192                 # bytes looked at to tell text from binary
MAX_CONTROL_SHARE = 0.05      # text has almost no control characters other than tab and line breaks
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\v\x1b")


def without_bom(line: bytes, first: bool) -> bytes:
    """``line`` without the byte order mark a file's first line may start with."""
    return line[len(BOM):] if first and line.startswith(BOM) else line


def looks_binary(sample: bytes) -> bool:
    """Bytes that are not text: a NUL (UTF-8 text never holds one), or many control bytes."""
    if not sample:
        return False
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if (b < 0x20 or b == 0x7f) and b not in _TEXT_CONTROLS)
    return controls > MAX_CONTROL_SHARE * len(sample)


def not_text(name: str) -> str:
    return f"{name} is not a text file (it holds binary data)"


def check_not_binary(path: Path, what: str = "give a JSON Lines file") -> None:
    """``InputError`` naming ``path`` when its first bytes are binary (only those are read)."""
    try:
        with open(path, "rb") as handle:
            sample = handle.read(SAMPLE)
    except OSError:
        return                      # the reader that opens it says why
    if sample.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{path} is UTF-16 text; save it as UTF-8 (JSON Lines files are read as UTF-8)", path)
    if looks_binary(sample):
        raise InputError(f"{not_text(str(path))}; {what}", path)
