"""The default redaction rules: the key denylist and the credential shapes found inside strings.

Each string rule is a regular expression with the lowercase literals one of which must occur
(after casefold) for it to match: ``Redactor`` and the importer's prefilter look for those
first, so a string without any of them costs one pass of ``in`` checks. A named group
``secret`` (or ``secret2``, ``secret3`` …) limits the replacement to that part of the match.

Covered (docs/security.md lists them with examples):

- assignments ``NAME=value``, ``NAME: value``, ``"name": "value"``, ``--name=value`` (also
  ``:=``, ``=>``; quoted values up to the closing quote) where NAME has a component
  SECRET, TOKEN, PASSWORD, PASSWD, PWD, PASSPHRASE, CREDENTIAL(S), APIKEY, or KEY in an
  upper-case name or after a qualifier (``api_key``, ``secretKey``, ``AWS_SECRET_ACCESS_KEY``),
  unless its last component says it is metadata (``TOKEN_COUNT``, ``password_length``,
  ``secret_name``…) or the value is a reference (``$VAR``, ``${…}``, ``os.environ…``, null);
- URLs with credentials (``scheme://user:pass@host``), ``curl -u user:pass``;
- ``Authorization:`` headers (Basic, Bearer, Token, Digest …) and any ``Bearer <token>``;
- private key blocks (``-----BEGIN … PRIVATE KEY[ BLOCK]-----``, its base64 lines and END; a
  cut block only as far as its base64 goes);
- provider key shapes: AWS access key ids (AKIA long-term, ASIA temporary), OpenAI/Anthropic ``sk-``,
  GitHub ``ghp_ gho_ ghu_ ghs_ ghr_ github_pat_``, GitLab ``glpat-``, Slack ``xox?-`` and
  webhooks, Google ``AIza`` and ``ya29.``, Stripe ``sk_live_ rk_live_ sk_test_``, Hugging Face
  ``hf_``, npm ``npm_``, PyPI ``pypi-``, SendGrid ``SG.``, DigitalOcean ``dop_v1_``, JSON Web
  Tokens (``eyJ….eyJ….…``).

Only the secret is replaced, never the shell syntax around it (the audit judges the redacted
text): a value stops at ``; & | < > ( )``, a backquote, ``$(``, ``${`` or ``$NAME``; a token
or a spaced value that names a file (``./x``, ``oracle.json``) is no secret.
"""

from __future__ import annotations

DEFAULT_DENYLIST = (
    "api_key",
    "apikey",
    "access_key",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "passphrase",
    "token",
    "access_token",
    "refresh_token",
    "auth_token",
    "authorization",
    "cookie",
    "set_cookie",
    "private_key",
    "credential",
    "credentials",
    "session_key",
)

#: Speed: every branch of the name starts with a plain letter and then the rest of its word (a
#: lookahead), so the engine passes over, in C, every position that cannot start one; the
#: component boundary (and the qualifier before ``key``) is checked only where the word is.
#: not at a component start: a letter after a letter or digit, unless camelCase (``apiToken``)
_START = r"(?<![A-Za-z0-9][a-z]|[A-Z][A-Z])"


def _word(first: str, rest: str) -> str:
    return rf"[{first}{first.upper()}](?=(?i:{rest})){_START}(?i:{rest})"


#: a component that makes an assignment's value a secret (any case)
_SENSITIVE = "|".join(
    (_word("s", "ecret"), _word("t", "oken"), _word("p", "assw(?:or)?d|wd|assphrase"), _word("c", "redentials?"))
)
#: ``key`` counts in an upper-case name (``SECRET_KEY``, ``STRIPE_KEY``) or right after a qualifier
_QUALIFIERS = (
    "api", "access", "secret", "private", "signing", "encryption", "master", "client", "license", "account",
    "service", "app", "consumer", "session", "auth", "admin", "root", "deploy", "openai", "anthropic", "stripe",
    "aws", "gcp", "azure", "ssh", "gpg", "pgp",
)  # fmt: skip


