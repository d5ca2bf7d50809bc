"""Checks recorded exchanges with the Telegram Bot API emulator against the Bot API's typed
models in aiogram (the pinned version in requirements.txt). Usage: python validate.py FILE

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
import types as pytypes
import typing
from importlib.metadata import version

from pydantic import BaseModel, TypeAdapter, ValidationError

import aiogram.methods as methods
from aiogram.methods.base import Response
from aiogram.types import Update

METHODS = {
    cls.__api_method__: cls
    for cls in (getattr(methods, name) for name in dir(methods))
    if isinstance(cls, type) and isinstance(getattr(cls, "__api_method__", None), str)
}


def fits(tp, value):
    try:
        TypeAdapter(tp).validate_python(value)
        return True
    except (ValidationError, TypeError, Exception):  # an arm that cannot even be built
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


def check(tp, value, what):
    findings = []
    try:
        TypeAdapter(tp).validate_python(value)
    except ValidationError as e:
        findings.append(f"{what}: {e}")
    findings.extend(f"{what}: {key} is not in the Bot API" for key in unknown_keys(tp, value))
    return findings


def main():
    exchanges = json.load(open(sys.argv[1], encoding="utf-8"))
    findings = []
    calls = posts = 0
    for n, ex in enumerate(exchanges):
        if ex["kind"] == "post":
            posts += 1
            findings += check(Update, ex["update"], f"#{n} webhook post")
            continue
        calls += 1
        method = METHODS.get(ex["method"])
        if method is None:
            findings.append(f"#{n}: {ex['method']} is not a Bot API method")
            continue
        findings += check(method, ex["request"], f"#{n} {ex['method']} request")
        envelope = Response[method.__returning__]
        findings += check(envelope, ex["response"], f"#{n} {ex['method']} answer ({ex['status']})")
        if (ex["status"] == 200) != (ex["response"].get("ok") is True):
            findings.append(f"#{n} {ex['method']}: status {ex['status']} with ok={ex['response'].get('ok')}")
    print(f"aiogram {version('aiogram')}: {calls} calls and {posts} webhook posts checked")
    for f in findings:
        print(f)
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
