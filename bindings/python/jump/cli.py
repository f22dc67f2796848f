"""``python -m jump``: a small command line over the binding, for scripts and for a quick look at a session.

::

    python -m jump version
    python -m jump status     [--storage DIR] [--config FILE]        # "state" is the same command
    python -m jump sign-in    [--storage DIR] [--config FILE] --email EMAIL   # the password: prompted, or stdin
    python -m jump sign-out   [--storage DIR] [--config FILE]
    python -m jump record get PATH        [--storage DIR] [--config FILE]
    python -m jump record set PATH JSON   [--storage DIR] [--config FILE]     # a local edit, saved
    python -m jump record sync            [--storage DIR] [--config FILE]     # sends the saved edits
    python -m jump providers  [--storage DIR] [--config FILE]        # needs the Engage keys in the config

Every command works on the session saved in a storage directory, so one command sees what another left:
``sign-in`` saves the session, ``record set`` journals an edit there, ``record sync`` sends it, ``status``
shows it, ``sign-out`` erases it. ``--config FILE`` is a JSON object of config keys (as ``jump.Client``
takes; default: ``$JUMP_CONFIG``, else the library's defaults); ``--storage DIR`` sets its
``storageDirectory`` (default: the config's, else ``$XDG_DATA_HOME/jump``). The password is never taken from
the command line (other users could read it in the process list): it is prompted for on a terminal, else
read as the first line of stdin.

``--json`` (before or after the command) prints results as one line of JSON on stdout and, on failure, the
error's JSON detail (``jump_error_last()``) as a second line on stderr, after the one-line message. Without
it, ``status`` and ``providers`` print indented JSON and ``record get`` prints a string as is, any other
value as JSON.

Exit status: 0 on success; on a libjump failure the status code negated (1 invalid argument, 3 network,
4 timeout, 5 server, 6 not signed in, 7 bad credentials, 11 not found, ... as in include/jump.h); 2 for a
usage error (argparse's convention; the CLI never holds a freed handle, so JUMP_E_INVALID_HANDLE does not
occur); 125 when libjump itself cannot be loaded; 130 when interrupted.
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

# As invoked: the console script `jump` (pip installs it), or `python -m jump`.
PROG = "jump" if os.path.basename(sys.argv[0]) == "jump" else "python -m jump"
#: argparse exits with 2 on a usage error; kept (see the module docstring).
EXIT_USAGE = 2
#: libjump.so could not be found or loaded (not a jump_status: no libjump to ask); outside 1..19 and 2.
EXIT_NO_LIBRARY = 125
EXIT_INTERRUPTED = 130


def exit_code(error: JumpError) -> int:
    """The process exit status for a libjump failure: its status negated (1..255), else 1."""
    return -error.status if -255 <= error.status < 0 else 1


def _parser() -> argparse.ArgumentParser:
    # --json, --config and --storage are accepted before the command and after it: the subparsers' copies
    # default to SUPPRESS so that they do not overwrite a value given before the command.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="machine-readable output: one JSON line (errors: the detail on stderr)")
    session = argparse.ArgumentParser(add_help=False)
    session.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                         help="JSON object of config keys (default: $JUMP_CONFIG, else the defaults)")
    session.add_argument("--storage", metavar="DIR", default=argparse.SUPPRESS,
                         help="the session's storage directory (the storageDirectory config key)")
    both = [common, session]

    parser = argparse.ArgumentParser(prog=PROG, description="libjump from the command line: the session saved "
                                     "in a storage directory.")
    parser.add_argument("--json", action="store_true", default=False, help=argparse.SUPPRESS)
    parser.add_argument("--config", metavar="FILE", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--storage", metavar="DIR", default=None, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    commands.add_parser("version", parents=[common], help="the library's and the binding's versions")
    commands.add_parser("status", aliases=["state"], parents=both, help="the saved session's state")
    sign_in = commands.add_parser("sign-in", parents=both,
                                  help="sign in with an email and a password (prompted, or read from stdin)")
    sign_in.add_argument("--email", required=True, help="the email (or user name) to sign in with")
    commands.add_parser("sign-out", parents=both, help="sign out and erase the saved session")
    record = commands.add_parser("record", help="read, edit and sync the signed-in user's record")
    actions = record.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    get = actions.add_parser("get", parents=both, help="print the value at PATH")
    get.add_argument("path", metavar="PATH", help='a record path: "/aboutMe", "/primaryAddress/city", "/"')
    set_ = actions.add_parser("set", parents=both, help="set the value at PATH (saved; sent by record sync)")
    set_.add_argument("path", metavar="PATH", help="a record path")
    set_.add_argument("value", metavar="JSON", help='the value as JSON: \'"Hello"\', 42, null, {"city": "Lyon"}')
    actions.add_parser("sync", parents=both, help="send the saved edits to the server")
    commands.add_parser("providers", parents=both, help="the social sign-in and sharing providers (Engage)")
    return parser


def _load_config(path: Optional[str], storage: Optional[str]) -> Dict[str, Any]:
    path = path or os.environ.get("JUMP_CONFIG") or None
    config: Dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, encoding="utf-8") as f:
                loaded = json.load(f)
        except OSError as exc:
            raise local_error(InvalidArgument, f"cannot read the config file {path}: {exc.strerror or exc}",
                              argument="config") from None
        except ValueError as exc:
            raise local_error(InvalidArgument, f"the config file {path} is not JSON: {exc}",
                              argument="config") from None
        if not isinstance(loaded, dict):
            raise local_error(InvalidArgument, f"the config file {path} must hold a JSON object", argument="config")
        config = loaded
    if storage is not None:
        config["storageDirectory"] = storage
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


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise local_error(InvalidArgument, f"the value must be JSON (quote a string: '\"{text}\"')",
                          argument="value") from None


def _dumps(value: Any, indent: Optional[int] = None) -> str:
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=True)


def _emit(value: Any, as_json: bool, text: str, stdout: TextIO) -> None:
    stdout.write((_dumps(value) if as_json else text) + "\n")


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> None:
    as_json: bool = args.json
    command: str = args.command
    if command == "version":
        from . import __version__

        info = {"binding": __version__, "library": _native.lib.jump_version().decode("utf-8"),
                "abi": int(_native.lib.jump_abi_version()), "library_path": _native.library_path}
        _emit(info, as_json, f"jump {info['binding']} (libjump {info['library']}, ABI {info['abi']}, "
                             f"{info['library_path']})", stdout)
        return
    config = _load_config(args.config, args.storage)
    if command == "sign-in":
        password = _read_password(stdin)  # before the client exists: nothing to undo when it fails
        with Client(config) as client:
            result = client.sign_in(args.email, password)
        _emit(result, as_json, f"signed in: {result.get('uuid')}", stdout)
    elif command == "sign-out":
        with Client(config) as client:
            client.sign_out()
        _emit({"signed_out": True}, as_json, "signed out", stdout)
    elif command in ("status", "state"):
        with Client(config) as client:
            state = client.state
        _emit(state, as_json, _dumps(state, indent=2), stdout)
    elif command == "providers":
        with Client(config) as client:
            providers = client.providers()
        _emit(providers, as_json, _dumps(providers, indent=2), stdout)
    elif command == "record":
        _record(args, config, as_json, stdout)
    else:  # pragma: no cover - argparse refuses unknown commands
        raise local_error(InvalidArgument, f"unknown command {command}")


def _record(args: argparse.Namespace, config: Dict[str, Any], as_json: bool, stdout: TextIO) -> None:
    action: str = args.action
    value = _json_value(args.value) if action == "set" else None  # a bad value fails before anything runs
    with Client(config) as client:
        if action == "sync":
            result = client.sync()
            _emit(result, as_json, f"synced: {', '.join(result['changed']) or 'nothing to send'} "
                                   f"({result['requests']} request(s))", stdout)
            return
        with client.record as record:
            if action == "get":
                got = record.get(args.path)
                _emit(got, as_json, got if isinstance(got, str) else _dumps(got, indent=2), stdout)
            else:  # set: journaled in the storage directory before libjump answers, sent by `record sync`
                record.set(args.path, value)
                changed = record.changes()["changed"]
                _emit({"path": args.path, "unsynced": changed}, as_json,
                      f"set {args.path} (unsynced: {', '.join(changed)}; send with: {PROG} record sync)", stdout)


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
    command = " ".join(filter(None, [args.command, getattr(args, "action", None)]))
    try:
        _run(args, stdin, stdout)
        return 0
    except JumpError as err:
        lines: List[str] = [f"{PROG} {command}: {err}"]
        if args.json:
            lines.append(_dumps({"status": err.status, "status_name": err.status_name, **err.detail,
                                 "message": err.message}))
        stderr.write("\n".join(line.replace("\n", " ") for line in lines) + "\n")
        return exit_code(err)
    except ImportError as err:  # libjump.so not found or not loadable (it is loaded on first use)
        stderr.write(f"{PROG} {command}: {err}\n")
        return EXIT_NO_LIBRARY
    except KeyboardInterrupt:
        stderr.write(f"{PROG} {command}: interrupted\n")
        return EXIT_INTERRUPTED
