"""Probes for a service manager or a load balancer: ``/healthz`` and ``/readyz``.

* ``GET /healthz``: the process serves requests (200, ``{"status": "ok"}``); it reads
  nothing, so a database outage does not make a supervisor restart every process;
* ``GET /readyz``: the store answers a trivial query (one preference read) within
  `READY_TIMEOUT` seconds: 200 ``{"status": "ready"}``, else 503 ``{"status":
  "unavailable"}``, so that a load balancer sends players to another process meanwhile.

Both answer JSON, never a trace or the database's address.

Source: docs/hosting.md, "Health and readiness".
"""

from __future__ import annotations

import asyncio

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from tablee.web.common import SECRET_KEY, WebTable

__all__ = ["READY_TIMEOUT", "add_health_routes"]

READY_TIMEOUT = 2.0
"""Seconds the store has to answer ``/readyz``."""


def add_health_routes(app: FastAPI, table: WebTable) -> None:
    """Add ``/healthz`` and ``/readyz`` (see the module docstring)."""

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        headers = {"Cache-Control": "no-store"}
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                await table.run(lambda: table.store.get_preference(SECRET_KEY))
        except Exception:  # any failure or a timeout: not ready, and nothing more is said
            return JSONResponse({"status": "unavailable"}, status_code=503, headers=headers)
        return JSONResponse({"status": "ready"}, headers=headers)
