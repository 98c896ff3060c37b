"""Fill untranslated French catalog entries from a JSON dict given on stdin (dev helper).

Usage: python scripts/fill_fr.py < translations.json, then scripts/i18n.sh to compile.
Prints the msgids still untranslated.
"""

import json
import sys

from babel.messages.pofile import read_po, write_po

PATH = "src/tablee/locale/fr/LC_MESSAGES/tablee.po"
fr = json.load(sys.stdin)
with open(PATH, "rb") as f:
    catalog = read_po(f)
for message in catalog:
    if message.id and not message.string and isinstance(message.id, str) and message.id in fr:
        message.string = fr[message.id]
with open(PATH, "wb") as f:
    write_po(f, catalog, width=100, sort_output=True, no_location=True)
for message in catalog:
    if message.id and (
        not message.string or (isinstance(message.string, tuple) and not all(message.string))
    ):
        print(repr(message.id))
