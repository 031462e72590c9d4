"""URLs a hook names: parsed and encoded once, the way a browser would send them.

Shared by the dialects (Claude checks an http hook's URL when it reads the settings
file) and the runner (which sends the request), so neither imports the other.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit


class UnusableUrl(ValueError):
    """The URL cannot be requested; the message says why."""


def split_url(url: str) -> tuple[str, str, int, str]:
    """``(scheme, host, port, target)`` of an http(s) URL; the target percent-encoded to
    ASCII and an international host name IDNA-encoded, as a browser would send them.

    Raises:
        UnusableUrl: not http/https, no host, a bad port or host, or a malformed URL.
    """
    try:
        parts = urlsplit(url)
        port_value = parts.port
        host = parts.hostname
    except ValueError as exc:
        raise UnusableUrl(f"{url!r} is not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise UnusableUrl(f"{url!r} is not an http:// or https:// URL")
    if not host:
        raise UnusableUrl(f"{url!r} has no host")
    try:
        host.encode("ascii")
    except UnicodeEncodeError:
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise UnusableUrl(f"{url!r}: the host name cannot be encoded ({exc})") from None
    port = port_value or (443 if parts.scheme == "https" else 80)
    path = quote(parts.path or "/", safe="/%:@!$&'()*+,;=-._~")
    query = quote(parts.query, safe="/%:@!$&'()*+,;=-._~?")
    return parts.scheme, host, port, path + (f"?{query}" if query else "")
