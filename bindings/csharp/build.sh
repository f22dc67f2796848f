#!/usr/bin/env bash
# Builds the C# binding with Mono's compiler into build/csharp/: Jump.dll (+ Jump.dll.config, the dllmap
# that makes [DllImport("jump")] load libjump.so.1), JumpTests.exe and the examples/csharp Quickstart.exe.
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
# -warnaserror: a warning in the binding is a bug waiting (unused results, unreachable code).
"$mcs" -nologo -debug -warnaserror -target:library -out:"$out/Jump.dll" -doc:"$out/Jump.xml" -nowarn:1591 \
    "$here"/bindings/csharp/src/*.cs
cp "$here/bindings/csharp/Jump.dll.config" "$out/Jump.dll.config"
"$mcs" -nologo -debug -warnaserror -target:exe -out:"$out/JumpTests.exe" -r:"$out/Jump.dll" -r:System.Net.dll \
    "$here"/bindings/csharp/tests/*.cs
"$mcs" -nologo -warnaserror -target:exe -out:"$out/Quickstart.exe" -r:"$out/Jump.dll" \
    "$here/examples/csharp/Quickstart.cs"
