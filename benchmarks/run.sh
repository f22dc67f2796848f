#!/usr/bin/env bash
# benchmarks/run.sh - `make bench`: what libjump costs, each figure next to a baseline measured in the same run.
#   FFI        a jump_* call from Python ctypes        vs a ctypes call of a C no-op with the same signature
#   Sign-in    jump_client_sign_in                     vs the same POST replayed with libcurl + jansson
#              (saved to disk: also vs that POST + the same durable save: tmp file, fsync, rename, fsync dir)
#   Social     jump_client_social_sign_in_native       vs the same 2 POSTs (oauth_token, auth_native) by hand;
#              jump_client_social_sign_in_loopback     vs the same fake-IdP browser steps + POST, no listener
#   Cold start fresh process to restored session       vs fresh process + libcurl/jansson + parsing the file
#              and vs that + dlopen of the empty Swift library (what any Swift library adds to that C baseline)
#   Record     one attribute change + sync on records of 10 / 1 000 / 100 000 plural elements (10 = baseline),
#              and path get/set through libjump vs the same operation on a json_t with jansson
#   Memory     peak RSS growth of jump_client_sign_in receiving a 31 MiB answer (100 000-element plural, session
#              saved to disk) vs the answer's size (goal: <= 3x), and vs the same POST by hand (libcurl +
#              json_loadb + json_dump_file); a forked Tests/c/tiny_server.h process serves the answer
#   Many       1 000 clients at once (own users, :memory:): sign_in_async, edit + sync_async, fetch_record_async
#              for every client, wall time of the 3 phases and peak threads vs the same requests by hand on ONE
#              libcurl multi handle (curl_multi_poll, one thread); the goal (docs/design-io.md): <= 1.15x, <= cores + 4 threads
#   Fibers     a switch into a fiber and back (the register switch) vs glibc's swapcontext
#   FFI        the same call from Node.js (N-API), C# (Mono), Go (cgo), Java (JNI) and Rust vs each runtime's no-op FFI call
#   Size       stripped libjump.so and its NEEDED list; vs an empty Swift library linked the same way
#              (benchmarks/floor: the static Swift runtime alone, the floor under any Swift C-ABI library)
# BENCH_ONLY="signin social coldstart ffi record memory many fibers node csharp go java rust size" (any of them, space- or
# comma-separated; default all) runs those groups alone: each row of benchmarks/README.md's table names its
# command. coldstart and ffi restore the session signin saves, so they run signin first (its rows too).
# Medians throughout; ratio = libjump / baseline. Knobs: BENCH_SIGNIN_N, BENCH_SOCIAL_N, BENCH_COLDSTART_N,
# BENCH_FFI_CALLS, BENCH_FFI_ROUNDS, BENCH_MEMORY_N, BENCH_MANY_N, BENCH_MANY_CLIENTS, BENCH_MANY_HOST_CONNECTIONS.
# Needs build/lib/libjump.so and build/bin/jump-emulator (`make bench` builds both).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$root/build/bench