def _after_qualifier() -> str:
    """One fixed-width lookbehind per qualifier length, with and without a separator."""
    by_length: dict[int, list[str]] = {}
    for qualifier in _QUALIFIERS:
        by_length.setdefault(len(qualifier), []).append(qualifier)
    looks = []
    for _, group in sorted(by_length.items()):
        looks += [f"(?<=(?:{'|'.join(group)})k)", f"(?<=(?:{'|'.join(group)})[_.-]k)"]
    return "|".join(looks)


_KEY = rf"K(?=EY)(?<![A-Za-z0-9]K)EY|[kK](?=[eE][yY])(?<=[A-Za-z_.-][kK])(?i:{_after_qualifier()})(?i:ey)"
#: last components that make the name a fact about a secret, not the secret
_METADATA = (
    r"(?i:count|len|length|size|name|names|type|id|ids|path|file|url|uri|endpoint|expiry|expires|ttl|header"
    r"|prefix|field|env|var|min|max|hint|policy|format|dir|kind|limit|mode|enabled|required|rotation|usage)"
)
#: at most ``_PARTS`` components after the sensitive word: an unbounded chain made every
#: ``token_`` of ``token_token_…`` scan to the end (quadratic); 8 is past any real name
_PARTS = 8
_NAME = rf"(?:{_SENSITIVE}|{_KEY})(?:[_.-](?!{_METADATA}(?![A-Za-z0-9]))[A-Za-z0-9]++){{0,{_PARTS}}}+"
#: the same, unbounded, as earlier versions wrote it into run.json (``EARLIER``; see ``linear``)
_NAME_UNBOUNDED = rf"(?:{_SENSITIVE}|{_KEY})(?:[_.-](?!{_METADATA}(?![A-Za-z0-9]))[A-Za-z0-9]+)*"
#: values that are references or placeholders, not secrets
_NOT_A_VALUE = (
    r"(?!(?:None|null|nil|true|false|undefined|True|False)(?![A-Za-z0-9_]))"
    r"(?!os\.environ|os\.getenv|getenv\(|process\.env|ENV\[|\$|%\(|\{\{|<redacted |<hashed )"
)
#: A value never spans shell syntax, so the audit still sees what ran (``--password=x&&cat
#: <oracle.json``): it stops at an operator, a redirection, a backquote or an expansion (``$(``,
#: ``${``, ``$NAME``; ``$$`` is kept, passwords hold it).
_DOLLAR = r"\$\$|\$(?![A-Za-z0-9_{(@*#?!-])"
_BARE = rf"(?:[^\s\"'`,;<>&|()$]|{_DOLLAR})"
_IN_DOUBLE = rf"(?:[^\"\n`;<>&|()$]|{_DOLLAR})"
_IN_SINGLE = rf"(?:[^'\n`;<>&|()$]|{_DOLLAR})"
#: a word that names a file is not a secret: ``./x``, ``/x``, ``~/x``, ``a/../x``, ``oracle.json``,
#: ``test/testmod.jsonl`` (``cat token: oracle.json`` reads the file)
_FILE_NAME = r"(?:[A-Za-z0-9_-]*/)*[A-Za-z0-9_-]+\.[A-Za-z][A-Za-z0-9]{0,4}"
#: after the operator: spaces, unless the word after them names a file (``cat token: oracle.json``)
_SPACED = rf"(?:[ \t]+(?!{_FILE_NAME}(?!{_BARE})))?"
#: a value that starts a path (``./x``, ``/x``, ``~/x``) or climbs one (``a/../x``) is no secret
#: (unbounded: only in the token rules earlier versions stored)
_NOT_A_PATH = rf"(?![./~])(?!{_BARE}*?/\.)"
#: the same for an assignment's bare value, looking 256 characters ahead at most: a scan to the
#: word's end at every ``password=`` of ``password=password=…`` was quadratic. ``Redactor``
#: keeps a longer value that climbs a path (``/.`` in it) as it is: the same rule, linear.
_NOT_A_PATH_NEAR = rf"(?![./~])(?!{_BARE}{{0,256}}?/\.)"
ASSIGNMENT = (
    rf"{_NAME}[\"']?[ \t]*(?::=|=>|=|:){_SPACED}{_NOT_A_VALUE}"
    rf"(?:\"(?!\s)(?P<secret>{_IN_DOUBLE}{{4,}})|'(?!\s)(?P<secret2>{_IN_SINGLE}{{4,}})"
    rf"|{_NOT_A_PATH_NEAR}(?P<secret3>{_BARE}{{4,}}))"
)
_TOKEN_CHAR = "[A-Za-z0-9._~+/=-]"


