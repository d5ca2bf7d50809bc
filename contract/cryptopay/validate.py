"""Checks recorded exchanges with the Crypto Pay emulator against the Crypto Pay API as its most
used typed SDK models it (aiocryptopay, the pinned version in requirements.txt). Usage:
python validate.py FILE (or --serve SOCKET: see sdk_models.run)

FILE holds a JSON list of exchanges, each {"gateway": "cryptopay", "kind": K, "params": {...},
"body": {...}, "status": N, "response": {...}} with K one of:
  createInvoice, getInvoices, getMe
           a call: its parameters are checked against the SDK method's (names, and the values
           of its enumerations), the answer's `result` with the SDK's model (`Invoice`, a page
           of them, `Profile`);
  webhook  an update the emulator posted: the body is checked with `Update`, and its signature
           (`params.signature`, under `params.token`) with the SDK's own `check_signature`.
Exit code 0 when everything conforms, 1 with the findings.
"""

import inspect
import json
import sys
import warnings
from pathlib import Path
from importlib.metadata import version

from pydantic import BaseModel, ValidationError

from aiocryptopay import AioCryptoPay
from aiocryptopay.const import Assets, CurrencyType, Fiat, InvoiceStatus
from aiocryptopay.models.invoice import Invoice
from aiocryptopay.models.profile import Profile
from aiocryptopay.models.update import Update

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sdk_models import report, run  # noqa: E402  (the shared checks, one folder up)

METHODS = {
    "createInvoice": AioCryptoPay.create_invoice,
    "getInvoices": AioCryptoPay.get_invoices,
    "getMe": AioCryptoPay.get_me,
}

ENUMS = {
    "currency_type": CurrencyType.__members__.values(),
    "fiat": Fiat.__members__.values(),
    "asset": Assets.__members__.values(),
    "status": InvoiceStatus.__members__.values(),
}


def unknown_keys(model, value, path=""):
    declared = {(f.alias or name) for name, f in model.model_fields.items()}
    return [path + key for key in value if key not in declared]


def check_model(model, value, what):
    findings = []
    try:
        model(**value)
    except (ValidationError, TypeError) as e:
        findings.append(f"{what}: {e}")
    if isinstance(value, dict):
        findings.extend(f"{what}: {key} is not in the Crypto Pay API" for key in unknown_keys(model, value))
    return findings


def check_params(method, params, what):
    findings = []
    names = set(inspect.signature(METHODS[method]).parameters) - {"self"}
    for key, value in params.items():
        if key not in names:
            findings.append(f"{what}: parameter {key} is not the SDK's")
            continue
        if key in ENUMS and value not in [e.value for e in ENUMS[key]]:
            findings.append(f"{what}: {key}={value!r} is not one of the SDK's values")
        if key == "accepted_assets":
            assets = [e.value for e in Assets]
            findings.extend(f"{what}: asset {a!r} is unknown" for a in str(value).split(",") if a not in assets)
        if key == "amount":
            try:
                float(value)
            except ValueError:
                findings.append(f"{what}: amount {value!r} is not a number")
        if key == "expires_in" and not (str(value).isdigit() and 1 <= int(value) <= 2678400):
            findings.append(f"{what}: expires_in {value!r} is not 1 to 2678400 seconds")
        if key == "payload" and len(str(value).encode()) > 4096:
            findings.append(f"{what}: payload is over 4 kB")
    if method == "createInvoice" and params.get("currency_type") == "fiat" and "fiat" not in params:
        findings.append(f"{what}: a fiat invoice names its fiat")
    return findings


def check_answer(method, response, what):
    if response.get("ok") is not True:
        error = response.get("error") or {}
        if not isinstance(error.get("code"), int) or not isinstance(error.get("name"), str):
            return [f"{what}: an error answer without the API's error object: {response}"]
        return []
    result = response.get("result")
    if method == "createInvoice":
        return check_model(Invoice, result, what)
    if method == "getInvoices":
        items = (result or {}).get("items")
        if not isinstance(items, list):
            return [f"{what}: getInvoices' result has no items"]
        return [f for i, item in enumerate(items) for f in check_model(Invoice, item, f"{what} item {i}")]
    return check_model(Profile, result, what)


def main(file):
    exchanges = json.load(open(file, encoding="utf-8"))
    findings = []
    for n, ex in enumerate(exchanges):
        kind = ex.get("kind")
        what = f"#{n} {kind}"
        if ex.get("gateway") != "cryptopay":
            findings.append(f"#{n}: not a Crypto Pay exchange")
        elif kind == "webhook":
            body = ex["body"]
            findings += check_model(Update, body, what)
            if body.get("update_type") != "invoice_paid":
                findings.append(f"{what}: update_type {body.get('update_type')!r} is not invoice_paid")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sdk = AioCryptoPay(token=ex["params"]["token"])
            if not sdk.check_signature(ex["params"]["raw"], ex["params"]["signature"]):
                findings.append(f"{what}: the signature is not what the SDK computes")
        elif kind in METHODS:
            findings += check_params(kind, ex["params"], f"{what} parameters")
            findings += check_answer(kind, ex["response"], f"{what} answer")
        else:
            findings.append(f"{what}: not a Crypto Pay API method")
    report(f"aiocryptopay {version('aiocryptopay')}: {len(exchanges)} exchanges checked", findings)


if __name__ == "__main__":
    run(sys.argv[1:], main)
