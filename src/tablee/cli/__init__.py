"""The command line (``tablee``): argument parsing and rendering only, no rules.

Entry point: `tablee.cli.main.main`. Source: README.md (the commands); docs/architecture.md,
"Layers".
"""

__all__: list[str] = []