def _token(least: int) -> str:
    """A bearer or authorization token: token68 characters, no file name, no trailing ``/``.
    The not-a-path look stays inside the token and 256 characters ahead (over every
    non-blank character, ``authorization:`` x N was quadratic); ``Redactor`` keeps a longer
    token that climbs a path (``/.``) as it keeps an assignment's bare value (group ``secret3``)."""
    return (
        rf"(?![./~])(?!{_TOKEN_CHAR}{{0,256}}?/\.)(?!{_FILE_NAME}(?!{_TOKEN_CHAR}))"
        rf"(?P<secret3>{_TOKEN_CHAR}{{{least},}}(?<!/))(?!{_TOKEN_CHAR})"
    )


def _token_unbounded(least: int) -> str:
    """``_token`` as earlier versions wrote it into run.json (see ``linear``)."""
    return (
        rf"{_NOT_A_PATH}(?!{_FILE_NAME}(?!{_TOKEN_CHAR}))(?P<secret>{_TOKEN_CHAR}{{{least},}}(?<!/))(?!{_TOKEN_CHAR})"
    )


_AUTHORIZATION = (
    r"(?i)authorization[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest|negotiate)\s+)?"
    r"(?!(?:basic|bearer|token|digest|negotiate)\s)"
)
#: a URL scheme of at most 64 characters: unbounded, every ``a`` of ``a-a-a-…://`` scanned to the end
_SCHEME = r"\b[A-Za-z][A-Za-z0-9+.-]{0,63}://"
_SCHEME_UNBOUNDED = r"\b[A-Za-z][A-Za-z0-9+.-]*://"
_USERINFO = rf"(?:[^\s\"'`;<>&|()$@/]|{_DOLLAR})"
#: a private key block: base64 lines (and PEM/PGP headers) up to END; when it is cut, only the
#: base64 that follows, never a word that is not (``-----BEGIN … KEY-----; cat oracle.json``).
#: On one line (a flattened key) a chunk has 16 characters or more.
_NL = r"(?:\r?\n|\\r\\n|\\n)"
_LINES = rf"(?:[ \t]*{_NL})+[ \t]*"
_KEY_HEADER = r"(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[ \t]*[A-Za-z0-9 ,.:/+=_-]*"
PRIVATE_KEY = (
    rf"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----(?:{_LINES}{_KEY_HEADER})*"
    rf"(?:{_LINES}[A-Za-z0-9+/=]+|[ \t]+[A-Za-z0-9+/=]{{16,}})*"
    rf"(?:(?:[ \t]|{_NL})*-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----)?"
)

