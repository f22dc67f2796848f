"""The Java (JNI) backend of scripts/generate-bindings.py: the mechanical parts of bindings/java.

  bindings/java/native/jump_jni_generated.c   one JNI function per C function and the RegisterNatives table
  bindings/java/generated/io/libjump/Native.java          the matching `static native` declarations
  bindings/java/generated/io/libjump/JumpStatus.java      the jump_status codes as an enum
  bindings/java/generated/io/libjump/Errors.java          status -> the exception class that stands for it
  bindings/java/generated/io/libjump/Jump<Stem>Exception.java   one exception class per failure status
  bindings/java/generated/io/libjump/ConfigKey.java       the config keys as String constants, each with its
                                                          type, default and meaning as Javadoc
The Java files are in bindings/java/generated, a source root of their own (package io.libjump, like the
hand-written bindings/java/src): a Java file's name is its class's, so the folder says they are generated.

How a C signature becomes a JNI one (the glue's helpers, jump_jni.h, do the conversions):
  - a handle is a Java long; a borrowed string is a byte[] of UTF-8 (no NUL: the glue adds it, and refuses a
    NUL inside) or null; borrowed bytes are one byte[] (the length is its length);
  - the one out-parameter becomes the Java return value (byte[] for strings, long for handles, the scalar for
    values); a failure throws the exception of its status, made from jump_error_last() on the failing thread
    (the only place where the detail is still the right one);
  - (callback, userdata, userdata_free) is one NativeCallback object, held by a global reference that
    userdata_free deletes;
  - _async functions return their jump_request handle (0 when the call failed to start) and never throw:
    jump.h runs their callback exactly once even then, and that completion is the one outcome;
  - functions taking host functions (storage, open_url, authenticate, dispatch) get an Object `host` in place
    of them and their userdata: their glue is hand-written (jump_jni_host.c); only the prototype is made here.
Not bound: the _jansson functions (Java has no jansson) and jump_string_free (the glue frees every string
it copies; Java never holds a C string).
"""

from typing import Any, Callable, Dict, List, Tuple

PACKAGE = "io.libjump"
SRC = "bindings/java/generated/io/libjump/"  # a source root of its own, beside the hand-written src/
NATIVE_CLASS = "io/libjump/Native"

# C scalar -> (Java type, JNI C type, JNI signature letter)
SCALARS = {
    "jump_status": ("int", "jint", "I"), "int": ("int", "jint", "I"), "int32_t": ("int", "jint", "I"),
    "uint32_t": ("int", "jint", "I"), "int64_t": ("long", "jlong", "J"), "uint64_t": ("long", "jlong", "J"),
    "size_t": ("long", "jlong", "J"), "double": ("double", "jdouble", "D"),
}
BYTES = ("byte[]", "jbyteArray", "[B")
LONG = ("long", "jlong", "J")
CALLBACK = ("NativeCallback", "jobject", "Lio/libjump/NativeCallback;")
HOST = ("Object", "jobject", "Ljava/lang/Object;")
VOID = ("void", "void", "V")


# C functions with no Java counterpart, each with why (bindings/java/coverage-exceptions.json says it too).
NOT_BOUND = {
    # the binding delivers every callback on the host's Executor itself; a dispatch context has no free
    # function, so a global reference handed to it could never be deleted
    "jump_client_set_dispatcher",
}


def skipped(f: Dict[str, Any]) -> bool:
    return "jansson_of" in f or f["name"] in NOT_BOUND or \
        any(p["ownership"] == "released_string" for p in f["parameters"])


def is_host(f: Dict[str, Any]) -> bool:
    return any(p["ownership"] == "host_function" for p in f["parameters"])


def is_async(f: Dict[str, Any]) -> bool:
    return any(p["ownership"] == "callback" for p in f["parameters"]) and \
        any(p["ownership"] == "out_handle" for p in f["parameters"])


def out_param(f: Dict[str, Any]):
    outs = [p for p in f["parameters"] if p["ownership"] in ("out_string", "out_handle", "out_value")]
    if len(outs) > 1:
        raise SystemExit("generators/java.py: %s has %d out-parameters; one is the return value" % (f["name"], len(outs)))
    return outs[0] if outs else None


def java_return(f: Dict[str, Any]) -> Tuple[str, str, str]:
    r = f["returns"]
    if r["ownership"] in ("static_string", "library_string"):
        return BYTES
    out = out_param(f)
    if r["type"] == "jump_status":
        if out is None:
            return VOID
        if out["ownership"] == "out_string":
            return BYTES
        if out["ownership"] == "out_handle":
            return LONG
        return SCALARS[out["type"][:-2]]
    if r["type"] == "void":
        return VOID
    return SCALARS[r["type"]]


