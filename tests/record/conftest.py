"""Every validate finding code a test here makes must be documented."""

from bundle_helpers import cli  # noqa: F401
from documented_findings import findings_are_documented  # noqa: F401
