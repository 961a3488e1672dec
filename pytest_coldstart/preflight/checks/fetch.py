"""source_fetch: every configured source/dependency endpoint answers (plus optional pip probes)."""

from __future__ import annotations

import ipaddress
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from pytest_coldstart._version import __version__
from pytest_coldstart.preflight.checks.base import CheckResult
from pytest_coldstart.preflight.context import Context
from pytest_coldstart.run.hashing import sha256_bytes

USER_AGENT = f"pytest-coldstart-preflight/{__version__} (+https://github.com/guajun/mc-agent coldstart protocol)"
MAX_BODY = 1 << 20


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def fetch(url: str, timeout: float) -> dict[str, Any]:
    """GET ``url`` (http/https only), reading at most MAX_BODY bytes. Never raises."""
    result: dict[str, Any] = {"kind": "http", "url": url, "status": None}
    try:
        parsed = urllib.parse.urlsplit(url)
        host = parsed.hostname
    except ValueError:  # e.g. an unclosed IPv6 bracket
        parsed, host = None, None
    if parsed is None or parsed.scheme not in ("http", "https") or not host:
        result["error"] = "not an http(s) URL"
        return result
    # Loopback never goes through a proxy; everything else honours the environment's proxies.
    handlers = [urllib.request.ProxyHandler({})] if _is_loopback(host) else []
    opener = urllib.request.build_opener(*handlers)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    started = time.monotonic()
    try:
        with opener.open(request, timeout=timeout) as response:
            body = response.read(MAX_BODY + 1)
            result.update(status=response.status, final_url=response.geturl())
    except urllib.error.HTTPError as exc:
        result.update(status=exc.code, error=f"HTTP {exc.code} {exc.reason}")
        body = b""
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        result["error"] = f"{type(exc).__name__}: {reason}"
        body = b""
    result.update(
        bytes=min(len(body), MAX_BODY),
        truncated=len(body) > MAX_BODY,
        sha256=sha256_bytes(body[:MAX_BODY]),
        seconds=round(time.monotonic() - started, 3),
    )
    return result


class SourceFetch:
    id = "source_fetch"
    proves = "every configured source/dependency endpoint answers HTTP 200 (and build.pip_packages download)"

    def run(self, context: Context) -> CheckResult:
        urls = list(context.config.get("fetch_urls") or [])
        packages = list(context.config.get("build.pip_packages") or [])
        if not urls and not packages:
            return CheckResult.failed(
                "no fetch URLs configured (fetch_urls is empty): nothing shows the agent can fetch sources"
            )
        evidence: list[dict[str, Any]] = []
        failures: list[str] = []
        for number, url in enumerate(urls, 1):
            outcome = fetch(url, context.config.timeout("fetch"))
            lines = [f"GET {url}", f"User-Agent: {USER_AGENT}"]
            lines += [f"{key}: {value}" for key, value in outcome.items() if key not in ("kind", "url")]
            transcript = context.probes.transcript(self.id, f"http-{number}", "\n".join(lines))
            evidence.append({**outcome, "transcript": transcript["path"], "transcript_sha256": transcript["sha256"]})
            if outcome["status"] != 200:
                failures.append(f"{url}: {outcome.get('error') or 'HTTP ' + str(outcome['status'])}")
        for package in packages:
            dest = context.workdir("pip")
            argv = [sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(dest), package]
            run = context.command(self.id, f"pip-{package}", argv, timeout=context.config.timeout("pip"))
            evidence.append(run.evidence)
            if not run.ok:
                failures.append(f"pip download {package}: {run.describe()}")
        total = len(urls) + len(packages)
        detail = f"{total - len(failures)}/{total} source/dependency endpoint(s) reachable"
        if failures:
            return CheckResult.failed(f"{detail}; failed: {'; '.join(failures)}", evidence, endpoints=total)
        return CheckResult.passed(detail, evidence, endpoints=total)