def java_params(f: Dict[str, Any]) -> List[Tuple[Tuple[str, str, str], str]]:
    """[((java, jni, sig), name)] of the Java method, in the C order."""
    out: List[Tuple[Tuple[str, str, str], str]] = []
    host_done = False
    for p in f["parameters"]:
        kind, name = p["ownership"], p["name"]
        if kind in ("handle", "handle_released"):
            out.append((LONG, name))
        elif kind in ("borrowed_string", "borrowed_bytes"):
            out.append((BYTES, name))
        elif kind == "value":
            out.append((SCALARS[p["type"]], name))
        elif kind == "callback":
            out.append((CALLBACK, name))
        elif kind == "host_function":
            if not host_done:
                out.append((HOST, "host"))
                host_done = True
        elif kind in ("length", "userdata", "userdata_free", "out_string", "out_handle", "out_value"):
            continue  # folded into the byte[], the callback or host object, or the return value
        else:
            raise SystemExit("generators/java.py: no JNI mapping for %s(%s): %s" % (f["name"], p["name"], kind))
    return out


def jni_name(f: Dict[str, Any]) -> str:
    return "jj_" + f["name"][len("jump_"):]


def jni_prototype(f: Dict[str, Any]) -> str:
    params = ", ".join(["JNIEnv *env", "jclass cls"] + ["%s %s" % (t[1], n) for t, n in java_params(f)])
    return "%s JNICALL %s(%s)" % (java_return(f)[1], jni_name(f), params)


def jni_signature(f: Dict[str, Any]) -> str:
    return "(%s)%s" % ("".join(t[2] for t, _ in java_params(f)), java_return(f)[2])


def c_body(f: Dict[str, Any]) -> List[str]:
    """The statements of the JNI function of f (not a host one)."""
    ret = java_return(f)
    status = f["returns"]["type"] == "jump_status"
    out = out_param(f)
    params = f["parameters"]
    fail = "return 0;" if ret != VOID else "return;"
    lines: List[str] = []
    if ret != VOID:
        lines.append("    %s result = 0;" % ret[1])
    if out is not None:
        base = out["type"][:-1].strip()  # T *out -> T (T may itself be a pointer)
        lines.append("    %s out_value = %s;" % (base, "0" if out["ownership"] == "out_value" else "NULL"))
    texts: List[str] = []
    args: List[str] = []
    for i, p in enumerate(params):
        kind, name, ctype = p["ownership"], p["name"], p["type"]
        if kind in ("handle", "handle_released"):
            args.append("(%s)(intptr_t)%s" % (ctype, name))
        elif kind in ("borrowed_string", "borrowed_bytes"):
            getter = "jj_text_get" if kind == "borrowed_string" else "jj_bytes_get"
            lines.append("    jj_text t_%s;" % name)
            undo = " ".join("jj_text_release(&t_%s);" % t for t in reversed(texts))
            lines.append("    if (!%s(env, %s, &t_%s)) { %s%s }" % (getter, name, name, undo + " " if undo else "", fail))
            texts.append(name)
            args.append("t_%s.data" % name)
        elif kind == "length":
            args.append("t_%s.length" % params[i - 1]["name"])
        elif kind == "value":
            args.append("(%s)%s" % (ctype, name))
        elif kind == "callback":
            # made after the texts, so that a refused text leaks nothing; libjump owns it from the call on
            # (userdata_free runs exactly once, also when the call fails)
            args.append("ud ? jj_on_document : NULL")
        elif kind == "userdata":
            args.append("ud")
        elif kind == "userdata_free":
            args.append("ud ? jj_callback_free : NULL")
        elif kind in ("out_string", "out_handle", "out_value"):
            args.append("&out_value")
    cb = [p["name"] for p in params if p["ownership"] == "callback"]
    if cb:
        lines.append("    void *ud = jj_callback_new(env, %s);" % cb[0])
        lines.append("    if (%s != NULL && ud == NULL) { %s%s }" % (
            cb[0], " ".join("jj_text_release(&t_%s);" % t for t in reversed(texts)) + " " if texts else "", fail))
    call = "%s(%s)" % (f["name"], ", ".join(args))
    r = f["returns"]
    if ret == VOID and not status:
        lines.append("    %s;" % call)
    elif r["ownership"] in ("static_string", "library_string"):
        lines.append("    result = jj_bytes_of(env, %s);" % call)
    elif not status:
        lines.append("    result = (%s)%s;" % (ret[1], call))
    else:
        lines.append("    jump_status s = %s;" % call)
        if is_async(f):
            # the completion is the one outcome, also of a call that failed to start (jump.h)
            lines.append("    result = s == JUMP_OK ? (jlong)(intptr_t)out_value : 0;")
        else:
            # the detail is read now, on this thread, before anything else calls libjump
            lines.append("    if (s != JUMP_OK) {")
            lines.append("        jj_throw_status(env, s);")
            if out is None:
                lines.append("    }")
            elif out["ownership"] == "out_string":
                lines.append("    } else result = jj_take_string(env, out_value);")
            elif out["ownership"] == "out_handle":
                lines.append("    } else result = (jlong)(intptr_t)out_value;")
            else:
                lines.append("    } else result = (%s)out_value;" % ret[1])
    for t in reversed(texts):
        lines.append("    jj_text_release(&t_%s);" % t)
    if ret != VOID:
        lines.append("    return result;")
    return lines


