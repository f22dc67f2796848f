"""Typed shapes of the JSON objects libjump returns (include/jump.h documents each).

They are ``TypedDict`` classes generated from include/jump_api.json's "documents" (``_results_generated.py``,
one per document, named for it: ``sign_in_result`` -> :class:`SignInResult`): at run time every result is still
the plain ``dict`` the binding always returned (``result["uuid"]``, ``result.get(...)``, ``json.dumps(result)``
and ``==`` with a dict keep working), while a type checker knows the keys and their types. All are
``total=False``: a key the library does not send in some case (or a newer library adds) is no type error, and
code should read optional keys with ``.get``.

This module adds the names the binding used before the documents were generated.
"""

from __future__ import annotations

from typing import Any, Dict

from . import _results_generated
from ._results_generated import *  # noqa: F401,F403 - every generated document is part of this module's API
from ._results_generated import SignInResult, SignInStatus

__all__ = ["ClientStatus", "EmptyResult", "RegistrationResult"]
__all__ += _results_generated.__all__

#: :attr:`Client.status`: the sign_in_status document (sign-in tokens and API keys).
ClientStatus = SignInStatus

#: :meth:`Client.register_traditional` and :meth:`Client.register_social`: a sign_in_result (without
#: ``merged``).
RegistrationResult = SignInResult

#: The result of an asynchronous call that gives an empty object (``fetch_record_async``, ...).
EmptyResult = Dict[str, Any]