if [ "${1:-}" != "--with-emulator" ]; then
    lib=${JUMP_LIBRARY_PATH:-$root/build/lib/libjump.so}
    [ -f "$lib" ] || { echo "run.sh: $lib is missing (make lib)" >&2; exit 1; }
    mkdir -p "$out"
    cc=${CC:-cc}
    # Benchmarks are built optimised, like the library they measure. noop.c is built by bench_ffi.py.
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o "$out/bench_signin" benchmarks/bench_signin.c \
        -lcurl -ljansson -ldl
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o "$out/bench_social" benchmarks/bench_social.c \
        -lcurl -ljansson -ldl -lpthread
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o "$out/bench_coldstart" benchmarks/bench_coldstart.c -ldl
    # The floor under any Swift C-ABI library: an empty one (benchmarks/floor/empty.swift) linked like libjump.so
    # in Package.swift (static Swift runtime, libstdc++.a, --gc-sections, version script, -z nodelete). The Size
    # and Cold start rows compare libjump with it. Without a working swiftc those rows are skipped.
    rm -f "$out/libfloor.so"
    if ! "${SWIFTC:-swiftc}" -O -emit-library -static-stdlib -module-name Floor benchmarks/floor/empty.swift \
        -o "$out/libfloor.so" -module-cache-path "$out/floor-module-cache" \
        -Xfrontend -disable-implicit-string-processing-module-import \
        -Xfrontend -disable-implicit-concurrency-module-import -L build/gen/static-cxx \
        -Xlinker --gc-sections -Xlinker --version-script=benchmarks/floor/exports.map -Xlinker -z -Xlinker nodelete; then
        rm -f "$out/libfloor.so"
        echo "run.sh: ${SWIFTC:-swiftc} could not build the empty Swift library; the floor rows are skipped" >&2
    fi
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o "$out/bench_record" benchmarks/bench_record.c \
        -lcurl -ljansson -ldl
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -ITests/c -o "$out/bench_memory" benchmarks/bench_memory.c \
        -lcurl -ljansson -ldl -lpthread
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o "$out/bench_many" benchmarks/bench_many.c \
        -lcurl -ljansson -ldl -lpthread
    "$cc" -std=c99 -O2 -Wall -Wextra -Werror -o "$out/bench_switch" benchmarks/bench_switch.c
    # bench_many holds 2 000 sockets or more at once, and the emulator (started below) its side of 1 000.
    ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true
    # bcrypt at its production cost would make every sign-in measure the emulator's hashing, not libjump.
    export JUMP_EMULATOR_ARGS="${JUMP_EMULATOR_ARGS:---password-hash-cost 4}"
    export JUMP_LIBRARY_PATH=$lib
    started=$SECONDS
    bash scripts/with-emulator.sh bash "$0" --with-emulator
    echo "(whole run: $((SECONDS - started)) s)"
    exit 0
fi

# ---- inside scripts/with-emulator.sh: JUMP_EMULATOR_URL and JUMP_LIBRARY_PATH are set ----
bench_only=${BENCH_ONLY:-}
only=" ${bench_only//,/ } "
want() { # want GROUP...: one of them is selected (all are when BENCH_ONLY is empty)
    [ -z "${BENCH_ONLY:-}" ] && return 0
    local g
    for g in "$@"; do [[ $only == *" $g "* ]] && return 0; done
    return 1
}
lib=$JUMP_LIBRARY_PATH
url=$JUMP_EMULATOR_URL
rows=$out/results.tsv
state=$out/state # the session bench_signin saves; bench_coldstart and bench_ffi restore it
rm -rf "$state"
: >"$rows"
config='{"captureDomain":"'$url'","captureFlowDomain":"'$url'","captureClientId":"jump-default-client",'
config+='"captureAppId":"default-app","captureFlowName":"standard","captureLocale":"en-US",'
config+='"storageDirectory":"'$state'"}'

if want signin coldstart ffi; then
echo "sign-in: libjump vs libcurl + jansson (${BENCH_SIGNIN_N:-150} rounds)..." >&2
"$out/bench_signin" "$lib" "$config" >>"$rows"
fi

if want social; then
echo "social sign-in: native token and loopback, libjump vs libcurl + jansson (${BENCH_SOCIAL_N:-100} rounds)..." >&2
rm -rf "$out/social-state"
"$out/bench_social" "$lib" "$out/social-state" >>"$rows"
fi

if want coldstart ffi; then
session=$(ls "$state"/session-*.json 2>/dev/null | head -n 1)
[ -n "$session" ] || { echo "run.sh: bench_signin left no saved session in $state" >&2; exit 1; }
fi
if want coldstart; then
echo "cold start: fresh processes (${BENCH_COLDSTART_N:-100} of each)..." >&2
floor_lib=() # the empty Swift library, if it was built: a third variant, the baseline + dlopen of it
[ -f "$out/libfloor.so" ] && floor_lib=("$out/libfloor.so")
"$out/bench_coldstart" run "${BENCH_COLDSTART_N:-100}" "$lib" "$config" "$session" "${floor_lib[@]}" >>"$rows"
fi

if want ffi; then
echo "FFI: Python ctypes..." >&2
"${PYTHON:-python3}" benchmarks/bench_ffi.py "$lib" "$config" >>"$rows"
fi

