#!/usr/bin/env bash
# Per-call overhead of the C# binding under Mono vs Mono's P/Invoke of a C no-op (Overhead.cs). Optional;
# not part of `make bench`. Needs build/lib/libjump.so, mono and a C compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
out=$here/build/csharp
bash "$here/bindings/csharp/build.sh"
mkdir -p "$here/build/bench"
# The same no-op library benchmarks/bench_ffi.py measures Python against.
"${CC:-cc}" -O2 -shared -fPIC -o "$here/build/bench/libnoop.so" "$here/benchmarks/noop.c"
mcs -nologo -optimize+ -warnaserror -target:exe -out:"$out/Overhead.exe" -r:"$out/Jump.dll" "$here/bindings/csharp/bench/Overhead.cs"
# Overhead.exe's own imports use "jump" and "noop" unmapped: Mono then tries libjump.so / libnoop.so.
export LD_LIBRARY_PATH="$here/build/lib:$here/build/bench${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec mono -O=all "$out/Overhead.exe"
