"""Checks recorded exchanges with the Platega emulator against Platega's API as its typed SDK
models it (aioplatega, the pinned version in requirements.txt). Usage: python validate.py FILE
(or --serve SOCKET: see sdk_models.run)

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
from pathlib import Path
from importlib.metadata import version

from aioplatega.methods import CreateTransaction
from aioplatega.types import CallbackPayload, CreateTransactionResponse, TransactionStatusResponse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sdk_models import check, report, run  # noqa: E402  (the shared checks, one folder up)

API = "Platega's API"

CHECKED = {
    "create": (CreateTransaction, CreateTransactionResponse),
    "status": (None, TransactionStatusResponse),
    "callback": (CallbackPayload, None),
}


def main(file):
    exchanges = json.load(open(file, encoding="utf-8"))
    findings = []
    for n, ex in enumerate(exchanges):
        if ex.get("gateway") != "platega" or ex.get("kind") not in CHECKED:
            findings.append(f"#{n}: not a Platega exchange: {ex.get('gateway')} {ex.get('kind')}")
            continue
        request, answer = CHECKED[ex["kind"]]
        if request is not None:
            findings += check(request, ex["body"], f"#{n} {ex['kind']} body", API)
        if answer is not None and ex["status"] == 200:
            findings += check(answer, ex["response"], f"#{n} {ex['kind']} answer", API)
    report(f"aioplatega {version('aioplatega')}: {len(exchanges)} exchanges checked", findings)


if __name__ == "__main__":
    run(sys.argv[1:], main)
