"""The messages of the standard library's argparse, listed so that they get translated.

`tablee.cli.main` routes argparse's own texts ("usage:", "required"...) through Tablée's
catalogs; this list makes ``pybabel extract`` put them in the catalogs. Python 3.11 to 3.13.

Source: French and English for everything a player reads (docs/architecture.md, "i18n").
"""

from tablee.errors import N_

__all__ = ["ARGPARSE_MESSAGES"]

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
)
