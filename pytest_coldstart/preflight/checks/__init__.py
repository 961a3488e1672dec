"""The built-in preflight checks, one concern per module (``base`` holds the shared types)."""