if want record; then
echo "record: sync cost by record size, path get/set..." >&2
rm -rf "$out/record-state"
"$out/bench_record" "$lib" "$config" "$out/record-state" >>"$rows"
fi

if want memory; then
echo "memory: peak RSS of a sign-in with a 31 MiB answer, libjump vs libcurl + jansson (${BENCH_MEMORY_N:-3} of each)..." >&2
rm -rf "$out/memory-state"
"$out/bench_memory" "$lib" "$config" "$out/memory-state" >>"$rows"
fi

if want many; then
echo "many clients: ${BENCH_MANY_CLIENTS:-1000} at once, libjump _async vs one libcurl multi handle (${BENCH_MANY_N:-3} rounds)..." >&2
# An emulator of its own, in memory: its SQLite fsyncs (one per sign-in and write) are not what this measures.
JUMP_EMULATOR_ARGS="${JUMP_EMULATOR_ARGS:-} --db :memory:" bash scripts/with-emulator.sh "$out/bench_many" "$lib" >>"$rows"
fi

if want fibers; then
echo "fibers: the register switch vs swapcontext..." >&2
"$out/bench_switch" >>"$rows"
fi

row() { local IFS=$'\t'; echo "ROW$IFS$*" >>"$rows"; } # group measurement value unit baseline value ratio note
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }

# The other runtimes' bindings: one jump_* call through each, against that runtime's own no-op FFI call.
# ffi_row GROUP NAME AVAILABLE COMMAND FLOOR_FILTER CALL_FILTER MEASUREMENT BASELINE NOTE: runs COMMAND when
# GROUP is wanted and AVAILABLE succeeds, reads the two figures with the filters (a sed or awk program each,
# run by sh -c over the output on standard input) and writes the row.
ffi_row() {
    local group=$1 name=$2 available=$3 command=$4 floor_filter=$5 call_filter=$6 measurement=$7 baseline=$8 note=$9
    want "$group" || return 0
    if ! sh -c "$available" >/dev/null 2>&1; then
        echo "FFI: $name skipped (its toolchain is missing, or it did not build)" >&2
        return 0
    fi
    echo "FFI: $name..." >&2
    local output floor call
    output=$(sh -c "$command")
    floor=$(sh -c "$floor_filter" <<<"$output")
    call=$(sh -c "$call_filter" <<<"$output")
    row "FFI (other runtimes)" "$measurement" "$call" ns "$baseline" "$floor" "$(ratio_of "$call" "$floor")" "$note"
}
ffi_row node "Node.js (N-API)" "command -v node && make --no-print-directory -s build/node/jump.node" \
    "node bindings/node/bench/overhead.js 200000" \
    "awk '/^addon.noop/ { print \$(NF-1) }'" "awk '/^Client#isSignedIn/ { print \$(NF-1) }'" \
    "Node.js: client.isSignedIn (jump_client_is_signed_in)" "a no-op N-API call" "bindings/node/bench/overhead.js"
ffi_row csharp "C# (Mono)" "command -v mono && command -v mcs" "bash bindings/csharp/bench/run.sh" \
    "sed -n 's/.*int(ptr) \([0-9.]*\) ns.*/\1/p'" "awk '/^JumpClient.IsSignedIn/ { print \$(NF-2) }'" \
    "C#: JumpClient.IsSignedIn (SafeHandle)" "Mono P/Invoke of a no-op int(void *)" "bindings/csharp/bench"
ffi_row rust "Rust" "command -v cargo || [ -x /usr/bin/cargo ]" "bash bindings/rust/bench/run.sh" \
    "awk '/^noop_ptr/ { print \$(NF-1) }'" "awk '/^Client::is_signed_in/ { print \$(NF-1) }'" \
    "Rust: Client::is_signed_in (jump_client_is_signed_in)" "a Rust FFI call of a no-op int(void *) (libnoop.so)" \
    "bindings/rust/bench"
