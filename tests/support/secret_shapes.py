"""Credential shapes the default redaction rules must remove (issue 16.4), and ordinary text
they must leave alone. Each shape: (label, text as an agent or tool would write it, the
secret part that must reach no file)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

SHAPES: list[tuple[str, str, str]] = [
    (
        "env AWS_SECRET_ACCESS_KEY",
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYzq1",
        "wJalrXUtnFEMIK7MDENGbPxRfiCYzq1",
    ),
    (
        "config aws_secret_access_key",
        "aws_secret_access_key = Zm9vYmFyYmF6cXV4c2VjcmV0a2V5",
        "Zm9vYmFyYmF6cXV4c2VjcmV0a2V5",
    ),
    ("SECRET_KEY", "SECRET_KEY=django-insecure-7h1s1s4s3cr3t", "django-insecure-7h1s1s4s3cr3t"),
    ("quoted password", 'db_password: "correct horse battery staple"', "correct horse battery staple"),
    ("single-quoted token", "GITLAB_TOKEN='tok-9f8e7d6c5b4a'", "tok-9f8e7d6c5b4a"),
    ("camelCase apiKey", '{"config": "apiKey: kq82nd7sla0vmx"}', "kq82nd7sla0vmx"),
    ("flag --password", "mysql --password=Sup3rS3cretPw! -h db", "Sup3rS3cretPw!"),
    ("CREDENTIALS", "GOOGLE_CREDENTIALS=ya-cred-0a1b2c3d4e", "ya-cred-0a1b2c3d4e"),
    ("PASSWD", "PASSWD=n0t-in-any-dictionary", "n0t-in-any-dictionary"),
    ("STRIPE_KEY", "STRIPE_KEY=live-merchant-key-3344", "live-merchant-key-3344"),
    ("url credentials", "git clone https://deploy:gh-url-pass-5566@git.example.com/x.git", "gh-url-pass-5566"),
    ("postgres url", "postgres://admin:pg-pass-7788@db.internal:5432/app", "pg-pass-7788"),
    ("bearer header", "curl -H 'Authorization: Bearer eyBearerTok.998877.zz'", "eyBearerTok.998877.zz"),
    ("basic header", "Authorization: Basic YWxpY2U6c2VjcmV0cGFzcw==", "YWxpY2U6c2VjcmV0cGFzcw=="),
    (
        "private key block",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nAAAAB3NzaC1yc2EAAAADAQAB\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
    ),
    ("cut private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAcutoffbody", "MIIEpAIBAAKCAQEAcutoffbody"),
    ("AWS AKIA id", "key id AKIAQWERTYUIOPASDFGH in use", "AKIAQWERTYUIOPASDFGH"),
    ("AWS ASIA id", "temporary ASIAZXCVBNMLKJHGFDSA", "ASIAZXCVBNMLKJHGFDSA"),
    ("OpenAI sk-", "client = OpenAI(key=sk-proj-R4nd0mK3yV4lu3Xyz12345)", "sk-proj-R4nd0mK3yV4lu3Xyz12345"),
    ("Anthropic sk-ant-", "using sk-ant-api03-Abcdefghijklmnopqrstuv", "sk-ant-api03-Abcdefghijklmnopqrstuv"),
    ("GitHub ghp_", "pushed with ghp_0123456789abcdefghijABCDEFGHIJklmnop", "ghp_0123456789abcdefghijABCDEFGHIJklmnop"),
    ("GitHub gho_", "oauth gho_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210", "gho_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210"),
    (
        "github_pat_",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    ),
    ("Slack xoxb-", "slack xoxb-1234567890-0987654321-AbCdEfGhIj", "xoxb-1234567890-0987654321-AbCdEfGhIj"),
    ("Google AIza", "maps AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
    ("Stripe sk_live_", "charge with sk_live_51H8abcdEFGHijklMNOPqrst", "sk_live_51H8abcdEFGHijklMNOPqrst"),
    ("GitLab glpat-", "glpat-xY12zW34vU56tS78rQ90", "glpat-xY12zW34vU56tS78rQ90"),
    ("Hugging Face hf_", "HF hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
]

#: ordinary text that must survive unchanged
ORDINARY: list[str] = [
    "keyboard layout and the key point",
    "monkey = 3",
    "MONKEY=banana KEYBOARD=qwerty SECRETARY=bob TOKENIZER=gpt2",
    "max_tokens: 4096, token count: 1234, TOKEN_COUNT=1234",
    "password_length = 12; password reset flow",
    "sort_key = name; cache_key: 3f2a9c1b4d5e6f70",
    "sha256 3f2a9c1b4d5e6f708192a3b4c5d6e7f83f2a9c1b4d5e6f708192a3b4c5d6e7f8",
    "TOKEN=$GITHUB_TOKEN; password: ${DB_PASSWORD}; api_key = os.environ['X']; token: null",
    "the Asian market and an akimbo pose",
]


def forms(secret: str) -> list[bytes]:
    """How a secret could sit in a file: raw and JSON-escaped."""
    return [secret.encode(), json.dumps(secret, ensure_ascii=True)[1:-1].encode(), json.dumps(secret)[1:-1].encode()]


def leaks(root: Path, secrets: list[str]) -> list[str]:
    """'<secret> in <file>' for every secret found in any file below root (gzip opened too)."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data += gzip.decompress(data)
        for secret in secrets:
            if any(form in data for form in forms(secret)):
                found.append(f"{secret} in {path.relative_to(root)}")
    return found
