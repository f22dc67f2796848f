"""The platform wheel (scripts/build-wheel.sh, what `make wheel` runs), built from the library under test,
installed into a fresh venv with ``pip install --no-index`` and used there without JUMP_LIBRARY_PATH or the
source tree, against the emulator: the Python quickstart, asyncio, the "jump" logger and the command line.

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
           if k not in ("JUMP_LIBRARY_PATH", "PYTHONPATH", "JUMP_CONFIG", "PYTHONHOME", "VIRTUAL_ENV")}
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
    assert installed.wheel.name == f"jump-{version}-py3-none-{_platform_tag()}.whl"
    with zipfile.ZipFile(installed.wheel) as whl:
        info = f"jump-{version}.dist-info/"
        wheel_file = whl.read(info + "WHEEL").decode()
        metadata = whl.read(info + "METADATA").decode()
    assert "Root-Is-Purelib: false" in wheel_file and f"Tag: py3-none-{_platform_tag()}" in wheel_file
    assert f"\nVersion: {version}\n" in metadata and "\nName: jump\n" in metadata


def test_one_version(installed: Installed) -> None:
    # include/jump.h is the source; the package's __version__ (which pyproject.toml reads) and the library
    # must say the same.
    assert HEADER_VERSION and jump.__version__ == HEADER_VERSION.group(1) == jump.version()
    pyproject = (BINDING / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "jump.__version__" }' in pyproject


def test_wheel_holds_the_package_and_the_library_only(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as whl:
        names = whl.namelist()
        library = whl.getinfo("jump/libjump.so")
    package = sorted(n for n in names if not n.startswith("jump-"))
    sources = sorted(f"jump/{p.name}" for p in (BINDING / "jump").iterdir() if p.suffix == ".py" or p.name == "py.typed")
    assert package == sorted(sources + ["jump/libjump.so"])  # no __pycache__, tests, build/ or egg-info
    dist_info = {re.sub(r"^jump-[^/]+\.dist-info/", "", n) for n in names if n.startswith("jump-")}
    assert dist_info <= {"METADATA", "WHEEL", "RECORD", "top_level.txt", "LICENSE", "NOTICE",
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
