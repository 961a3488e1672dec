"""Folders a container engine hands a container whole (audit/evidence/containers.py)."""

from __future__ import annotations

import pytest

from pytest_coldstart.audit.evidence.containers import mounted


@pytest.mark.parametrize(
    "command, folder",
    [
        ("docker build .", "."),
        ("docker build -t x -f w/Dockerfile .", "."),
        ("docker buildx build --progress plain ctx", "ctx"),
        ("podman run --rm -v $PWD:/w alpine ls", "."),
        ("docker run -v $(pwd)/test:/t img", "./test"),
        ("docker run --volume=.:/w img", "."),
        ("nerdctl run --mount type=bind,source=${PWD},target=/w img", "."),
    ],
)
def test_a_container_gets_the_folder_whole(command: str, folder: str) -> None:
    words = command.split()
    assert (folder, "*", True) in list(mounted(words, words[0]))


@pytest.mark.parametrize("command", ["docker ps", "docker run --rm alpine echo hi", "docker images", "docker"])
def test_no_folder_is_handed_over(command: str) -> None:
    words = command.split()
    assert list(mounted(words, words[0])) == []
