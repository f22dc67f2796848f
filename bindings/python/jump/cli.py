"""``python -m jump``: a small command line over the binding, for scripts and for a quick look at a session.

::

    python -m jump version
    python -m jump state    [--config FILE]
    python -m jump sign-in  [--config FILE] --email EMAIL      # the password: prompted, or one line of stdin
    python -m jump sign-out [--config FILE]

``--config FILE`` is a JSON object of config keys (as ``jump.Client`` takes; default: ``$JUMP_CONFIG``, else
the library's defaults). The session is the one saved in that config's ``storageDirectory``, so ``state`` and
``sign-out`` see what ``sign-in`` left. The password is never taken from the command line (other users could
read it in the process list): it is prompted for on a terminal, else read as the first line of stdin.

``--json`` (before or after the command) prints results as one line of JSON on stdout and, on failure, the
error's JSON detail (``jump_error_last()``) as a second line on stderr, after the one-line message.

Exit status: 0 on success; on a libjump failure the status code negated (1 invalid argument, 3 network,
4 timeout, 5 server, 6 not signed in, 7 bad credentials, ... as in include/jump.h); 2 for a usage error
(argparse's convention; the CLI never holds a freed handle, so JUMP_E_INVALID_HANDLE does not occur);
130 when interrupted.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO

from . import _native
from .client import Client
from .errors import InvalidArgument, JumpError, local_error

__all__ = ["main", "exit_code"]

PROG = "python -m jump"
#: argparse exits with 2 on a usage error; kept (see the module docstring).
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def exit_code(error: JumpError) -> int:
    """The process exit status for a libjump failure: its status negated (1..255), else 1."""
    return -error.status if -255 <= error.status < 0 else 1


def _parser() -> argparse.ArgumentParser:
    # --json and --config are accepted before the command and after it: the subparsers' copies default to
    # SUPPRESS so that they do not overwrite a value given before the command.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="machine-readable output: one JSON line (errors: the detail on stderr)")
    with_config = argparse.ArgumentParser(add_help=False)
    with_config.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                             help="JSON object of config keys (default: $JUMP_CONFIG, else the defaults)")

    parser = argparse.ArgumentParser(prog=PROG, description="libjump from the command line.")
    parser.add_argument("--json", action="store_true", default=False, help=argparse.SUPPRESS)
    parser.add_argument("--config", metavar="FILE", default=None, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    commands.add_parser("version", parents=[common], help="the library's and the binding's versions")
    commands.add_parser("state", parents=[common, with_config], help="the saved session's state")
    sign_in = commands.add_parser("sign-in", parents=[common, with_config],
                                  help="sign in with an email and a password (prompted, or read from stdin)")
    sign_in.add_argument("--email", required=True, help="the email (or user name) to sign in with")
    commands.add_parser("sign-out", parents=[common, with_config], help="sign out and erase the saved session")
    return parser


def _load_config(path: Optional[str]) -> Dict[str, Any]:
    path = path or os.environ.get("JUMP_CONFIG") or None
    if path is None:
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except OSError as exc:
        raise local_error(InvalidArgument, f"cannot read the config file {path}: {exc.strerror or exc}",
                          argument="config") from None
    except ValueError as exc:
        raise local_error(InvalidArgument, f"the config file {path} is not JSON: {exc}", argument="config") from None
    if not isinstance(config, dict):
        raise local_error(InvalidArgument, f"the config file {path} must hold a JSON object", argument="config")
    return config


def _read_password(stdin: TextIO) -> str:
    if stdin.isatty():
        password = getpass.getpass("Password: ")
    else:
        line = stdin.readline()
        password = line[:-1] if line.endswith("\n") else line
        if password.endswith("\r"):
            password = password[:-1]
    if not password:
        raise local_error(InvalidArgument, "no password given (type it at the prompt, or pipe it on stdin)",
                          argument="password")
    return password


def _emit(value: Any, as_json: bool, text: str, stdout: TextIO) -> None:
    if as_json:
        stdout.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")
    else:
        stdout.write(text + "\n")


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> None:
    as_json: bool = args.json
    if args.command == "version":
        from . import __version__

        info = {"binding": __version__, "library": _native.lib.jump_version().decode("utf-8"),
                "abi": int(_native.lib.jump_abi_version()), "library_path": _native.library_path}
        _emit(info, as_json, f"jump {info['binding']} (libjump {info['library']}, ABI {info['abi']}, "
                             f"{info['library_path']})", stdout)
        return
    config = _load_config(args.config)
    if args.command == "sign-in":
        password = _read_password(stdin)  # before the client exists: nothing to undo when it fails
        with Client(config) as client:
            result = client.sign_in(args.email, password)
        _emit(result, as_json, f"signed in: {result.get('uuid')}", stdout)
    elif args.command == "sign-out":
        with Client(config) as client:
            client.sign_out()
        _emit({"signed_out": True}, as_json, "signed out", stdout)
    elif args.command == "state":
        with Client(config) as client:
            state = client.state
        if as_json:
            _emit(state, True, "", stdout)
        else:
            stdout.write(json.dumps(state, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
    else:  # pragma: no cover - argparse refuses unknown commands
        raise local_error(InvalidArgument, f"unknown command {args.command}")


def main(argv: Optional[Sequence[str]] = None, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command line; returns the exit status (``python -m jump`` passes it to sys.exit)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help (0) or a usage error (2); argparse already printed why
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    command: str = args.command
    try:
        _run(args, stdin, stdout)
        return 0
    except JumpError as err:
        lines: List[str] = [f"{PROG} {command}: {err}"]
        if args.json:
            lines.append(json.dumps({"status": err.status, "status_name": err.status_name, **err.detail,
                                     "message": err.message}, ensure_ascii=False, separators=(",", ":")))
        stderr.write("\n".join(line.replace("\n", " ") for line in lines) + "\n")
        return exit_code(err)
    except KeyboardInterrupt:
        stderr.write(f"{PROG} {command}: interrupted\n")
        return EXIT_INTERRUPTED
