"""The command line (``tablee``): argument parsing and rendering only, no rules.

Entry point: `tablee.cli.main.main`. Source: issue 2 point 5.
"""

__all__: list[str] = []
