"""The live web table: FastAPI routes, Jinja2 templates, htmx pages, Server-Sent Events.

`create_app` builds the application on an open event store; ``tablee serve`` runs it with
Uvicorn. The web layer holds no rules: every action calls a system's ``decide_*`` function
through `tablee.table.TableService`, like the command line. One module per game system in
`tablee.web.systems` says which forms, odds and resources that system shows.

Source: docs/web.md.
"""

from tablee.web.app import Settings, create_app
from tablee.web.common import server_secret
from tablee.web.joining import is_loopback_url
from tablee.web.metrics import MULTIPROC_ENV, serve_metrics

__all__ = [
    "MULTIPROC_ENV",
    "Settings",
    "create_app",
    "is_loopback_url",
    "serve_metrics",
    "server_secret",
]
