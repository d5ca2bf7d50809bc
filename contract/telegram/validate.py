"""Checks recorded exchanges with the Telegram Bot API emulator against the Bot API's typed
models in aiogram (the pinned version in requirements.txt). Usage: python validate.py FILE
(or --serve SOCKET: see sdk_models.run)

FILE holds a JSON list of exchanges, each one of:
  {"kind": "call", "method": "sendMessage", "request": {...}, "status": 200, "response": {...}}
      a call a bot made: the request body is checked with the method's model
      (aiogram.methods.<Method>), the answer with aiogram's Response envelope around the
      method's returning type;
  {"kind": "post", "update": {...}}
      an update the emulator posted to a webhook: checked with aiogram.types.Update.
aiogram's models accept unknown keys silently, so every key is also looked up in the model it
belongs to: a misspelt field is an error here. Exit code 0 when everything conforms, 1 with
the findings otherwise.
"""

import json
import sys
from pathlib import Path
from importlib.metadata import version


import aiogram.methods as methods
from aiogram.methods.base import Response
from aiogram.types import Update

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sdk_models import check, report, run  # noqa: E402  (the shared checks, one folder up)

API = "the Bot API"

METHODS = {
    cls.__api_method__: cls
    for cls in (getattr(methods, name) for name in dir(methods))
    if isinstance(cls, type) and isinstance(getattr(cls, "__api_method__", None), str)
}


def main(file):
    exchanges = json.load(open(file, encoding="utf-8"))
    findings = []
    calls = posts = 0
    for n, ex in enumerate(exchanges):
        if ex["kind"] == "post":
            posts += 1
            findings += check(Update, ex["update"], f"#{n} webhook post", API)
            continue
        calls += 1
        method = METHODS.get(ex["method"])
        if method is None:
            findings.append(f"#{n}: {ex['method']} is not a Bot API method")
            continue
        findings += check(method, ex["request"], f"#{n} {ex['method']} request", API)
        envelope = Response[method.__returning__]
        findings += check(envelope, ex["response"], f"#{n} {ex['method']} answer ({ex['status']})", API)
        if (ex["status"] == 200) != (ex["response"].get("ok") is True):
            findings.append(f"#{n} {ex['method']}: status {ex['status']} with ok={ex['response'].get('ok')}")
    report(f"aiogram {version('aiogram')}: {calls} calls and {posts} webhook posts checked", findings)


if __name__ == "__main__":
    run(sys.argv[1:], main)
