// Errors.cs - JumpException, which carries the status, its name, the message and libjump's JSON error detail,
// and what some of its per-status types add. JumpStatus, those types and the status switches are generated
// from include/jump_api.json into Errors.Generated.cs.
using System;
using System.Collections.Generic;

namespace Jump
{
    /// <summary>A libjump call failed: <see cref="Status"/> says how, <see cref="DetailJson"/> says more (see
    /// jump_error_last in jump.h). Each failure status has its own subtype (JumpValidationException,
    /// JumpNotSignedInException, ...); a status newer than this binding is a plain JumpException.</summary>
    /// <remarks>The constructors are public so tests and mocks can make the exceptions the binding throws:
    /// <c>new JumpValidationException("bad", "{\"invalid_fields\":{\"email\":[\"taken\"]}}")</c>. The binding
    /// itself makes the subtype of each status, so catch the subtype.</remarks>
    public partial class JumpException : Exception
    {
        /// <summary>An exception for status with libjump's detail object (JSON text; null makes one from the
        /// status and message).</summary>
        /// <param name="status">The status.</param>
        /// <param name="statusName">"JUMP_E_VALIDATION" etc. (null: the status's own name).</param>
        /// <param name="message">The message.</param>
        /// <param name="detailJson">The error detail as a JSON object, or null.</param>
        public JumpException(JumpStatus status, string statusName, string message, string detailJson)
            : this(status, statusName, message, detailJson, null) { }

        /// <summary>An exception for status, its detail made from the status and message.</summary>
        /// <param name="status">The status.</param>
        /// <param name="message">The message.</param>
        public JumpException(JumpStatus status, string message) : this(status, null, message, null, null) { }

        /// <summary>An exception for status with an error detail (JSON text, e.g.
        /// {"merge_token":"..","existing_provider":"capture"}).</summary>
        /// <param name="status">The status.</param>
        /// <param name="message">The message.</param>
        /// <param name="detailJson">The error detail as a JSON object, or null.</param>
        public JumpException(JumpStatus status, string message, string detailJson) : this(status, null, message, detailJson, null) { }

        /// <summary>An exception for status caused by another exception.</summary>
        /// <param name="status">The status.</param>
        /// <param name="message">The message.</param>
        /// <param name="innerException">The cause.</param>
        public JumpException(JumpStatus status, string message, Exception innerException)
            : this(status, null, message, null, innerException) { }

        JumpException(JumpStatus status, string statusName, string message, string detailJson, Exception innerException)
            : base(message ?? NameOf((int)status), innerException)
        {
            Status = status;
            StatusName = statusName ?? NameOf((int)status);
            DetailJson = detailJson ?? MadeDetail(status, StatusName, Message);
        }

        static string MadeDetail(JumpStatus status, string name, string message)
        {
            return Json.Write(new Dictionary<string, object> { { "status", (long)status }, { "status_name", name }, { "message", message } });
        }

        /// <summary>The status (JUMP_E_*).</summary>
        public JumpStatus Status { get; private set; }
        /// <summary>"JUMP_E_VALIDATION" etc.</summary>
        public string StatusName { get; private set; }
        /// <summary>libjump's error detail object as JSON text (see jump_error_last in jump.h).</summary>
        public string DetailJson { get; private set; }

        Dictionary<string, object> _detail;
        /// <summary>The detail parsed (an empty dictionary when it is not a JSON object).</summary>
        public Dictionary<string, object> Detail
        {
            get
            {
                if (_detail == null)
                {
                    try { _detail = Json.Parse(DetailJson) as Dictionary<string, object>; }
                    catch (FormatException) { }
                    if (_detail == null) _detail = new Dictionary<string, object>();
                }
                return _detail;
            }
        }

        /// <summary>"invalid_fields": field or form name -> messages (empty when absent).</summary>
        public IDictionary<string, string[]> InvalidFields
        {
            get
            {
                var result = new Dictionary<string, string[]>();
                var fields = Json.Get(Detail, "invalid_fields") as Dictionary<string, object>;
                if (fields == null) return result;
                foreach (var kv in fields)
                {
                    var messages = new List<string>();
                    var list = kv.Value as List<object>;
                    if (list != null)
                    {
                        foreach (var m in list) if (m is string) messages.Add((string)m);
                    }
                    else if (kv.Value is string)
                    {
                        messages.Add((string)kv.Value);
                    }
                    result[kv.Key] = messages.ToArray();
                }
                return result;
            }
        }

        /// <summary>"reason": a word for why, where the detail gives one ("user_canceled", "last_identity",
        /// "unknown_state", "wrong_location", "session_changed"), else null.</summary>
        public string Reason { get { return Json.Get(Detail, "reason") as string; } }
        /// <summary>"argument": the argument or config key that was refused (JumpInvalidArgumentException), else null.</summary>
        public string Argument { get { return Json.Get(Detail, "argument") as string; } }

