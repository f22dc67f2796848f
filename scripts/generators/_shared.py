"""Helpers more than one backend of scripts/generate-bindings.py uses (no backend itself: the name starts with _;
a backend reaches it as common.generator("_shared"))."""


def upper_snake(key: str) -> str:
    """captureDomain -> CAPTURE_DOMAIN, signInTokenApiBaseUrl -> SIGN_IN_TOKEN_API_BASE_URL (Java's ConfigKey and
    Rust's config_keys name the config keys so)."""
    out = ""
    for i, ch in enumerate(key):
        if ch.isupper() and i and not key[i - 1].isupper():
            out += "_"
        out += ch.upper()
    return out


def javadoc_text(text: str) -> str:
    """Plain text as Javadoc (HTML) text: markup characters escaped, no comment end, no block tag."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("*/", "*&#47;").replace("@", "&#64;").replace("{", "&#123;").replace("}", "&#125;")
