"""Structural validation of a run (layer 3): ``validate_run`` and the ``Findings`` it reports.

``run`` orchestrates, ``files`` checks hashed files, ``trajectory`` streams the record checks,
``findings`` holds the finding model and the documented codes.
"""
