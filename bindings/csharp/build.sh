#!/usr/bin/env bash
# Builds the C# binding with Mono's compiler into build/csharp/: Jump.dll (+ Jump.dll.config, the dllmap
# that makes [DllImport("jump")] load libjump.so.1), Jump.xml, JumpTests.exe and one .exe per examples/csharp/*.cs.
# No NuGet, no msbuild: one mcs call per assembly.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${JUMP_CSHARP_OUT:-$here/build/csharp}
mkdir -p "$out"
mcs=$(command -v mcs || true)
if [ -z "$mcs" ]; then
    echo "mcs (Mono's C# compiler) is missing; run: sudo apt-get install -y mono-complete" >&2
    exit 1
fi
# -warnaserror: a warning in the binding is a bug waiting (unused results, unreachable code), and so is a public
# member without a doc comment (CS1591): Jump.xml is what IDEs show.
"$mcs" -nologo -debug -warnaserror -target:library -out:"$out/Jump.dll" -doc:"$out/Jump.xml" \
    "$here"/bindings/csharp/src/*.cs
cp "$here/bindings/csharp/Jump.dll.config" "$out/Jump.dll.config"
# The tests compile their own copy of the binding's JSON reader (internal to Jump.dll: not public API).
"$mcs" -nologo -debug -warnaserror -target:exe -out:"$out/JumpTests.exe" -r:"$out/Jump.dll" -r:System.Net.dll \
    "$here"/bindings/csharp/tests/*.cs "$here/bindings/csharp/src/Json.cs"
# The conformance runner (Tests/conformance/README.md), run by ConformanceTests through Tests/conformance/run.py.
"$mcs" -nologo -debug -warnaserror -target:exe -out:"$out/ConformanceRunner.exe" -r:"$out/Jump.dll" -r:System.Net.dll \
    "$here"/bindings/csharp/conformance/*.cs "$here/bindings/csharp/tests/Http.cs" "$here/bindings/csharp/src/Json.cs"
# The examples, each its own program (examples/csharp/*.cs), run by the tests against the emulator.
for example in "$here"/examples/csharp/*.cs; do
    "$mcs" -nologo -warnaserror -target:exe -out:"$out/$(basename "${example%.cs}").exe" -r:"$out/Jump.dll" "$example"
done
