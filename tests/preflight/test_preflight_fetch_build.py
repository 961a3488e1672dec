"""source_fetch against a real loopback HTTP server; build_install with the installed JDK."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest
from preflight_helpers import entry, free_ports, write_script

from pytest_coldstart.preflight.checks.build import parse_major
from pytest_coldstart.run.hashing import sha256_bytes, sha256_file


def test_source_fetch_passes_on_http_200_and_records_the_body_hash(base_config: dict, preflight, http_server) -> None:
    base, agents = http_server
    result = entry(
        preflight({**base_config, "fetch_urls": [f"{base}/ok/a", f"{base}/ok/b"]}, checks=["source_fetch"]).document,
        "source_fetch",
    )
    assert result["status"] == "PASS" and result["detail"] == "2/2 source/dependency endpoint(s) reachable"
    first = result["evidence"][0]
    assert first["status"] == 200 and first["sha256"] == sha256_bytes(b'{"versions": ["0.1"]}') and first["bytes"] == 21
    assert agents and agents[0].startswith("pytest-coldstart-preflight/")


def test_one_failing_endpoint_fails_source_fetch(base_config: dict, preflight, http_server) -> None:
    base, _ = http_server
    (closed,) = free_ports(1)
    urls = [f"{base}/ok", f"{base}/missing", f"http://127.0.0.1:{closed}/x", "file:///etc/passwd", "http://[::1/broken"]
    result = entry(preflight({**base_config, "fetch_urls": urls}, checks=["source_fetch"]).document, "source_fetch")
    assert result["status"] == "FAIL" and result["detail"].startswith("1/5 source/dependency endpoint(s) reachable")
    assert f"{base}/missing: HTTP 404" in result["detail"]
    assert f"127.0.0.1:{closed}/x: URLError" in result["detail"]
    assert "file:///etc/passwd: not an http(s) URL" in result["detail"]
    assert "http://[::1/broken: not an http(s) URL" in result["detail"]


def test_source_fetch_without_endpoints_fails_clearly(base_config: dict, preflight) -> None:
    result = entry(preflight(base_config, checks=["source_fetch"]).document, "source_fetch")
    assert result["status"] == "FAIL" and "no fetch URLs configured" in result["detail"]


# -- build_install ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "major"),
    [("javac 17.0.15", 17), ("javac 1.8.0_392", 8), ("javac 25-ea", 25), ("javac 25.0.3\n", 25), ("java 17", None)],
)
def test_javac_versions_parse(text: str, major: int | None) -> None:
    assert parse_major(text) == major


def test_build_install_with_the_real_jdk_on_path(base_config: dict, preflight) -> None:
    outcome = preflight({**base_config, "build": {"min_java": 11}}, checks=["build_install"])
    result = entry(outcome.document, "build_install")
    assert result["status"] == "PASS", result["detail"]
    versions = result["versions"]
    assert versions["java_origin"] == "PATH" and versions["javac_major"] >= 11
    out = outcome.report_path.parent
    built, installed = out / "build/coldstart-probe.jar", out / "build/install/coldstart-probe.jar"
    assert sha256_file(built)[0] == sha256_file(installed)[0] == versions["jar_sha256"] == versions["installed_sha256"]
    assert "ColdstartProbe.class" in zipfile.ZipFile(installed).namelist()
    steps = [e.get("step") for e in result["evidence"] if e["kind"] == "command"]
    assert steps == ["javac-version", "javac", "jar", "run-installed"]


def test_a_jdk_below_min_java_fails_on_purpose(base_config: dict, preflight) -> None:
    result = entry(
        preflight({**base_config, "build": {"min_java": 99}}, checks=["build_install"]).document, "build_install"
    )
    assert result["status"] == "FAIL" and result["detail"].startswith("no JDK >= 99 found")
    assert "PATH" in result["detail"] and "javac" in result["detail"]


def old_jdk(tmp_path: Path) -> Path:
    """A fake JDK 11: its javac only reports its version (real process, older version)."""
    return write_script(tmp_path / "jdk-11/bin/javac", "#!/bin/sh\necho 'javac 11.0.2' >&2\n")


def test_a_pinned_old_jdk_fails_even_when_path_has_a_newer_one(tmp_path: Path, base_config: dict, preflight) -> None:
    javac = old_jdk(tmp_path)
    result = entry(
        preflight({**base_config, "build": {"java": str(javac), "min_java": 17}}, checks=["build_install"]).document,
        "build_install",
    )
    assert result["status"] == "FAIL"
    assert result["detail"] == f"no JDK >= 17 found (build.java {javac}: javac 11)"


def test_coldstart_java_too_old_falls_back_to_path(tmp_path: Path, base_config: dict, preflight) -> None:
    javac = old_jdk(tmp_path)
    environ = {**os.environ, "COLDSTART_JAVA": str(javac.parent.parent)}  # a JDK home
    result = entry(
        preflight({**base_config, "build": {"min_java": 17}}, checks=["build_install"], environ=environ).document,
        "build_install",
    )
    assert result["status"] == "PASS", result["detail"]
    assert result["versions"]["java_origin"] == "PATH"
    assert result["versions"]["candidates"][0] == f"$COLDSTART_JAVA {javac}: javac 11"


def test_build_java_may_name_the_java_launcher_of_a_real_jdk(base_config: dict, preflight) -> None:
    java = Path(os.path.realpath(shutil.which("javac"))).with_name("java")
    result = entry(
        preflight({**base_config, "build": {"java": str(java), "min_java": 11}}, checks=["build_install"]).document,
        "build_install",
    )
    assert result["status"] == "PASS", result["detail"]
    assert result["versions"]["java_origin"] == "build.java" and result["versions"]["java"] == str(
        java.with_name("javac")
    )


def test_no_jdk_at_all_fails(tmp_path: Path, base_config: dict, preflight) -> None:
    result = entry(
        preflight(base_config, checks=["build_install"], environ={"PATH": str(tmp_path)}).document, "build_install"
    )
    assert result["status"] == "FAIL" and "PATH javac: no javac found" in result["detail"]