#: (pattern, trigger literals) in the order they are applied
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (PRIVATE_KEY, ("-----begin",)),
    (r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}", ("sk-",)),
    (r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", ("sk_live_", "rk_live_", "sk_test_", "rk_test_")),
    (r"\bgh[pousr]_[A-Za-z0-9]{30,}", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (r"\bgithub_pat_[A-Za-z0-9_]{30,}", ("github_pat_",)),
    (r"\bglpat-[A-Za-z0-9_-]{20,}", ("glpat-",)),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}", ("xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-")),
    (r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}", ("hooks.slack.com",)),
    (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", ("akia", "asia")),  # access key ids (AIDA, AROA … name users, roles)
    (r"\bAIza[0-9A-Za-z_-]{35}", ("aiza",)),
    (r"\bya29\.[0-9A-Za-z_-]{20,}", ("ya29.",)),
    (r"\bhf_[A-Za-z0-9]{30,}", ("hf_",)),
    (r"\bnpm_[A-Za-z0-9]{36}\b", ("npm_",)),
    (r"\bpypi-[A-Za-z0-9_-]{50,}", ("pypi-",)),
    (r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", ("sg.",)),
    (r"\bdop_v1_[a-f0-9]{64}\b", ("dop_v1_",)),
    (r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", ("eyj",)),
    (rf"\bBearer\s+{_token(8)}", ("bearer",)),
    (rf"{_SCHEME}[^/\s:@]+:(?P<secret>{_USERINFO}+)@", ("://",)),
    (rf"(?:^|\s)(?:-u|--user)\s+[\"']?[^\s:\"']+:(?P<secret>{_USERINFO}+)", ("-u",)),
    (_AUTHORIZATION + _token(4), ("authorization",)),
    (ASSIGNMENT, ("secret", "token", "passw", "pwd", "passphrase", "credential", "key")),
)
DEFAULT_PATTERNS = tuple(pattern for pattern, _ in RULES)

#: the default rules of earlier versions, still recorded in runs opened with them: their
#: literals keep those runs on the fast path
EARLIER: tuple[tuple[str, tuple[str, ...]], ...] = (
    # before values stopped at shell syntax (a cheat hid behind them)
    (
        r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        ("-----begin",),
    ),
    (r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})", ("bearer",)),
    (r"\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:(?P<secret>[^@\s/]+)@", ("://",)),
    (r"(?:^|\s)(?:-u|--user)\s+[\"']?[^\s:\"']+:(?P<secret>[^\s\"']+)", ("-u",)),
    (_AUTHORIZATION + r"(?P<secret>[^\s\"',;<>]{4,})", ("authorization",)),
    (
        rf"{_NAME_UNBOUNDED}[\"']?[ \t]*(?::=|=>|=|:)[ \t]*{_NOT_A_VALUE}"
        r"(?:\"(?P<secret>[^\"\n]{4,})\"|'(?P<secret2>[^'\n]{4,})'|(?P<secret3>[^\s\"',;<>]{4,}))",
        ("secret", "token", "passw", "pwd", "passphrase", "credential", "key"),
    ),
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----", ("-----begin",)),
    (r"\bAKIA[0-9A-Z]{16}\b", ("akia",)),
    (
        r"(?i)authorization[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token)\s+)?(?P<secret>[^\s\"',;<>]{4,})",
        ("authorization",),
    ),
    (
        r"(?i)(?:api[_-]?key|secret|token|passw(?:or)?d|credentials?)[\"']?\s*[:=]\s*[\"']?(?P<secret>[^\s\"',;<>]{4,})",
        ("api", "secret", "token", "passw", "credential"),
    ),
)
TRIGGERS = {**dict(EARLIER), **dict(RULES)}


def linear(pattern: str) -> str:
    """A stored pattern with the unbounded pieces earlier versions wrote (``_NAME_UNBOUNDED``,
    ``_SCHEME_UNBOUNDED``, ``_token_unbounded``) bounded: the same secrets in real text, linear time on hostile text.
    Runs keep the patterns they were opened with; the redactor compiles them through this."""
    for least in (4, 8):  # the two token rules: Authorization (4), Bearer (8)
        pattern = pattern.replace(_token_unbounded(least), _token(least))
    return pattern.replace(_NAME_UNBOUNDED, _NAME).replace(_SCHEME_UNBOUNDED, _SCHEME)
