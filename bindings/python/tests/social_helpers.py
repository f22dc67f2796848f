"""What the social sign-in tests (test_social*.py) share: reading and changing a URL's query, the server's
identities of a user, a stand-in provider token and a browser sign-in driven over HTTP."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Dict, List

import jump


def query(url: str) -> Dict[str, List[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)


def with_query(url: str, **changes: str) -> str:
    """url with query parameters replaced (None removes one)."""
    parts = urllib.parse.urlsplit(url)
    pairs = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k not in changes]
    pairs += [(k, v) for k, v in changes.items() if v is not None]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(pairs)))


def server_identifiers(emu, uuid: str) -> List[str]:
    return [p["identifier"] for p in emu.user(uuid)["user"]["profiles"]]


def provider_token(email: str, name: str = "Nat Ive", **extra: Any) -> str:
    """The emulator's stand-in for a provider SDK's access token (the headless path of /signin/oauth_token)."""
    return json.dumps({"email": email, "display_name": name, **extra})


def browser_sign_in(c: jump.Client, idp, provider: str = "facebook", **page: Any) -> Dict[str, Any]:
    begun = c.social_begin(provider)
    url = idp.finish(begun["url"], **page)
    assert url.startswith(begun["completion_prefix"])
    return c.social_complete(url)
