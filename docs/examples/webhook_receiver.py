"""A SignDesk webhook receiver in Python 3.8+ (standard library and `cryptography` for Ed25519).

It checks every event's Content-Digest, its RFC 9421 Ed25519 signature and its expiry, handles
each event once (by its Webhook-Id), answers 200 when it has, and 400 when the request does not
verify.

    pip install cryptography
    SIGNDESK_KEY_ID=ed25519-1 python3 webhook_receiver.py

Environment: SIGNDESK_KEY_ID (the consumer's key_id), SIGNDESK_PUBLIC_KEY_FILE (its public_key
saved as PEM; default ./signdesk-public-key.pem), PORT (default 4242). Events go to POST /webhooks.
"""
import base64
import hashlib
import json
import os
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.serialization import load_pem_public_key

PORT = int(os.environ.get("PORT", "4242"))
KEY_ID = os.environ.get("SIGNDESK_KEY_ID", "ed25519-1")
with open(os.environ.get("SIGNDESK_PUBLIC_KEY_FILE", "signdesk-public-key.pem"), "rb") as key_file:
    PUBLIC_KEY = load_pem_public_key(key_file.read())
COVERED = ["@method", "@path", "host", "date", "content-digest"]
CLOCK_SKEW_S = 60
handled = set()  # Webhook-Id values already handled: keep them in your database

SIGNATURE_INPUT = re.compile(r'(?:^|,)\s*sig1=(\(([^)]*)\)((?:;[a-z]+=(?:"[^"]*"|\d+))*))')
PARAMETER = re.compile(r';([a-z]+)=("[^"]*"|\d+)')


def parse_signature_input(header):
    """The sig1 member of Signature-Input: its component names, its parameters and its exact text."""
    match = SIGNATURE_INPUT.search(header or "")
    if not match:
        return None
    components = re.findall(r'"([^"]*)"', match.group(2))
    params = {name: value[1:-1] if value.startswith('"') else int(value) for name, value in PARAMETER.findall(match.group(3))}
    return components, params, match.group(1)


def check_request(method, path, headers, body):
    """Why the request does not verify, or None when it does."""
    digest = re.search(r"sha-256=:([A-Za-z0-9+/=]+):", headers.get("Content-Digest", ""))
    if not digest or digest.group(1) != base64.b64encode(hashlib.sha256(body).digest()).decode():
        return "Content-Digest does not match the body"
    parsed = parse_signature_input(headers.get("Signature-Input"))
    if not parsed:
        return "no sig1 in Signature-Input"
    components, params, params_text = parsed
    if not all(name in components for name in COVERED):
        return "the signature does not cover every required component"
    if params.get("keyid") != KEY_ID or params.get("alg") != "ed25519":
        return "unknown key or algorithm"
    now = int(time.time())
    if not isinstance(params.get("expires"), int) or params["expires"] <= now:
        return "the signature has expired"
    if not isinstance(params.get("created"), int) or params["created"] > now + CLOCK_SKEW_S:
        return "the signature was made in the future"
    signature = re.search(r"(?:^|,)\s*sig1=:([A-Za-z0-9+/=]+):", headers.get("Signature", ""))
    if not signature:
        return "no sig1 in Signature"
    # The signature base of RFC 9421 section 2.5: one line per covered component, then the parameters.
    values = {"@method": method, "@path": urlsplit(path).path}
    lines = ['"%s": %s' % (name, values.get(name, headers.get(name, "")).strip()) for name in components]
    lines.append('"@signature-params": ' + params_text)
    try:
        PUBLIC_KEY.verify(base64.b64decode(signature.group(1)), "\n".join(lines).encode())
    except InvalidSignature:
        return "the signature does not verify"
    return None


def handle_event(event, webhook_id):
    """Your work goes here; it runs once per event."""
    print(json.dumps({"webhookId": webhook_id, "type": event["type"], "timestamp": event["timestamp"], "data": event["data"]}), flush=True)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        problem = check_request(self.command, self.path, self.headers, body)
        if problem:
            print("refused: " + problem, file=sys.stderr, flush=True)
            self.answer(400, problem)
            return
        webhook_id = self.headers.get("Webhook-Id")
        if webhook_id is None or webhook_id not in handled:
            handle_event(json.loads(body), webhook_id)
            if webhook_id is not None:
                handled.add(webhook_id)
        self.answer(200, "ok")

    def answer(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", PORT), Receiver)
    print("listening on http://127.0.0.1:%d/webhooks" % server.server_port, file=sys.stderr, flush=True)
    server.serve_forever()
