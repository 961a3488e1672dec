"""Extension points: pluggy hookspecs (``hookspecs``) and the plugin manager (``manager``).

Built-in importers and preflight checks register through the same hooks as third-party ones.
"""
