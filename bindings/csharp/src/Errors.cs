// Errors.cs - jump_status as an enum and one exception type per failure status, all derived from
// JumpException, which carries the status, its name, the message and libjump's JSON error detail.
using System;
using System.Collections.Generic;

namespace Jump
{
    /// <summary>The codes of jump_status (include/jump.h); never renumbered.</summary>
    public enum JumpStatus
    {
        Ok = 0,
        InvalidArgument = -1,
        InvalidHandle = -2,
        Network = -3,
        Timeout = -4,
        Server = -5,
        NotSignedIn = -6,
        BadCredentials = -7,
        MergeRequired = -8,
        RegistrationRequired = -9,
        Validation = -10,
        NotFound = -11,
        Expired = -12,
        Storage = -13,
        Cancelled = -14,
        Unsupported = -15,
        Busy = -16,
        Internal = -17,
        Conflict = -18,
        AlreadySignedIn = -19,
    }

    public class JumpException : Exception
    {
        public JumpException(JumpStatus status, string statusName, string message, string detailJson)
            : base(message)
        {
            Status = status;
            StatusName = statusName;
            DetailJson = detailJson ?? "{}";
        }

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

        /// <summary>"merge_token" (JUMP_E_MERGE_REQUIRED; a secret: hand it back, never log it).</summary>
        public string MergeToken { get { return Json.Get(Detail, "merge_token") as string; } }
        /// <summary>"social_registration_token" (JUMP_E_REGISTRATION_REQUIRED; a secret).</summary>
        public string SocialRegistrationToken { get { return Json.Get(Detail, "social_registration_token") as string; } }

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
            var detail = Json.Write(new Dictionary<string, object> {
                { "status", (long)status }, { "status_name", NameOf((int)status) }, { "message", message } });
            return Create(status, NameOf((int)status), message, detail);
        }

        static string NameOf(int status)
        {
            switch ((JumpStatus)status)
            {
                case JumpStatus.Ok: return "JUMP_OK";
                case JumpStatus.InvalidArgument: return "JUMP_E_INVALID_ARGUMENT";
                case JumpStatus.InvalidHandle: return "JUMP_E_INVALID_HANDLE";
                case JumpStatus.Network: return "JUMP_E_NETWORK";
                case JumpStatus.Timeout: return "JUMP_E_TIMEOUT";
                case JumpStatus.Server: return "JUMP_E_SERVER";
                case JumpStatus.NotSignedIn: return "JUMP_E_NOT_SIGNED_IN";
                case JumpStatus.BadCredentials: return "JUMP_E_BAD_CREDENTIALS";
                case JumpStatus.MergeRequired: return "JUMP_E_MERGE_REQUIRED";
                case JumpStatus.RegistrationRequired: return "JUMP_E_REGISTRATION_REQUIRED";
                case JumpStatus.Validation: return "JUMP_E_VALIDATION";
                case JumpStatus.NotFound: return "JUMP_E_NOT_FOUND";
                case JumpStatus.Expired: return "JUMP_E_EXPIRED";
                case JumpStatus.Storage: return "JUMP_E_STORAGE";
                case JumpStatus.Cancelled: return "JUMP_E_CANCELLED";
                case JumpStatus.Unsupported: return "JUMP_E_UNSUPPORTED";
                case JumpStatus.Busy: return "JUMP_E_BUSY";
                case JumpStatus.Internal: return "JUMP_E_INTERNAL";
                case JumpStatus.Conflict: return "JUMP_E_CONFLICT";
                case JumpStatus.AlreadySignedIn: return "JUMP_E_ALREADY_SIGNED_IN";
                default: return "JUMP_E_UNKNOWN(" + status + ")";
            }
        }

