"""What may be shown of anything that could carry a secret: an endpoint URL as scheme and host only,
and any other text with its API keys and URL credentials replaced by ``***``.

Every place that shows, logs or stores a URL or an error message goes through here (the app's
sidebar, the command line's messages and ``--verbose`` log, results and summaries), so a password in
``http://alice:secret@host/v1`` or a key in ``?api-key=`` is hidden the same way everywhere.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable
from urllib.parse import parse_qsl, urlsplit

MASK = "***"
MIN_SECRET = 4      # shorter strings would blank out ordinary words
# User info of any URL written in a text: scheme://user:password@host
_USERINFO = re.compile(r"://[^/\s@'\"<>]+@")     # starts with a literal: fast on a long text
# Query parameters that carry a credential, wherever a URL appears in a text
_SECRET_PARAM = re.compile(r"(?i)([?&;](?:api[-_]?key|key|token|access[-_]?token|secret|password|passwd|pwd|"
                           r"sig|signature|auth|code|client[-_]?secret)=)[^&#\s'\"<>]+")


def public_host(base_url: str | None) -> str:
    """Host (and port) of the endpoint, without user info, path or query (which may hold secrets)."""
    if not base_url:
        return "api.openai.com"
    try:
        parts = urlsplit(base_url)
    except ValueError:              # e.g. an unclosed IPv6 bracket: nothing of it is shown
        return "?"
    host = parts.hostname or "?"
    try:
        port = parts.port
    except ValueError:              # an out-of-range port: shown as such, never the rest of the URL
        return f"{host}:?"
    return f"{host}:{port}" if port else host


def shown_url(base_url: str) -> str:
    """A base URL as captions, boxes and messages show it: scheme and host only."""
    if "://" not in base_url:
        return "a URL with no scheme"
    return f"{base_url.split('://', 1)[0]}://{public_host(base_url)}"


def url_secrets(url: str | None) -> list[str]:
    """The parts of a URL that may be secret - user name, password, every query value - to redact
    wherever they turn up (a server may echo its path and query in an error)."""
    if not url or "://" not in url:
        return []
    try:
        parts = urlsplit(url)
    except ValueError:              # unreadable: its user info cannot be told apart, so the whole URL is
        return [url]
    try:
        parts.port
    except ValueError:
        pass
    found = [parts.username or "", parts.password or ""]
    found += [value for _, value in parse_qsl(parts.query, keep_blank_values=True)]
    return [s for s in found if len(s) >= MIN_SECRET]


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` without URL credentials (user info, key-like query values) and without any of ``secrets``
    (API keys, ``url_secrets``), each replaced by ``***``. A lone string is one secret, not its letters
    (read letter by letter, every letter is too short to redact and the key would pass unchanged)."""
    if isinstance(secrets, str):
        secrets = [secrets]
    text = _USERINFO.sub(f"://{MASK}@", text)
    text = _SECRET_PARAM.sub(rf"\1{MASK}", text)
    for secret in sorted({s for s in secrets if s and len(s) >= MIN_SECRET}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def redactor(secrets: Iterable[str | None] = ()) -> Callable[[str], str]:
    """``redact`` with these secrets, as a function of the text alone."""
    known = [secrets] if isinstance(secrets, str) else [s for s in secrets if s]
    return lambda text: redact(text, known)
