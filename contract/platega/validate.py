"""Checks recorded exchanges with the Platega emulator against Platega's API as its typed SDK
models it (aioplatega, the pinned version in requirements.txt). Usage: python validate.py FILE

FILE holds a JSON list of exchanges, each {"gateway": "platega", "kind": K, "params": {...},
"body": {...}, "status": N, "response": {...}} with K one of:
  create    a `POST /transaction/process`: the body is checked with `CreateTransaction`, the
            answer with `CreateTransactionResponse`;
  status    a `GET /transaction/{id}`: the answer is checked with `TransactionStatusResponse`;
  callback  a callback the emulator posted: the body is checked with `CallbackPayload`.
aioplatega's models allow unknown keys, so every key is also looked up in its model: a
misspelt field is an error here. Exit code 0 when everything conforms, 1 with the findings.
"""

import json
import sys
import typing
from importlib.metadata import version

from pydantic import BaseModel, TypeAdapter, ValidationError

from aioplatega.methods import CreateTransaction
from aioplatega.types import CallbackPayload, CreateTransactionResponse, TransactionStatusResponse

CHECKED = {
    "create": (CreateTransaction, CreateTransactionResponse),
    "status": (None, TransactionStatusResponse),
    "callback": (CallbackPayload, None),
}


def unknown_keys(tp, value, path=""):
    """Keys of `value` that the model `tp` does not declare, as dotted paths."""
    for arm in typing.get_args(tp) or (tp,):
        if isinstance(arm, type) and issubclass(arm, BaseModel) and isinstance(value, dict):
            declared = {(f.alias or name): f.annotation for name, f in arm.model_fields.items()}
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
    findings.extend(f"{what}: {key} is not in Platega's API" for key in unknown_keys(tp, value))
    return findings


def main():
    exchanges = json.load(open(sys.argv[1], encoding="utf-8"))
    findings = []
    for n, ex in enumerate(exchanges):
        if ex.get("gateway") != "platega" or ex.get("kind") not in CHECKED:
            findings.append(f"#{n}: not a Platega exchange: {ex.get('gateway')} {ex.get('kind')}")
            continue
        request, answer = CHECKED[ex["kind"]]
        if request is not None:
            findings += check(request, ex["body"], f"#{n} {ex['kind']} body")
        if answer is not None and ex["status"] == 200:
            findings += check(answer, ex["response"], f"#{n} {ex['kind']} answer")
    print(f"aioplatega {version('aioplatega')}: {len(exchanges)} exchanges checked")
    for f in findings:
        print(f)
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
