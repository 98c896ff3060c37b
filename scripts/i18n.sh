#!/usr/bin/env bash
# Refresh the message catalogs: extract from the sources, update fr and en, compile .mo.
# Usage: scripts/i18n.sh   (then translate the new entries of src/tablee/locale/fr/LC_MESSAGES/tablee.po
# and run it again to compile).
set -euo pipefail
cd "$(dirname "$0")/.."
pot=$(mktemp --suffix=.pot)
pybabel extract -F babel.cfg -k N_ -k tr -k ntr:1,2 -k Plural:1,2 --no-location --sort-output \
  --project=tablee -o "$pot" src
for lang in fr en; do
  po=src/tablee/locale/$lang/LC_MESSAGES/tablee.po
  if [ -f "$po" ]; then
    pybabel update -N --no-fuzzy-matching --ignore-obsolete -D tablee -i "$pot" -d src/tablee/locale -l "$lang"
  else
    pybabel init -D tablee -i "$pot" -d src/tablee/locale -l "$lang"
  fi
done
pybabel compile -D tablee -d src/tablee/locale
rm -f "$pot"
