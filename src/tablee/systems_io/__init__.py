"""Reading a system's content from files and package data, for the command line and the web.

The rules core (`tablee.systems`) does no I/O: it parses text handed to it. The readers here
open a group's files and the starter content shipped with Tablée, check their size and
encoding, and give the text to the system's parser. They sit beside `tablee.table`, below the
command line and the web table, which both use them (checked by import-linter).

Source: docs/architecture.md, "Layers".
"""

__all__: list[str] = []