def c_glue(api: Dict[str, Any], common: Any) -> str:
    functions = [f for f in api["functions"] if not skipped(f)]
    out = [
        "/* " + common.GENERATED + " */",
        "",
        "/* One JNI function per function of jump.h (scripts/generators/java.py says how the types map), and the",
        " * table jump_jni.c registers on io.libjump.Native. Functions taking host functions are only declared",
        " * here: jump_jni_host.c defines them. */",
        "#include \"jump_jni.h\"",
        "",
    ]
    for f in functions:
        if is_host(f):
            out.append("%s;" % jni_prototype(f))
    out.append("")
    for f in functions:
        if is_host(f):
            continue
        out.append("static %s {" % jni_prototype(f))
        body = c_body(f)
        out.append("    (void)cls;")
        if not any("env" in l for l in body):
            out.append("    (void)env;")
        out += body
        out.append("}")
        out.append("")
    out.append("const JNINativeMethod jj_generated_methods[] = {")
    for f in functions:
        out.append('    {"%s", "%s", (void *)%s},' % (f["name"], jni_signature(f), jni_name(f)))
    out.append("};")
    out.append("const int jj_generated_method_count = (int)(sizeof jj_generated_methods / sizeof jj_generated_methods[0]);")
    return "\n".join(out) + "\n"


def native_java(api: Dict[str, Any], common: Any) -> str:
    titles = common.group_titles(api)
    out = [
        "// " + common.GENERATED,
        "package %s;" % PACKAGE,
        "",
        "/** The JNI declarations of libjump's C API: one per function of jump.h but the _jansson ones,",
        " * jump_string_free and jump_client_set_dispatcher (scripts/generators/java.py says why), named as in C. Strings are UTF-8 byte[] (Utf8), handles long, the one out-parameter the",
        " * return value; a failure throws the JumpException of its status. Registered by jump_jni.c's JNI_OnLoad. */",
        "final class Native {",
        "    private Native() {}",
        "",
    ]
    defines = {d["name"]: d for d in api["defines"]}
    for name in ("JUMP_ABI_VERSION", "JUMP_VERSION", "JUMP_CREDENTIALS_FORCE_REFRESH"):
        d = defines[name]
        value = d["value"] if isinstance(d["value"], int) else '"%s"' % d["value"]
        out.append("    /** %s: %s */" % (name, d["meaning"]))
        out.append("    static final %s %s = %s;" % ("int" if isinstance(d["value"], int) else "String",
                                                      name[len("JUMP_"):], value))
    for group, fs in common.by_group(api, [f for f in api["functions"] if not skipped(f)]):
        out.append("")
        out.append("    // " + titles[group])
        for f in fs:
            params = ", ".join("%s %s" % (t[0], common.camel(n, upper_first=False)) for t, n in java_params(f))
            out.append("    static native %s %s(%s);" % (java_return(f)[0], f["name"], params))
    out.append("}")
    return "\n".join(out) + "\n"


def status_java(api: Dict[str, Any], common: Any) -> str:
    out = [
        "// " + common.GENERATED,
        "package %s;" % PACKAGE,
        "",
        "/** The jump_status codes of jump.h. */",
        "public enum JumpStatus {",
    ]
    rows = []
    for s in api["statuses"]:
        rows.append("    /** %s */\n    %s(%d, \"%s\")" % (s["meaning"], s["name"][len("JUMP_"):], s["value"], s["name"]))
    out.append(",\n".join(rows) + ";")
    out += [
        "",
        "    private final int code;",
        "    private final String cName;",
        "",
        "    JumpStatus(int code, String cName) {",
        "        this.code = code;",
        "        this.cName = cName;",
        "    }",
        "",
        "    /**",
        "     * The C value.",
        "     *",
        "     * @return 0 or negative",
        "     */",
        "    public int code() {",
        "        return code;",
        "    }",
        "",
        "    /**",
        "     * The C enumerator's name, the \"status_name\" of an error detail.",
        "     *",
        "     * @return e.g. \"JUMP_E_BUSY\"",
        "     */",
        "    public String cName() {",
        "        return cName;",
        "    }",
        "",
        "    /**",
        "     * The status of a code.",
        "     *",
        "     * @param code a jump_status value",
        "     * @return its status, or null for a code newer than this binding",
        "     */",
        "    public static JumpStatus of(int code) {",
        "        switch (code) {",
    ]
    for s in api["statuses"]:
        out.append("            case %d: return %s;" % (s["value"], s["name"][len("JUMP_"):]))
    out += ["            default: return null;", "        }", "    }", "}"]
    return "\n".join(out) + "\n"


