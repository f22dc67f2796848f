// JumpClient.Forms.cs - the Capture flow's profile and password forms: edit profile, change password, forgot
// password and resend verification. Their errors are the form's: JumpValidationException.InvalidFields keyed
// by form field name (messages in captureLocale).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        /// <summary>Updates the profile through the edit-profile form (captureEditUserProfileFormName): the form
        /// is filled from the signed-in user's record, unsynced edits included, with attributes applied on top;
        /// then the record is fetched again. The attributes reach the local record only when the server accepted
        /// them. Signed out: JumpNotSignedInException; an attribute the form does not have:
        /// JumpInvalidArgumentException.</summary>
        /// <param name="attributes">Record attributes to change (a null value clears the field), or null for the
        /// record as it is.</param>
        public void UpdateProfile(IDictionary<string, object> attributes)
        {
            UpdateProfile(attributes == null ? null : Json.Write(attributes));
        }

        /// <summary>UpdateProfile with the attributes as JSON text (an object), or null.</summary>
        /// <param name="attributesJson">Record attributes as a JSON object, or null.</param>
        public void UpdateProfile(string attributesJson)
        {
            JumpException.Check(Native.jump_client_update_profile(_handle, Utf8.Encode(attributesJson, "attributesJson")));
        }

        /// <summary>Asynchronous <see cref="UpdateProfile(IDictionary{string, object})"/>.</summary>
        /// <param name="attributes">Record attributes to change, or null.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task UpdateProfileAsync(IDictionary<string, object> attributes, CancellationToken cancellationToken = default(CancellationToken))
        {
            return UpdateProfileAsync(() => attributes == null ? null : Json.Write(attributes), cancellationToken);
        }

        /// <summary>Asynchronous <see cref="UpdateProfile(string)"/>.</summary>
        /// <param name="attributesJson">Record attributes as a JSON object, or null.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task UpdateProfileAsync(string attributesJson, CancellationToken cancellationToken = default(CancellationToken))
        {
            return UpdateProfileAsync(() => attributesJson, cancellationToken);
        }

        Task UpdateProfileAsync(Func<string> attributesJson, CancellationToken cancellationToken)
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] a = Utf8.Encode(attributesJson(), "attributesJson");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_update_profile_async(_handle, a, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }

        /// <summary>Changes the signed-in user's password through the change-password form
        /// (captureChangePasswordFormName). A wrong current password: JumpValidationException whose
        /// InvalidFields name the current-password field; an empty one: JumpInvalidArgumentException before
        /// anything is sent.</summary>
        /// <param name="currentPassword">The password now.</param>
        /// <param name="newPassword">The new password.</param>
        public void ChangePassword(string currentPassword, string newPassword)
        {
            JumpException.Check(Native.jump_client_change_password(_handle, Utf8.Encode(currentPassword, "currentPassword"),
                Utf8.Encode(newPassword, "newPassword")));
        }

        /// <summary>Asynchronous <see cref="ChangePassword"/>.</summary>
        /// <param name="currentPassword">The password now.</param>
        /// <param name="newPassword">The new password.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task ChangePasswordAsync(string currentPassword, string newPassword, CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] c = Utf8.Encode(currentPassword, "currentPassword"), n = Utf8.Encode(newPassword, "newPassword");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_change_password_async(_handle, c, n, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }

        /// <summary>Asks Capture to email a password-reset link; no sign-in needed. An unknown address:
        /// JumpValidationException with a form-level message under the form's name
        /// (captureForgotPasswordFormName, "forgotPasswordForm" by default).</summary>
        /// <param name="email">The account's email.</param>
        public void ForgotPassword(string email)
        {
            JumpException.Check(Native.jump_client_forgot_password(_handle, Utf8.Encode(email, "email")));
        }

        /// <summary>Asynchronous <see cref="ForgotPassword"/>.</summary>
        /// <param name="email">The account's email.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task ForgotPasswordAsync(string email, CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] e = Utf8.Encode(email, "email");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_forgot_password_async(_handle, e, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }

        /// <summary>Asks Capture to send the email-verification message again; no sign-in needed. Errors as
        /// <see cref="ForgotPassword"/>'s, keyed by captureResendEmailVerificationFormName.</summary>
        /// <param name="email">The account's email.</param>
        public void ResendVerificationEmail(string email)
        {
            JumpException.Check(Native.jump_client_resend_verification_email(_handle, Utf8.Encode(email, "email")));
        }

        /// <summary>Asynchronous <see cref="ResendVerificationEmail"/>.</summary>
        /// <param name="email">The account's email.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task ResendVerificationEmailAsync(string email, CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] e = Utf8.Encode(email, "email");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_resend_verification_email_async(_handle, e, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }
    }
}
