"""Secrets kept out of everything supportsim stores or prints.

Two kinds leak: credentials in a URL (``https://user:pw@host`` in a models file's
``base_url``) and API key values, which a provider may echo in an error message
("Incorrect API key provided: sk-...") that would then be stored in a record, a judgment,
a report and the log. ``Scrubber`` replaces both, wherever they appear in a text or in
JSON-like data; the model-access layer applies it where provider text enters
(``provider_call``), the batch runner where a model configuration is stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from supportsim.llm._config import PLACEHOLDER_API_KEY

REDACTED = "***"
MIN_SECRET_CHARS = 6
"""Shorter values are not treated as secrets: replacing them would mangle ordinary text."""

# scheme://userinfo@ with userinfo in RFC 3986's alphabet (unreserved, %XX, sub-delims, ":"),
# so a quote, a space or a slash ends the candidate: JSON around a URL is never swallowed.
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[a-z0-9\-._~%!$&'()*+,;=:]+@")


def scrub_url_credentials(text: str) -> str:
    """``https://user:pw@host/v1`` -> ``https://***@host/v1``, anywhere in ``text``."""
    return _URL_USERINFO.sub(rf"\g<1>{REDACTED}@", text)


def url_secrets(url: str | None) -> list[str]:
    """The password of a URL (raw and percent-decoded), if it has one."""
    if not url or "@" not in url:
        return []
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = [parts.password or "", unquote(parts.password or "")]
    return [s for s in found if s]


@dataclass(frozen=True, slots=True)
class Scrubber:
    """Replaces URL credentials and every known secret value with ``***``.

    Build it once per command from the keys and URLs in use (``scrubber``); an empty one
    still removes URL credentials.
    """

    values: tuple[str, ...] = ()
    """Secret values, longest first (so a key containing another is replaced whole)."""

    def __call__(self, text: str) -> str:
        for value in self.values:
            if value in text:
                text = text.replace(value, REDACTED)
        return scrub_url_credentials(text) if "@" in text else text

    def data(self, value: Any) -> Any:
        """``value`` with every string in it scrubbed (dicts, lists and tuples walked)."""
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {self.data(k): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self.data(v) for v in value)
        return value


def scrubber(secrets: Iterable[str | None] = (), urls: Iterable[str | None] = ()) -> Scrubber:
    """A Scrubber for these secret values (API keys) and the credentials in these URLs."""
    found = {s for s in secrets if s and s != PLACEHOLDER_API_KEY}
    for url in urls:
        found.update(url_secrets(url))
    kept = sorted((s for s in found if len(s) >= MIN_SECRET_CHARS), key=len, reverse=True)
    return Scrubber(tuple(kept))
