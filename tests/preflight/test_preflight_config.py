"""Harness config: version 1 and 2, --set overrides, credential refusal, validation."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_coldstart.preflight.config import apply_override, credential_fields, from_document, load_config
from pytest_coldstart.run.errors import UsageError

REPO = Path(__file__).resolve().parents[2]


def test_reference_config_loads_as_version_1_with_every_value_kept() -> None:
    path = REPO / "examples/harness-pi.json"  # the reference implementation's config, shipped as is
    raw = json.loads(path.read_text())
    config = load_config(path)
    assert config.source_version == 1
    assert config.values["schemaVersion"] == 2 and "schema" not in config.values
    for key in ("name", "command", "model", "provider", "session_env", "shell", "fetch_urls"):
        assert config.values[key] == raw[key]
    assert config.get("build.min_java") == 25
    assert config.get("lab.ports") == {"game": 27192, "rcon": 27193}
    assert config.get("lab.start") is True and config.get("timeouts.smoke_total") == 300
    # The reference's lab manager provisions with its own flags.
    assert config.get("lab.provision_args")[-3:] == ["--void", "--fabric-api", "--carpet"]
    assert config.sha256 is not None and config.size == len(path.read_bytes())


def test_the_shipped_reference_config_is_the_corpus_one(shared_dir: Path) -> None:
    pi = REPO / "examples/harness-pi.json"
    assert pi.read_bytes() == (shared_dir / "corpus/real/examples-coldstart/harness-pi.json").read_bytes()


def test_shipped_examples_load() -> None:
    assert load_config(REPO / "examples/harness-pi.json").source_version == 1
    local = load_config(REPO / "examples/harness-local.json")
    assert local.source_version == 2 and local.get("name") == "local-python"


def test_an_unmarked_config_is_version_1_and_a_future_one_fails_closed() -> None:
    assert from_document({"name": "x"}).source_version == 1
    with pytest.raises(UsageError, match="schemaVersion 3"):
        from_document({"schemaVersion": 3, "name": "x"})
    with pytest.raises(UsageError, match="mc-agent-harness-config/9"):
        from_document({"schema": "mc-agent-harness-config/9", "name": "x"})


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"{not json", "malformed JSON"),
        (b"[1, 2]", "must be a JSON object"),
        (b'{"schemaVersion": 2, "ports": {"api": "27190"}}', "$.ports.api: expected integer, got string"),
        (b'{"schemaVersion": 2, "shell": "bash --version"}', "$.shell: expected array, got string"),
        (b'{"schemaVersion": 2, "lab": {"wait": -1}}', "$.lab.wait"),
    ],
)
def test_bad_files_are_one_line_usage_errors_naming_the_file(tmp_path: Path, text: bytes, problem: str) -> None:
    path = tmp_path / "harness.json"
    path.write_bytes(text)
    with pytest.raises(UsageError) as caught:
        load_config(path)
    line = caught.value.one_line()
    assert line.startswith(str(path)) and problem in line and "\n" not in line


def test_a_missing_config_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot be read"):
        load_config(tmp_path / "absent.json")


# -- --set ------------------------------------------------------------------------------------


def test_set_parses_json_and_keeps_raw_strings() -> None:
    config = from_document(
        {"schemaVersion": 2, "name": "x"},
        [
            "build.java=C:\\jdk-25\\bin\\java.exe",
            "build.min_java=21",
            "lab.start=true",
            'fetch_urls=["http://a"]',
            'model="7"',
        ],
    )
    assert config.get("build.java") == "C:\\jdk-25\\bin\\java.exe"
    assert config.get("build.min_java") == 21 and config.get("lab.start") is True
    assert config.get("fetch_urls") == ["http://a"] and config.get("model") == "7"
    assert [o["key"] for o in config.overrides] == ["build.java", "build.min_java", "lab.start", "fetch_urls", "model"]
    assert config.describe()["overrides"][1] == {"key": "build.min_java", "value": 21}


def test_set_creates_missing_sections_and_indexes_lists() -> None:
    config = from_document(
        {"schemaVersion": 2}, ["extra.section.flag=1", "ports.range=[27190,27199]", "ports.range.1=27198"]
    )
    assert config.get("extra.section.flag") == 1
    assert config.get("ports.range") == [27190, 27198]


@pytest.mark.parametrize(
    ("override", "problem"),
    [
        ("build.java.path=/x", "build.java is a string, not an object"),
        ("name.first=x", "name is a string, not an object"),
        ("ports.range.0.low=1", "it is a number, not an object"),
        ("ports.range.5=1", "index 5 is past the end"),
        ("ports.range.x=1", "'x' is not an index"),
        ("build.java", "expected KEY=VALUE"),
        ("=x", "empty segment"),
        ("build..java=x", "empty segment"),
        ("schemaVersion=3", "version cannot be overridden"),
    ],
)
def test_set_errors_are_clear(override: str, problem: str) -> None:
    with pytest.raises(UsageError) as caught:
        from_document({"schemaVersion": 2, "name": "n", "build": {"java": "j"}, "ports": {"range": [1, 2]}}, [override])
    assert problem in caught.value.one_line() and override.split("=")[0] in caught.value.one_line()


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(string.printable, max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    value=_json,
    keys=st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=6), min_size=1, max_size=3).filter(
        lambda k: k[0] != "schema"
    ),
)
def test_set_of_a_json_encoded_value_sets_exactly_that_value(value, keys) -> None:
    values: dict = {}
    applied = apply_override(values, ".".join(keys) + "=" + json.dumps(value))
    node = values
    for key in keys:
        node = node[key]
    assert node == value and applied["value"] == value


# -- credentials ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [
        {"api_key": "sk-123"},
        {"apiKey": "sk-123"},
        {"bridge": {"auth_token": "abc"}},
        {"lab": {"rcon_password": "hunter2"}},
        {"extra": [{"Secret": "x"}]},
        {"key": "abc"},
    ],
)
def test_credential_fields_are_refused_with_their_name(document: dict) -> None:
    with pytest.raises(UsageError, match="looks like a credential") as caught:
        from_document({"schemaVersion": 2, **document})
    assert "hunter2" not in caught.value.one_line() and "sk-123" not in caught.value.one_line()


def test_whole_word_matching_keeps_innocent_fields() -> None:
    document = {
        "keyboard": "us",
        "monkey": 1,
        "turkey_count": 2,
        "keys_pressed": 3,
        "token_env": "MY_TOKEN",
        "api_key": "",
    }
    assert credential_fields(document) == []
    assert from_document({"schemaVersion": 2, **document}).get("keyboard") == "us"


def test_a_field_named_like_an_env_var_holder_must_name_a_variable() -> None:
    assert credential_fields({"token_env": "sk live value"}) == ["token_env"]


def test_set_cannot_smuggle_a_credential_in() -> None:
    with pytest.raises(UsageError, match="lab.rcon_password"):
        from_document({"schemaVersion": 2}, ["lab.rcon_password=hunter2"])


def test_empty_name_loads_but_is_recorded_as_empty() -> None:
    # Loading never invents a name ("unnamed" in the reference): harness_identity fails it.
    assert from_document({"schemaVersion": 2, "name": ""}).get("name") == ""
    assert from_document({"schemaVersion": 2}).get("name") == ""
