""":class:`jump.Client`'s profile and password forms.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Union

from . import _native
from ._client_base import ClientBase, StrIn
from .errors import check
from .request import CompletionCallback, Request
from .results import EmptyResult

class _FormMethods(ClientBase):
    """Profile and password forms."""

    # -- profile and password forms -------------------------------------------------------------------------

    def update_profile(self, attributes: Union[Mapping[str, Any], str, bytes, None] = None) -> None:
        """Update the profile through the edit-profile form (``captureEditUserProfileFormName``).

        The form is filled from the signed-in user's record, unsynced edits included, with ``attributes``
        (record attributes as a mapping or JSON text, e.g. ``{"givenName": "Ada", "birthday": "1815-12-10"}``)
        applied on top; then the record is fetched again. The attributes reach the local record only when
        the server accepted the form. Raises ValidationFailed with ``invalid_fields`` keyed by form field name
        (messages in ``captureLocale``), NotSignedIn without a session.
        """
        encoded = self._attributes(attributes)
        check(_native.lib.jump_client_update_profile(self.handle, encoded))

    def update_profile_async(
        self,
        attributes: Union[Mapping[str, Any], str, bytes, None] = None,
        callback: Optional[CompletionCallback] = None,
    ) -> Request[EmptyResult]:
        """Asynchronous :meth:`update_profile` (result ``{}``)."""
        encoded = self._attributes(attributes)
        return self._async("update_profile", callback, _native.lib.jump_client_update_profile_async, encoded)

    def change_password(self, current: StrIn, new: StrIn) -> None:
        """Change the signed-in user's password through the change-password form
        (``captureChangePasswordFormName``).

        A wrong current password raises ValidationFailed whose ``invalid_fields`` name the current-password
        field; an empty password raises InvalidArgument before anything is sent.
        """
        check(
            _native.lib.jump_client_change_password(
                self.handle, _native.encode(current, "current"), _native.encode(new, "new")
            )
        )

    def change_password_async(
        self, current: StrIn, new: StrIn, callback: Optional[CompletionCallback] = None
    ) -> Request[EmptyResult]:
        """Asynchronous :meth:`change_password` (result ``{}``)."""
        return self._async(
            "change_password",
            callback,
            _native.lib.jump_client_change_password_async,
            _native.encode(current, "current"),
            _native.encode(new, "new"),
        )

    def forgot_password(self, email: StrIn) -> None:
        """Ask Capture to email a password-reset link to ``email``; no sign-in needed.

        An unknown address raises ValidationFailed with a form-level message in ``invalid_fields`` under the
        form's name (``captureForgotPasswordFormName``, "forgotPasswordForm" by default).
        """
        check(_native.lib.jump_client_forgot_password(self.handle, _native.encode(email, "email")))

    def forgot_password_async(self, email: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`forgot_password` (result ``{}``)."""
        return self._async(
            "forgot_password", callback, _native.lib.jump_client_forgot_password_async, _native.encode(email, "email")
        )

    def resend_verification_email(self, email: StrIn) -> None:
        """Ask Capture to send the email-verification message to ``email`` again; no sign-in needed.

        Errors are reported like :meth:`forgot_password`'s, keyed by ``captureResendEmailVerificationFormName``.
        """
        check(_native.lib.jump_client_resend_verification_email(self.handle, _native.encode(email, "email")))

    def resend_verification_email_async(self, email: StrIn, callback: Optional[CompletionCallback] = None) -> Request[EmptyResult]:
        """Asynchronous :meth:`resend_verification_email` (result ``{}``)."""
        return self._async(
            "resend_verification_email",
            callback,
            _native.lib.jump_client_resend_verification_email_async,
            _native.encode(email, "email"),
        )