        static JumpException Create(JumpStatus s, string n, string m, string d)
        {
            switch (s)
            {
                case JumpStatus.InvalidArgument: return new JumpInvalidArgumentException(s, n, m, d);
                case JumpStatus.InvalidHandle: return new JumpInvalidHandleException(s, n, m, d);
                case JumpStatus.Network: return new JumpNetworkException(s, n, m, d);
                case JumpStatus.Timeout: return new JumpTimeoutException(s, n, m, d);
                case JumpStatus.Server: return new JumpServerException(s, n, m, d);
                case JumpStatus.NotSignedIn: return new JumpNotSignedInException(s, n, m, d);
                case JumpStatus.BadCredentials: return new JumpBadCredentialsException(s, n, m, d);
                case JumpStatus.MergeRequired: return new JumpMergeRequiredException(s, n, m, d);
                case JumpStatus.RegistrationRequired: return new JumpRegistrationRequiredException(s, n, m, d);
                case JumpStatus.Validation: return new JumpValidationException(s, n, m, d);
                case JumpStatus.NotFound: return new JumpNotFoundException(s, n, m, d);
                case JumpStatus.Expired: return new JumpExpiredException(s, n, m, d);
                case JumpStatus.Storage: return new JumpStorageException(s, n, m, d);
                case JumpStatus.Cancelled: return new JumpCancelledException(s, n, m, d);
                case JumpStatus.Unsupported: return new JumpUnsupportedException(s, n, m, d);
                case JumpStatus.Busy: return new JumpBusyException(s, n, m, d);
                case JumpStatus.Internal: return new JumpInternalException(s, n, m, d);
                case JumpStatus.Conflict: return new JumpConflictException(s, n, m, d);
                case JumpStatus.AlreadySignedIn: return new JumpAlreadySignedInException(s, n, m, d);
                // A code newer than this binding: still a JumpException with its number.
                default: return new JumpException(s, n, m, d);
            }
        }

        /// <summary>Throws the exception for status unless it is JUMP_OK.</summary>
        internal static void Check(int status)
        {
            if (status != 0) throw FromLastError(status);
        }
    }

    public class JumpInvalidArgumentException : JumpException { internal JumpInvalidArgumentException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpInvalidHandleException : JumpException { internal JumpInvalidHandleException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpNetworkException : JumpException { internal JumpNetworkException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpTimeoutException : JumpException { internal JumpTimeoutException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpServerException : JumpException { internal JumpServerException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpNotSignedInException : JumpException { internal JumpNotSignedInException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpBadCredentialsException : JumpException { internal JumpBadCredentialsException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    /// <summary>JUMP_E_MERGE_REQUIRED: the email belongs to another identity. Sign in the existing way and
    /// hand MergeToken back: SignInMerge when ExistingProvider is "capture" (a password account), else
    /// SocialSignInNative(ExistingProvider, ..., mergeToken: MergeToken).</summary>
    public class JumpMergeRequiredException : JumpException
    {
        internal JumpMergeRequiredException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { }
        /// <summary>"existing_provider": how the account signs in now ("capture" for a password account).</summary>
        public string ExistingProvider { get { return Json.Get(Detail, "existing_provider") as string; } }
        /// <summary>"conflicting_provider": the provider whose sign-in was refused.</summary>
        public string ConflictingProvider { get { return Json.Get(Detail, "conflicting_provider") as string; } }
    }

    /// <summary>JUMP_E_REGISTRATION_REQUIRED: two-step social registration. Complete PreregRecord (the
    /// attributes the provider gave) and pass it with SocialRegistrationToken to RegisterSocial.</summary>
    public class JumpRegistrationRequiredException : JumpException
    {
        internal JumpRegistrationRequiredException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { }
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
    public class JumpValidationException : JumpException { internal JumpValidationException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpNotFoundException : JumpException { internal JumpNotFoundException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpExpiredException : JumpException { internal JumpExpiredException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpStorageException : JumpException { internal JumpStorageException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpCancelledException : JumpException { internal JumpCancelledException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpUnsupportedException : JumpException { internal JumpUnsupportedException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpBusyException : JumpException { internal JumpBusyException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpInternalException : JumpException { internal JumpInternalException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpConflictException : JumpException { internal JumpConflictException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
    public class JumpAlreadySignedInException : JumpException { internal JumpAlreadySignedInException(JumpStatus s, string n, string m, string d) : base(s, n, m, d) { } }
}