        /// <summary>"merge_token" (JUMP_E_MERGE_REQUIRED; a secret: hand it back, never log it).</summary>
        public string MergeToken { get { return Json.Get(Detail, "merge_token") as string; } }
        /// <summary>"social_registration_token" (JUMP_E_REGISTRATION_REQUIRED; a secret).</summary>
        public string SocialRegistrationToken { get { return Json.Get(Detail, "social_registration_token") as string; } }

        /// <summary>"JumpXException (JUMP_E_X): message" (the detail stays out: it may hold tokens).</summary>
        public override string ToString() { return GetType().Name + " (" + StatusName + "): " + Message; }

        // ---- construction from a failed call ----

        /// <summary>The exception for a status just returned on this thread: reads jump_error_last()
        /// before any other jump_* call can replace it.</summary>
        internal static JumpException FromLastError(int status)
        {
            string detail = null;
            try { detail = Utf8.Read(Native.jump_error_last()); } catch (Exception) { }
            return FromDetail(status, detail);
        }

        /// <summary>The exception for an error detail (also the "error" of a queued completion).</summary>
        internal static JumpException FromDetail(int status, string detailJson)
        {
            Dictionary<string, object> d = null;
            if (detailJson != null)
            {
                try { d = Json.Parse(detailJson) as Dictionary<string, object>; } catch (FormatException) { }
            }
            string name = Json.Get(d, "status_name") as string ?? NameOf(status);
            string message = Json.Get(d, "message") as string ?? name;
            // A detail left over from an older failure says another status: keep the returned one, and
            // then do not trust that detail's message either.
            object detailStatus = Json.Get(d, "status");
            if (detailStatus is long && (long)detailStatus != status)
            {
                name = NameOf(status);
                message = name;
                detailJson = null;
            }
            return Create((JumpStatus)status, name, message, detailJson);
        }

        internal static JumpException Local(JumpStatus status, string message)
        {
            return Create(status, NameOf((int)status), message, MadeDetail(status, NameOf((int)status), message));
        }

        /// <summary>Throws the exception for status unless it is JUMP_OK.</summary>
        internal static void Check(int status)
        {
            if (status != 0) throw FromLastError(status);
        }
    }

    // The summary of each per-status type is its status's meaning (generated); what to do next is a remark.
    /// <remarks>Share (JumpClient.Share) failed for a provider: ShareResults says which and why.</remarks>
    public partial class JumpServerException
    {
        /// <summary>"results" of a failed share: each provider's outcome (empty for other server errors).</summary>
        public IReadOnlyDictionary<string, ShareOutcome> ShareResults { get { return ResultReader.Map(Json.Get(Detail, "results"), o => new ShareOutcome(o, null)) ?? new Dictionary<string, ShareOutcome>(); } }
    }

    /// <remarks>Sign in the existing way and hand MergeToken back: SignInMerge when ExistingProvider is
    /// "capture" (a password account), else SocialSignInNative(ExistingProvider, ..., mergeToken: MergeToken).</remarks>
    public partial class JumpMergeRequiredException
    {
        /// <summary>"existing_provider": how the account signs in now ("capture" for a password account).</summary>
        public string ExistingProvider { get { return Json.Get(Detail, "existing_provider") as string; } }
        /// <summary>"conflicting_provider": the provider whose sign-in was refused.</summary>
        public string ConflictingProvider { get { return Json.Get(Detail, "conflicting_provider") as string; } }
    }

    /// <remarks>Two-step social registration: complete PreregRecord (the attributes the provider gave) and
    /// pass it with SocialRegistrationToken to RegisterSocial.</remarks>
    public partial class JumpRegistrationRequiredException
    {
        /// <summary>"provider": the social provider of the sign-in.</summary>
        public string Provider { get { return Json.Get(Detail, "provider") as string; } }
        /// <summary>"prereg_record": record attributes from the provider, as JSON text ("{}" when absent).</summary>
        public string PreregRecordJson
        {
            get { var r = Json.Get(Detail, "prereg_record"); return r == null ? "{}" : Json.Write(r); }
        }
        /// <summary>"prereg_record" parsed (a new dictionary each time: edit it and pass it to RegisterSocial).</summary>
        public Dictionary<string, object> PreregRecord
        {
            get { return Json.Parse(PreregRecordJson) as Dictionary<string, object> ?? new Dictionary<string, object>(); }
        }
        /// <summary>"prereg_fields": the same as social registration form fields, as JSON text ("{}" when absent).</summary>
        public string PreregFieldsJson
        {
            get { var r = Json.Get(Detail, "prereg_fields"); return r == null ? "{}" : Json.Write(r); }
        }
    }
}
