"""``python -m tablee``: the command line."""

from tablee.cli.main import main

raise SystemExit(main())
