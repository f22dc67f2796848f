// Results.cs - what the result classes have beyond their documents' keys (Results.Generated.cs, generated from
// include/jump_api.json): the members older versions of this binding had, kept so that code written against
// them still compiles, and the event handlers' arguments.
using System;
using System.Collections.Generic;
using System.Text;
using J = Jump.Json;

namespace Jump
{
    public sealed partial class JumpState
    {
        /// <summary>Why the saved session could not be read (an error detail as JSON text), or null. Not
        /// "signed out": <see cref="JumpClient.Restore"/> tries again. (<see cref="RestoreError"/> typed.)</summary>
        public string RestoreErrorJson { get { return RestoreError == null ? null : RestoreError.Json; } }

        /// <summary>Why the last save or erase failed (an error detail as JSON text), or null.</summary>
        public string StorageErrorJson { get { return StorageError == null ? null : StorageError.Json; } }

        /// <summary>The sessions set aside (JSON text; see <see cref="JumpClient.EraseQuarantine"/>).</summary>
        public string QuarantineJson { get { return J.GetText(J.Parse(Json), "quarantine"); } }

        /// <summary><see cref="ClockOffset"/> in whole seconds.</summary>
        public long ClockOffsetSeconds { get { return (long)ClockOffset.TotalSeconds; } }
    }

    public sealed partial class ClientStatus
    {
        /// <summary>Why the saved credential could not be read (JSON text), or null.</summary>
        public string RestoreErrorJson { get { return RestoreError == null ? null : RestoreError.Json; } }
    }

    public sealed partial class JumpHttpResponse
    {
        /// <summary>The HTTP status (200, 404, ...): <see cref="Status"/> as an int.</summary>
        public int StatusCode { get { return (int)Status; } }

        /// <summary>The body's bytes (empty when there is none).</summary>
        public byte[] BodyBytes { get { return HttpBody.Bytes(Body, BodyBase64); } }

        /// <summary>The first value of a header, by case-insensitive name; null when absent.</summary>
        /// <param name="name">The header's name.</param>
        public string Header(string name) { return HttpBody.Header(Headers, name); }
    }

    public sealed partial class TokenUrlResponse
    {
        /// <summary>The HTTP status (200, 404, ...): <see cref="Status"/> as an int.</summary>
        public int StatusCode { get { return (int)Status; } }

        /// <summary>The body's bytes (empty when there is none).</summary>
        public byte[] BodyBytes { get { return HttpBody.Bytes(Body, BodyBase64); } }

        /// <summary>The first value of a header, by case-insensitive name; null when absent.</summary>
        /// <param name="name">The header's name.</param>
        public string Header(string name) { return HttpBody.Header(Headers, name); }
    }

    // What the two HTTP answers (a request's, a token URL's) share.
    internal static class HttpBody
    {
        internal static byte[] Bytes(string body, string base64)
        {
            return body != null ? Encoding.UTF8.GetBytes(body) : base64 != null ? Convert.FromBase64String(base64) : new byte[0];
        }

        internal static string Header(IReadOnlyList<IReadOnlyList<string>> headers, string name)
        {
            foreach (var h in headers)
                if (h.Count == 2 && string.Equals(h[0], name, StringComparison.OrdinalIgnoreCase)) return h[1];
            return null;
        }
    }

    public sealed partial class ShareContentResult
    {
        /// <summary>The email's subject.</summary>
        public string EmailSubject { get { return Email == null ? null : Email.Subject; } }
        /// <summary>The email's body.</summary>
        public string EmailBody { get { return Email == null ? null : Email.Body; } }
        /// <summary>The email's long URLs and their short forms.</summary>
        public IReadOnlyDictionary<string, string> EmailUrls { get { return Email == null ? new Dictionary<string, string>() : Email.Urls; } }
        /// <summary>The SMS text.</summary>
        public string SmsMessage { get { return Sms == null ? null : Sms.Message; } }
        /// <summary>The SMS's long URLs and their short forms.</summary>
        public IReadOnlyDictionary<string, string> SmsUrls { get { return Sms == null ? new Dictionary<string, string>() : Sms.Urls; } }
    }

    /// <summary>An event of the client ("signed_in", "signed_out", "token_refreshed", "record_synced",
    /// "record_fetched", "session_expired", "status_changed", "user_invalidated"), raised by the pump.</summary>
    public sealed class JumpEventArgs : EventArgs
    {
        internal JumpEventArgs(string json)
        {
            Event = new JumpEvent(json);
        }
        /// <summary>The event's name (<see cref="JumpEventEvent"/> names those known today).</summary>
        public string Name { get { return Event.Event; } }
        /// <summary>The user it concerns, when it says.</summary>
        public string Uuid { get { return Event.Uuid; } }
        /// <summary>The event, typed.</summary>
        public JumpEvent Event { get; private set; }
        /// <summary>The whole event document (JSON text), e.g. "status" of status_changed.</summary>
        public string Json { get { return Event.Json; } }
    }
}
