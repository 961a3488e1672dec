"""The pytest plugin: translates audits and preflight checks into test items (outer layer)."""
