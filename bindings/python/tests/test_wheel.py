"""The manylinux wheel (scripts/build-wheel.sh, what `make wheel` runs), built from the library under test,
installed into a fresh venv with ``pip install --no-index`` and used there without JUMP_LIBRARY_PATH,
LD_LIBRARY_PATH or the source tree, against the emulator: the Python quickstart, asyncio, the "jump" logger and
the command line; and the wheel itself: distribution ``libjump`` (import name ``jump``), its metadata, and
libcurl, jansson and their libraries bundled in ``libjump.libs/``, where libjump.so's NEEDED entries lead.

The venv has no system site-packages, and every program runs with a working directory outside the repository
and no PYTHONPATH, so ``import jump`` can only be the installed wheel, and libjump only the copy inside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path
from typing import Dict, Iterator, List, NamedTuple

import pytest

import jump

from conftest import BINDING, PASSWORD, ROOT, unique_email

HEADER_VERSION = re.search(r'^#define JUMP_VERSION "(.+)"$', (ROOT / "include" / "jump.h").read_text(), re.M)


class Installed(NamedTuple):
    wheel: Path
    python: Path  # the venv's interpreter
    work: Path  # an empty directory outside the repository, the programs' working directory


def _platform_tag() -> str:
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


def _manylinux_tag() -> str:
    """A regular expression of the wheel's platform tag: manylinux_2_X_<arch> (auditwheel's choice of X)."""
    return r"manylinux_2_\d+_" + re.escape(_platform_tag().split("_", 1)[1])


# What a manylinux wheel may take from the system (auditwheel's policy): the C library and its companions.
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libresolv|libutil|libgcc_s|"
                              r"libstdc\+\+|libz|libnsl|libcrypt|libexpat|libX|libGL|libICE|libSM|libglib|libgobject"
                              r"|libgthread)[-.]")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[Installed]:
    if not shutil.which("bash"):
        pytest.skip("bash is needed to run scripts/build-wheel.sh")
    root = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(["bash", str(ROOT / "scripts" / "build-wheel.sh"), jump.library_path(), str(root / "dist")],
                           capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, f"build-wheel.sh failed:\n{built.stdout}{built.stderr}"
    wheel = Path(built.stdout.strip().splitlines()[-1])
    assert wheel.is_file(), built.stdout
    venv = root / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, f"python3 -m venv failed (Debian: apt-get install python3-venv):\n{made.stderr}"
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"pip install --no-index {wheel.name} failed:\n{done.stdout}{done.stderr}"
    work = root / "work"
    work.mkdir()
    yield Installed(wheel, python, work)


def _env(**extra: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("JUMP_LIBRARY_PATH", "LD_LIBRARY_PATH", "PYTHONPATH", "JUMP_CONFIG", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def run_in_venv(installed: Installed, args: List[str], stdin: str = "", timeout: float = 60,
                **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(installed.python), *args], cwd=str(installed.work), input=stdin, capture_output=True,
                          text=True, env=_env(XDG_DATA_HOME=str(installed.work / "xdg"), **env), timeout=timeout)


def run_script(installed: Installed, code: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    script = installed.work / "script.py"
    script.write_text(textwrap.dedent(code))
    return run_in_venv(installed, [str(script), *args], **env)


def account(emu) -> Dict[str, str]:
    email = unique_email("wheel")
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})["user"]
    return {"email": email, "uuid": user["uuid"]}


def _site_packages(installed: Installed) -> str:
    return str(installed.python.parent.parent / "lib")


# ---------------------------------------------------------------------------------------------------------
# The wheel itself
# ---------------------------------------------------------------------------------------------------------


def test_wheel_name_tags_and_version(installed: Installed) -> None:
    assert HEADER_VERSION, "include/jump.h has no JUMP_VERSION"
    version = HEADER_VERSION.group(1)
    # The distribution is libjump (the import name stays jump); one wheel for every Python 3, manylinux.
    assert re.fullmatch(rf"libjump-{re.escape(version)}-py3-none-{_manylinux_tag()}\.whl", installed.wheel.name), \
        installed.wheel.name
    with zipfile.ZipFile(installed.wheel) as whl:
        info = f"libjump-{version}.dist-info/"
        wheel_file = whl.read(info + "WHEEL").decode()
        metadata = whl.read(info + "METADATA").decode()
        top_level = whl.read(info + "top_level.txt").decode().split()
    assert "Root-Is-Purelib: false" in wheel_file
    assert re.search(rf"^Tag: py3-none-{_manylinux_tag()}$", wheel_file, re.M), wheel_file
    assert f"\nVersion: {version}\n" in metadata and "\nName: libjump\n" in metadata and top_level == ["jump"]


def test_metadata(installed: Installed) -> None:
    # SPDX license (PEP 639) with its files, project URLs, classifiers, and the binding's README as the long
    # description.
    with zipfile.ZipFile(installed.wheel) as whl:
        name = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(name).decode()
    headers, _, description = metadata.partition("\n\n")
    assert "\nLicense-Expression: Apache-2.0" in headers
    assert {"LICENSE", "NOTICE"} <= set(re.findall(r"^License-File: (.+)$", headers, re.M))
    urls = dict(line.split(": ", 1)[1].split(", ", 1) for line in headers.splitlines() if line.startswith("Project-URL:"))
    assert {"Homepage", "Source", "Issues", "Changelog", "Documentation"} <= set(urls), urls
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = re.findall(r"^Classifier: (.+)$", headers, re.M)
    assert "Operating System :: POSIX :: Linux" in classifiers and "Typing :: Typed" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the SPDX expression says it (PEP 639)
    assert "Description-Content-Type: text/markdown" in headers
    assert description.strip() == (BINDING / "README.md").read_text().strip()


def test_one_version(installed: Installed) -> None:
    # include/jump.h is the source; the package's __version__ (which pyproject.toml reads) and the library
    # must say the same.
    assert HEADER_VERSION and jump.__version__ == HEADER_VERSION.group(1) == jump.version()
    pyproject = (BINDING / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "jump.__version__" }' in pyproject


def test_wheel_holds_the_package_and_the_library_only(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as whl:
        names = [n for n in whl.namelist() if not n.endswith("/")]  # auditwheel's zip has directory entries
        library = whl.getinfo("jump/libjump.so")
    package = sorted(n for n in names if n.startswith("jump/"))
    sources = sorted(f"jump/{p.name}" for p in (BINDING / "jump").iterdir() if p.suffix == ".py" or p.name == "py.typed")
    assert package == sorted(sources + ["jump/libjump.so"])  # no __pycache__, tests, build/ or egg-info
    bundled = [n for n in names if n.startswith("libjump.libs/")]
    assert not [n for n in names if n not in package and n not in bundled and not n.startswith("libjump-")]
    dist_info = {re.sub(r"^libjump-[^/]+\.dist-info/", "", n) for n in names if n.startswith("libjump-")}
    dist_info -= {n for n in dist_info if n.startswith("sboms/")}  # auditwheel's record of what it bundled
    assert dist_info <= {"METADATA", "WHEEL", "RECORD", "top_level.txt", "entry_points.txt", "LICENSE", "NOTICE",
                         "licenses/LICENSE", "licenses/NOTICE"}, dist_info
    assert {"LICENSE", "NOTICE"} <= {n.rsplit("/", 1)[-1] for n in dist_info}  # Apache-2.0: both travel
    assert library.external_attr >> 16 & 0o111  # executable, as a shared library is installed
    assert library.file_size < os.path.getsize(jump.library_path())  # stripped of its debug info
    if shutil.which("readelf"):
        with zipfile.ZipFile(installed.wheel) as whl, open(installed.work / "libjump.so", "wb") as out:
            out.write(whl.read("jump/libjump.so"))
        sections = subprocess.run(["readelf", "-S", str(installed.work / "libjump.so")], capture_output=True,
                                  text=True).stdout
        (installed.work / "libjump.so").unlink()
        assert ".dynsym" in sections and ".debug_info" not in sections


def test_libraries_bundled_and_found_through_the_rpath(installed: Installed) -> None:
    # libcurl, jansson (and OpenSSL, and theirs) are in libjump.libs/ under auditwheel's hashed names; the
    # NEEDED entries of the wheel's libjump.so name those copies, and ldd of it unpacked, with no
    # LD_LIBRARY_PATH, resolves every one of them there (rpath $ORIGIN/../libjump.libs), the rest being what
    # manylinux lets a wheel take from the system.
    if not (shutil.which("readelf") and shutil.which("ldd")):
        pytest.skip("readelf and ldd (binutils, libc-bin) are needed")
    unpacked = installed.work / "unpacked"
    with zipfile.ZipFile(installed.wheel) as whl:
        whl.extractall(unpacked)
    try:
        bundled = sorted(p.name for p in (unpacked / "libjump.libs").iterdir())
        for name in ("libcurl", "libjansson", "libcrypto", "libssl"):
            assert any(re.fullmatch(rf"{name}-[0-9a-f]{{8}}\.so[.0-9]*", b) for b in bundled), (name, bundled)
        library = unpacked / "jump" / "libjump.so"
        dynamic = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True).stdout
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", dynamic)
        assert any(n.startswith("libcurl-") for n in needed) and any(n.startswith("libjansson-") for n in needed)
        assert "$ORIGIN/../libjump.libs" in dynamic
        ldd = subprocess.run(["ldd", str(library)], capture_output=True, text=True, env=_env()).stdout
        assert "not found" not in ldd, ldd
        resolved = dict(re.findall(r"^\s*(\S+) => (\S+)", ldd, re.M))
        for name, path in resolved.items():
            inside = os.path.realpath(path).startswith(str((unpacked / "libjump.libs").resolve()))
            assert inside or SYSTEM_LIBRARIES.match(name), (name, path)
            assert inside == (name in bundled), (name, path)
    finally:
        shutil.rmtree(unpacked)


def test_loaded_libraries_are_the_bundled_ones(installed: Installed) -> None:
    done = run_in_venv(installed, ["-c", "import jump; jump.version(); print(open('/proc/self/maps').read())"])
    assert done.returncode == 0, done.stderr
    mapped = {line.split()[-1] for line in done.stdout.splitlines() if line.count("/") and ".so" in line}
    bundled = os.path.join(_site_packages(installed), "")
    for name in ("libcurl", "libjansson", "libcrypto", "libssl"):
        paths = [p for p in mapped if os.path.basename(p).startswith((name + "-", name + "."))]
        assert any(p.startswith(bundled) and "/libjump.libs/" in p for p in paths), (name, paths)
        if name in ("libcurl", "libjansson"):  # (Python's own _ssl and _hashlib may map the system's OpenSSL too)
            assert all(p.startswith(bundled) for p in paths), (name, paths)


def test_installed_package_uses_its_own_library(installed: Installed) -> None:
    done = run_in_venv(installed, ["-c", "import jump; print(jump.__file__); print(jump.library_path()); "
                                         "print(jump.version())"])
    assert done.returncode == 0, done.stderr
    package_file, library, version = done.stdout.split()
    assert package_file.startswith(_site_packages(installed)) and library.startswith(_site_packages(installed))
    assert library == str(Path(package_file).parent / "libjump.so") and version == jump.version()


# ---------------------------------------------------------------------------------------------------------
# Using it
# ---------------------------------------------------------------------------------------------------------


def test_quickstart(installed: Installed, emu) -> None:
    done = run_in_venv(installed, [str(ROOT / "examples" / "python" / "quickstart.py")], JUMP_EMULATOR_URL=emu.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("quickstart OK"), done.stdout
    assert f" from {_site_packages(installed)}" in done.stdout.splitlines()[0]  # the wheel's libjump.so


def test_console_script(installed: Installed, emu) -> None:
    """`pip install` puts the command line on the venv's PATH as `jump` (as `python -m jump` runs it)."""
    script = installed.python.parent / "jump"
    assert script.exists(), sorted(p.name for p in installed.python.parent.iterdir())
    done = subprocess.run([str(script), "--help"], cwd=installed.work, env=_env(), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "usage: jump" in done.stdout, done.stdout


def test_asyncio_sign_in_without_a_thread_per_call(installed: Installed, emu) -> None:
    user = account(emu)
    done = run_script(installed, """
        import asyncio, json, os, sys, tempfile, threading
        import jump

        async def main():
            url = os.environ["JUMP_EMULATOR_URL"]
            config = {"captureDomain": url, "captureClientId": "jump-default-client", "captureAppId": "default-app",
                      "captureFlowName": "standard", "captureFlowDomain": url,
                      "storageDirectory": tempfile.mkdtemp()}
            counts = []
            with jump.Client(config) as client:
                first = await client.sign_in_async(sys.argv[1], sys.argv[2])
                counts.append(threading.active_count())
                for i in range(4):
                    client.record["/aboutMe"] = f"awaited {i}"
                    await client.sync_async()
                    await asyncio.wrap_future(client.fetch_record_async().future())
                    again = await client.sign_in_async(sys.argv[1], sys.argv[2])
                    assert again["uuid"] == first["uuid"]
                    counts.append(threading.active_count())
            print(json.dumps({"uuid": first["uuid"], "counts": counts}))

        asyncio.run(main())
        """, user["email"], PASSWORD, JUMP_EMULATOR_URL=emu.url)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["uuid"] == user["uuid"]
    assert len(out["counts"]) == 5 and len(set(out["counts"])) == 1, out["counts"]  # no thread per call
    assert emu.user(user["uuid"])["user"]["aboutMe"] == "awaited 3"


def test_logging_goes_to_the_jump_logger(installed: Installed, emu) -> None:
    user = account(emu)
    done = run_script(installed, """
        import json, logging, os, sys, tempfile
        import jump

        class Keep(logging.Handler):
            def __init__(self):
                super().__init__()
                self.records = []
            def emit(self, record):
                self.records.append(record)

        keep = Keep()
        logging.getLogger("jump").addHandler(keep)
        logging.getLogger("jump").setLevel(logging.DEBUG)
        url = os.environ["JUMP_EMULATOR_URL"]
        with jump.Client({"captureDomain": url, "captureClientId": "jump-default-client", "captureAppId": "default-app",
                          "captureFlowName": "standard", "captureFlowDomain": url,
                          "storageDirectory": tempfile.mkdtemp()}) as client:
            client.sign_in(sys.argv[1], sys.argv[2])
            try:
                client.sign_in(sys.argv[1], "not the password at all")
            except jump.BadCredentials:
                pass
        print(json.dumps([[r.levelname, r.jump_level, r.getMessage()] for r in keep.records]))
        """, user["email"], PASSWORD, JUMP_EMULATOR_URL=emu.url)
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert any("/oauth/auth_native_traditional" in message for _, _, message in records), records
    assert all(level == {"debug": "DEBUG", "info": "INFO", "warning": "WARNING", "error": "ERROR"}[jump_level]
               for level, jump_level, _ in records)
    text = json.dumps(records)
    assert PASSWORD not in text and "not the password at all" not in text and PASSWORD.replace(" ", "+") not in text


def test_command_line(installed: Installed, emu) -> None:
    user = account(emu)
    config = installed.work / "config.json"
    config.write_text(json.dumps({"captureDomain": emu.url, "captureClientId": "jump-default-client",
                                  "captureAppId": "default-app", "captureFlowName": "standard",
                                  "captureFlowDomain": emu.url}))
    storage = str(installed.work / "cli-session")

    def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        return run_in_venv(installed, ["-m", "jump", *args], stdin=stdin)

    done = cli("version", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["library_path"].startswith(_site_packages(installed))
    session = ["--config", str(config), "--storage", storage, "--json"]
    done = cli("sign-in", "--email", user["email"], *session, stdin=PASSWORD + "\n")
    assert done.returncode == 0 and json.loads(done.stdout)["uuid"] == user["uuid"], done.stderr
    assert json.loads(cli("status", *session).stdout)["signed_in"] is True
    assert cli("record", "set", "/aboutMe", '"from the wheel"', *session).returncode == 0
    assert json.loads(cli("record", "sync", *session).stdout)["changed"] == ["/aboutMe"]
    assert json.loads(cli("record", "get", "/aboutMe", *session).stdout) == "from the wheel"
    assert emu.user(user["uuid"])["user"]["aboutMe"] == "from the wheel"
    assert cli("sign-out", *session).returncode == 0
    done = cli("record", "get", "/aboutMe", *session)
    assert done.returncode == 6, done.stderr  # -JUMP_E_NOT_SIGNED_IN
