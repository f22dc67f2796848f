# The NuGet package (make nuget), sourced by Tests/install/run.sh (its check, with_installed_emulator, $stage,
# $lib, $version). What a C# developer on Mono relies on:
# - the package holds Jump.dll (net472) with its docs and dllmap, the msbuild targets, and the library make
#   install installs (the same stripped file), under runtimes/linux-<arch>/native/libjump.so;
# - Debian's nuget (NuGet 2.8) restores it from a folder feed into a fresh project, offline: the project's
#   NuGet.Config clears every other source, HOME is empty, and a proxy on a closed port fails any request
#   that would leave the machine;
# - msbuild (xbuild) builds examples/csharp/Quickstart.cs against it, importing the package's
#   build/net472/Jump.targets as NuGet's packages.config integration does, and the program runs against the
#   installed emulator with no LD_LIBRARY_PATH or JUMP_LIBRARY_PATH, loading the package's library (Mono's
#   own log, on stdout with the program's, says from where);
# - the .NET resolver (NativeLibraryResolver.CandidatePaths) finds the library in the restored package.

nuget_app=$stage/nuget-app
nuget_package() {
    make --no-print-directory nuget >"$stage/nuget.log" 2>&1 || return 1
    nupkg=$(tail -1 "$stage/nuget.log")
    test -f "$nupkg"
}
case "$(uname -m)" in x86_64) nuget_rid=linux-x64 ;; aarch64) nuget_rid=linux-arm64 ;; *) nuget_rid=unknown ;; esac
# Beside libjump.so, the libraries it needs (libcurl-1a2b3c4d.so.4...: Tests/install/packages.sh checks them).
nuget_bundled_re="^runtimes/$nuget_rid/native/lib[A-Za-z0-9_.+-]*-[0-9a-f]{8}\.so(\.[0-9]+)*\$"
nuget_files() {
    diff <(unzip -Z1 "$nupkg" | grep -v -e '^_rels/' -e '^package/services/' -e '^\[Content_Types\]\.xml$' |
               grep -vE "$nuget_bundled_re" | sort) \
         <(printf '%s\n' Jump.nuspec README.md LICENSE NOTICE build/net472/Jump.targets lib/net472/Jump.dll \
               lib/net472/Jump.dll.config lib/net472/Jump.xml "runtimes/$nuget_rid/native/libjump.so" | sort) &&
        unzip -Z1 "$nupkg" | grep -E "$nuget_bundled_re" | grep -q "/libcurl-"
}
# The same build as make install's (build ID), stripped, its NEEDED entries rewritten to the bundled libraries.
nuget_same_library() {
    local build_id
    unzip -p "$nupkg" "runtimes/$nuget_rid/native/libjump.so" >"$stage/nuget-libjump.so" || return 1
    build_id=$(readelf -n "$lib/libjump.so.$version" | sed -n 's/.*Build ID: //p')
    test -n "$build_id" && test "$(readelf -n "$stage/nuget-libjump.so" | sed -n 's/.*Build ID: //p')" = "$build_id" &&
        ! readelf -S "$stage/nuget-libjump.so" | grep -q '\.debug_info' &&
        readelf -d "$stage/nuget-libjump.so" | grep -qE 'NEEDED.*\[libcurl-[0-9a-f]{8}\.so\.4\]'
}
nuget_nuspec() {
    unzip -p "$nupkg" Jump.nuspec >"$stage/Jump.nuspec" &&
        grep -q "<version>$version</version>" "$stage/Jump.nuspec" &&
        grep -q '<license type="expression">Apache-2.0</license>' "$stage/Jump.nuspec" &&
        grep -q '<repository type="git" url="https://' "$stage/Jump.nuspec" &&
        grep -q '<readme>README.md</readme>' "$stage/Jump.nuspec"
}
nuget_restore() {
    mkdir -p "$nuget_app/feed" "$stage/nuget-home" && cp "$nupkg" "$nuget_app/feed/" || return 1
    cat >"$nuget_app/NuGet.Config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$nuget_app/feed" />
  </packageSources>
</configuration>
XML
    (cd "$nuget_app" && HOME=$stage/nuget-home http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
        nuget install Jump -Version "$version" -Source "$nuget_app/feed" -ConfigFile NuGet.Config \
        -OutputDirectory packages -NoCache -NonInteractive) >"$stage/nuget-install.log" 2>&1 &&
        test -f "$nuget_app/packages/Jump.$version/lib/net472/Jump.dll"
}
nuget_build() {
    cp examples/csharp/Quickstart.cs "$nuget_app/" || return 1
    # xbuild (Mono's msbuild of ToolsVersion 14) warns that it does not know v4.7.2, and builds all the same.
    cat >"$nuget_app/Quickstart.csproj" <<XML
<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" DefaultTargets="Build" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <AssemblyName>Quickstart</AssemblyName>
    <TargetFrameworkVersion>v4.7.2</TargetFrameworkVersion>
    <OutputPath>bin/</OutputPath>
  </PropertyGroup>
  <ItemGroup>
    <Reference Include="System" />
    <Reference Include="System.Core" />
    <Reference Include="Jump"><HintPath>packages/Jump.$version/lib/net472/Jump.dll</HintPath></Reference>
    <Compile Include="Quickstart.cs" />
  </ItemGroup>
  <Import Project="\$(MSBuildToolsPath)/Microsoft.CSharp.targets" />
  <Import Project="packages/Jump.$version/build/net472/Jump.targets" Condition="Exists('packages/Jump.$version/build/net472/Jump.targets')" />
</Project>
XML
    (cd "$nuget_app" && xbuild /nologo /verbosity:minimal Quickstart.csproj) >"$stage/xbuild.log" 2>&1 &&
        test -f "$nuget_app/bin/Quickstart.exe"
}
nuget_run() {
    (cd "$nuget_app" && with_installed_emulator env -u LD_LIBRARY_PATH -u JUMP_LIBRARY_PATH \
        MONO_LOG_LEVEL=debug MONO_LOG_MASK=dll mono bin/Quickstart.exe >"$stage/nuget-quickstart.out" 2>&1) &&
        grep -q "DllImport loaded library '$nuget_app/bin/libjump.so.1'" "$stage/nuget-quickstart.out" &&
        grep -q '^still signed in after restart as .*; aboutMe: Written by the C# quickstart$' "$stage/nuget-quickstart.out"
}
# What .NET would load: the first candidate of the resolver that exists, for Jump.dll where NuGet restored it.
nuget_resolver() {
    cat >"$nuget_app/Candidates.cs" <<'CS'
using System;
using System.IO;
using System.Reflection;
static class Candidates
{
    static int Main(string[] args)
    {
        var resolver = typeof(Jump.JumpClient).Assembly.GetType("Jump.NativeLibraryResolver", true);
        var flags = BindingFlags.Static | BindingFlags.NonPublic;
        var rid = (string)resolver.GetMethod("RuntimeIdentifier", flags).Invoke(null, null);
        var paths = (string[])resolver.GetMethod("CandidatePaths", flags).Invoke(null, new object[] { args[0], null, rid });
        foreach (var path in paths)
            if (File.Exists(path)) { Console.WriteLine(Path.GetFullPath(path)); return 0; }
        return 1;
    }
}
CS
    local lib_dir=$nuget_app/packages/Jump.$version/lib/net472
    mcs -nologo -out:"$nuget_app/Candidates.exe" -r:"$lib_dir/Jump.dll" "$nuget_app/Candidates.cs" &&
        test "$(MONO_PATH=$lib_dir mono "$nuget_app/Candidates.exe" "$lib_dir")" = \
             "$nuget_app/packages/Jump.$version/runtimes/$nuget_rid/native/libjump.so"
}

if check "make nuget makes build/dist/Jump.$version.nupkg" nuget_package; then
    check "it holds Jump.dll (net472), Jump.xml, Jump.dll.config, Jump.targets, runtimes/$nuget_rid/native/libjump.so and its libraries" nuget_files
    check "... that libjump.so is the stripped build make install installs (its build ID), needing the bundled libcurl" \
        nuget_same_library
    check "... and a nuspec with the version, license expression, repository and readme" nuget_nuspec
    check "nuget install restores it from a folder feed alone (NuGet.Config <clear/>, offline)" nuget_restore
    check "xbuild builds the C# quickstart against it (its build/net472/Jump.targets imported)" nuget_build
    check "... which runs against the installed emulator, loading the package's libjump (no LD_LIBRARY_PATH)" nuget_run
    check ".NET's resolver would load the restored package's runtimes/$nuget_rid/native/libjump.so" nuget_resolver
else
    cat "$stage/nuget.log"
fi
