#!/usr/bin/env bash
# Writes a GOPROXY directory tree holding this checkout's Go module (bindings/go), so that an app fetches it
# like any other module, with no replace directive and no network:
#
#   bash bindings/go/make-proxy.sh [DIR]        # DIR defaults to build/go/proxy
#   GOPROXY=file://DIR GOSUMDB=off go get libjump.io/jump@vX.Y.Z
#
# DIR/libjump.io/jump/@v/ gets list, vX.Y.Z.info, vX.Y.Z.mod and vX.Y.Z.zip (https://go.dev/ref/mod#goproxy-protocol),
# X.Y.Z being JUMP_VERSION of include/jump.h (JUMP_GO_VERSION=vX.Y.Z overrides it). The zip is made as
# golang.org/x/mod/zip makes it (https://go.dev/ref/mod#zip-files): every file under "module@version/", files
# only (no directory entries, no symlinks), no VCS or vendor directories, no subdirectory holding a go.mod of
# its own, the repository's LICENSE at the root (the module has none of its own), go.mod and LICENSE at most
# 16 MiB, the whole at most 500 MiB uncompressed, no two paths equal but for case. Entries are sorted and dated
# from SOURCE_DATE_EPOCH (default: the last commit's time), so the same tree gives the same zip, byte for byte.
# Other versions already in DIR stay (list names them all). cgo still needs libjump and jump.pc (make install).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=${1:-$root/build/go/proxy}
version=${JUMP_GO_VERSION:-v$(sed -n 's/^#define JUMP_VERSION "\(.*\)"/\1/p' "$root/include/jump.h")}
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 315532800)}
mkdir -p "$dir"
python3 - "$here" "$root/LICENSE" "$dir" "$version" "$epoch" <<'EOF'
import datetime, json, os, re, sys, zipfile

source, license_path, proxy, version, epoch = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
if not re.fullmatch(r"v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", version):
    sys.exit(f"make-proxy: {version!r} is not a semantic version vX.Y.Z")
with open(os.path.join(source, "go.mod"), encoding="utf-8") as f:
    gomod = f.read()
module = re.search(r"^module\s+(\S+)", gomod, re.M).group(1).strip('"')
major = int(version[1:].split(".")[0])
if major >= 2 and not module.endswith(f"/v{major}"):
    sys.exit(f"make-proxy: {version} needs the module path to end in /v{major}")

MiB = 1 << 20
files = {}  # path in the module -> file on disk
for top, dirs, names in os.walk(source):
    rel = os.path.relpath(top, source)
    keep = []
    for d in sorted(dirs):
        full = os.path.join(top, d)
        if d in (".git", ".hg", ".svn", ".bzr", "vendor") or os.path.islink(full):
            continue
        if os.path.exists(os.path.join(full, "go.mod")):  # another module: not part of this one
            continue
        keep.append(d)
    dirs[:] = keep
    for name in names:
        full = os.path.join(top, name)
        if not os.path.isfile(full) or os.path.islink(full):  # regular files only
            continue
        path = name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")
        files[path] = full
if "LICENSE" not in files and os.path.isfile(license_path):
    files["LICENSE"] = license_path  # what the go command does for a module in a subdirectory of its repository

folded = {}
for path in files:
    if path.lower() in folded:
        sys.exit(f"make-proxy: {path} and {folded[path.lower()]} differ only in case")
    folded[path.lower()] = path
    if any(part in ("", ".", "..") for part in path.split("/")) or not all(c.isprintable() for c in path):
        sys.exit(f"make-proxy: {path!r} is not a valid file path in a module")
total = 0
for path, full in files.items():
    size = os.path.getsize(full)
    if path in ("go.mod", "LICENSE") and size > 16 * MiB:
        sys.exit(f"make-proxy: {path} is larger than 16 MiB")
    total += size
if total > 500 * MiB:
    sys.exit("make-proxy: the module is larger than 500 MiB uncompressed")

stamp = datetime.datetime.fromtimestamp(max(epoch, 315532800), datetime.timezone.utc)
versions = os.path.join(proxy, module, "@v")
os.makedirs(versions, exist_ok=True)
target = os.path.join(versions, version)
prefix = f"{module}@{version}/"
with zipfile.ZipFile(target + ".zip.tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for path in sorted(files):
        info = zipfile.ZipInfo(prefix + path, date_time=stamp.timetuple()[:6])
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(files[path], "rb") as f:
            z.writestr(info, f.read())
os.replace(target + ".zip.tmp", target + ".zip")
with open(target + ".mod", "w", encoding="utf-8") as f:
    f.write(gomod)
with open(target + ".info", "w", encoding="utf-8") as f:
    json.dump({"Version": version, "Time": stamp.strftime("%Y-%m-%dT%H:%M:%SZ")}, f)
    f.write("\n")
listed = set()
if os.path.exists(os.path.join(versions, "list")):
    with open(os.path.join(versions, "list"), encoding="utf-8") as f:
        listed = {line.strip() for line in f if line.strip()}
listed.add(version)
with open(os.path.join(versions, "list"), "w", encoding="utf-8") as f:
    f.write("".join(v + "\n" for v in sorted(listed)))
print(f"{module}@{version}: {len(files)} files -> {versions}")
EOF
