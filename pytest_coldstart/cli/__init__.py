"""The ``coldstart`` command line: a thin translation layer over the core.

Each command group lives in its own module exposing ``register(subparsers)``; handlers import
the core lazily so that ``coldstart trace call`` starts fast (harnesses run it per tool call).
"""
