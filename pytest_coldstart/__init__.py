"""pytest-coldstart: auditable AI-agent runs.

The core (everything outside ``cli`` and ``pytest_plugin``) never imports pytest.
"""

__version__ = "0.1.0"