def exception_class(s: Dict[str, Any], common: Any) -> str:
    return "Jump%sException" % common.status_stem(s["name"])


def errors_java(api: Dict[str, Any], common: Any) -> str:
    out = [
        "// " + common.GENERATED,
        "package %s;" % PACKAGE,
        "",
        "/** Which exception class stands for each failure status (the glue and completions make them here). */",
        "final class Errors {",
        "    private Errors() {}",
        "",
        "    /** The exception of a failure: code, and the error detail as JSON text (jump_error_last). */",
        "    static JumpException create(int code, String detail) {",
        "        switch (code) {",
    ]
    for s in common.failures(api):
        out.append("            case %d: return new %s(detail);" % (s["value"], exception_class(s, common)))
    out += [
        "            // a code newer than this binding: still a JumpException, with its number",
        "            default: return new JumpException(code, detail);",
        "        }",
        "    }",
        "",
        "    /** The glue's entry (jump_jni.c): the detail arrives as UTF-8. */",
        "    static JumpException fromNative(int code, byte[] detail) {",
        "        return create(code, Utf8.decode(detail));",
        "    }",
        "",
        "    /** Every failure status's exception class, in jump.h's order (for tests and documentation). */",
        "    static final Class<?>[] CLASSES = {",
    ]
    out += ["        %s.class," % exception_class(s, common) for s in common.failures(api)]
    out += ["    };", "}"]
    return "\n".join(out) + "\n"


def one_exception(s: Dict[str, Any], common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        cls = exception_class(s, common)
        return "\n".join([
            "// " + common.GENERATED,
            "package %s;" % PACKAGE,
            "",
            "/** %s (%d): %s. */" % (s["name"], s["value"], s["meaning"]),
            "public class %s extends JumpException {" % cls,
            "    private static final long serialVersionUID = 1L;",
            "",
            "    /**",
            "     * An exception of this status with libjump's error detail.",
            "     *",
            "     * @param detail the error detail as JSON text (null makes one)",
            "     */",
            "    public %s(String detail) {" % cls,
            "        super(%d, detail);" % s["value"],
            "    }",
            "}",
        ]) + "\n"
    return make


def config_keys_java(api: Dict[str, Any], common: Any) -> str:
    import json
    shared = common.generator("_shared")
    javadoc_text, key_constant = shared.javadoc_text, shared.upper_snake
    out = [
        "// " + common.GENERATED,
        "package %s;" % PACKAGE,
        "",
        "import java.util.List;",
        "",
        "/** The config keys of jump.h, as Config.set, Config.of and Config.fromJson take them (include/jump_api.json's",
        " * config_keys: each constant says its type, its default and what it means). */",
        "public final class ConfigKey {",
        "    private ConfigKey() {}",
    ]
    for k in api["config_keys"]:
        default = "" if k.get("default") is None else "; default {@code %s}" % javadoc_text(json.dumps(k["default"]))
        meaning = javadoc_text(k["meaning"].rstrip(".").replace("\n", " "))
        out += ["", "    /** {@code %s} (%s%s): %s. */" % (k["name"], k["type"], default, meaning),
                "    public static final String %s = %s;" % (key_constant(k["name"]), json.dumps(k["name"]))]
    out += ["", "    /** Every key above, in jump.h's order. */", "    public static final List<String> ALL = List.of("]
    names = [key_constant(k["name"]) for k in api["config_keys"]]
    out += ["            %s%s" % (n, "," if i + 1 < len(names) else ");") for i, n in enumerate(names)]
    out += ["}"]
    return "\n".join(out) + "\n"


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    import json
    import os
    with open(os.path.join(common.ROOT, "include", "jump_api.json"), encoding="utf-8") as f:
        statuses = json.load(f)["statuses"]  # the file names depend on the statuses: one class each
    result: List[Tuple[str, Callable[[Dict[str, Any]], str]]] = [
        ("bindings/java/native/jump_jni_generated.c", lambda api: c_glue(api, common)),
        (SRC + "Native.java", lambda api: native_java(api, common)),
        (SRC + "JumpStatus.java", lambda api: status_java(api, common)),
        (SRC + "Errors.java", lambda api: errors_java(api, common)),
        (SRC + "ConfigKey.java", lambda api: config_keys_java(api, common)),
    ]
    for s in statuses:
        if s["value"] != 0:
            result.append((SRC + exception_class(s, common) + ".java", one_exception(s, common)))
    return result
