"""What the Python contract checks (telegram/, platega/, cryptopay/ validate.py) share: a value
checked against an SDK's pydantic model, every key also looked up in the model it belongs to (the
SDKs' models accept unknown keys silently, so a misspelt field would pass), and the report.
Each validate.py puts this folder on sys.path and runs in its own virtualenv, whose SDK brings
pydantic.
"""

import sys
import types as pytypes
import typing

from pydantic import BaseModel, TypeAdapter, ValidationError


def fits(tp, value):
    try:
        TypeAdapter(tp).validate_python(value)
        return True
    except Exception:  # a ValidationError, or an arm that cannot even be built
        return False


def unknown_keys(tp, value, path=""):
    """Keys of `value` that the type `tp` does not declare, as dotted paths."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, pytypes.UnionType):
        found = None
        for arm in typing.get_args(tp):
            if arm is type(None) or not fits(arm, value):
                continue
            keys = unknown_keys(arm, value, path)
            if found is None or len(keys) < len(found):
                found = keys
        return found or []
    if origin is list and isinstance(value, list):
        (inner,) = typing.get_args(tp)
        return [k for i, v in enumerate(value) for k in unknown_keys(inner, v, f"{path}{i}.")]
    if isinstance(tp, type) and issubclass(tp, BaseModel) and isinstance(value, dict):
        declared = {(f.alias or name): f.annotation for name, f in tp.model_fields.items()}
        out = []
        for key, item in value.items():
            if key not in declared:
                out.append(path + key)
            else:
                out.extend(unknown_keys(declared[key], item, f"{path}{key}."))
        return out
    return []


def check(tp, value, what, api):
    """Findings of `value` against `tp`: validation errors, and keys not in `api`."""
    findings = []
    try:
        TypeAdapter(tp).validate_python(value)
    except ValidationError as e:
        findings.append(f"{what}: {e}")
    findings.extend(f"{what}: {key} is not in {api}" for key in unknown_keys(tp, value))
    return findings


def report(summary, findings):
    """Prints what was checked and each finding; exits 1 when there is any."""
    print(summary)
    for f in findings:
        print(f)
    sys.exit(1 if findings else 0)


def run(args, check_file):
    """The command line of a validate.py: `FILE` checks one file of exchanges; `--serve SOCKET`
    answers checks over a Unix socket until killed, one a connection: the client sends a file's
    path and a newline, the answer is `ok` or `findings`, a newline, then the report. A test run
    starts one server a contract (`cargo xtask test`), so the SDK's models are built once, not at
    every check (aiogram alone takes seconds to import)."""
    if len(args) == 2 and args[0] == "--serve":
        serve(args[1], check_file)
    elif len(args) == 1:
        check_file(args[0])
    else:
        sys.exit("usage: validate.py FILE | validate.py --serve SOCKET")


def serve(path, check_file):
    import contextlib
    import io
    import os
    import socketserver

    class Check(socketserver.StreamRequestHandler):
        def handle(self):
            file = self.rfile.readline().decode("utf-8").strip()
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                try:
                    check_file(file)
                    code = 0
                except SystemExit as done:  # report() ends a check with its exit code
                    code = done.code
                except Exception as e:  # a file that cannot be read is a finding, not a crash
                    print(f"the check of {file} failed: {e!r}")
                    code = 1
            verdict = "ok" if code == 0 else "findings"
            self.wfile.write(f"{verdict}\n{out.getvalue()}".encode("utf-8"))

    if os.path.exists(path):
        os.unlink(path)
    with socketserver.UnixStreamServer(path, Check) as server:
        server.serve_forever()