ffi_row java "Java (JNI)" "command -v javac && command -v java" "bash bindings/java/bench/run.sh" \
    "sed -n 's/.*JNI no-op int(long) through the glue \([0-9.]*\) ns.*/\1/p'" "awk '/^Client.isSignedIn/ { print \$4 }'" \
    "Java: Client.isSignedIn (JNI)" "a no-op JNI call, (J)I, through the same glue" "bindings/java/bench"
ffi_row go "Go (cgo)" "command -v go" "bash bindings/go/bench.sh" \
    "awk '/^Noop / { print \$2 }'" "awk '/^IsSignedIn / { print \$2 }'" \
    "Go: Client.IsSignedIn (jump_client_is_signed_in)" "a cgo call of a static C no-op (the benchmark's own package)" \
    "bindings/go/bench"

# Size: what an app ships. The system's libcurl and libjansson (loaded anyway) give the scale.
mib() { awk -v bytes="$1" 'BEGIN { printf "%.2f", bytes / 1048576 }'; }
if want size; then
strip --strip-all -o "$out/libjump.so" "$lib"
size=$(stat -L -c %s "$out/libjump.so")
deps=0
for d in $(ldd "$lib" | awk '/libcurl\.so|libjansson\.so/ { print $3 }'); do
    deps=$((deps + $(stat -L -c %s "$d")))
done
ratio=$(awk -v a="$size" -v b="$deps" 'BEGIN { printf "%.1f", a / b }')
row Size "libjump.so, stripped (build/bench/libjump.so)" "$(mib "$size")" MiB \
    "libcurl.so.4 + libjansson.so.4 as installed" "$(mib "$deps")" "$ratio" \
    "unstripped $(mib "$(stat -L -c %s "$lib")") MiB"
if [ -f "$out/libfloor.so" ]; then
    strip --strip-all -o "$out/libfloor.stripped.so" "$out/libfloor.so"
    floor_size=$(stat -L -c %s "$out/libfloor.stripped.so")
    row Size "libjump.so, stripped" "$(mib "$size")" MiB \
        "an empty Swift library linked the same way (the Swift runtime alone)" "$(mib "$floor_size")" \
        "$(ratio_of "$size" "$floor_size")" \
        "libjump's own code and glue: $(mib $((size - floor_size))) MiB (benchmarks/floor)"
fi
row Size "NEEDED (readelf -d)" "" "" "" "" "" \
    "$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd ' ' -)"
fi

# ---- the table: one line per ROW, columns padded; numbers right-aligned ----
version=$(python3 -c 'import ctypes, sys
lib = ctypes.CDLL(sys.argv[1]); lib.jump_version.restype = ctypes.c_char_p
print(lib.jump_version().decode())' "$lib")
echo
echo "libjump $version benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, $(uname -sr)"
echo "emulator: $url (${JUMP_EMULATOR_ARGS:-default args}); medians; ratio = libjump / baseline"
echo
awk -F'\t' '
    function pad(text, i, left) { return sprintf("| %" (left ? "-" : "") w[i] "s ", text) }
    BEGIN { columns = split("benchmark|libjump|median|baseline (same run)|median|ratio|note", head, "|") }
    $1 == "ROW" {
        n++
        cell[n, 1] = ($2 == last) ? "" : $2; last = $2
        cell[n, 2] = $3
        cell[n, 3] = ($4 == "") ? "" : $4 " " $5
        cell[n, 4] = $6
        cell[n, 5] = ($7 == "") ? "" : $7 " " $5
        cell[n, 6] = ($8 == "") ? "" : $8 "x"
        cell[n, 7] = $9
    }
    END {
        for (i = 1; i <= columns; i++) {
            w[i] = length(head[i])
            for (r = 1; r <= n; r++) if (length(cell[r, i]) > w[i]) w[i] = length(cell[r, i])
        }
        line = rule = ""
        for (i = 1; i <= columns; i++) { line = line pad(head[i], i, 1); rule = rule "|" sprintf("%" w[i] + 2 "s", "") }
        gsub(/ /, "-", rule)
        print line "|"; print rule "|"
        for (r = 1; r <= n; r++) {
            line = ""
            for (i = 1; i <= columns; i++) line = line pad(cell[r, i], i, i != 3 && i != 5 && i != 6)
            print line "|"
        }
    }' "$rows"
