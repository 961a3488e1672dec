"""Fixtures of the quality tests."""

from bundle_helpers import cli  # noqa: F401
