"""This server as one host of several: what a load balancer and an operator ask of it.

  GET  /healthz                         200 while the server holds its tables' leases
                                        (it renewed them within the lease time), else 503:
                                        a load balancer's health check (HAProxy's
                                        ``option httpchk``) sends no table here then
  GET  /api/host                        the host's name, its tables and what its leases went
                                        through (taken, released, lost, writes refused)

With ``serve --workers N`` each request reaches one worker (in turn): its own answer.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from knockabout.server.app_state import Server

router = APIRouter()


@router.get("/healthz")
async def healthz(server: Server) -> JSONResponse:
    ownership = server.manager.ownership
    body = {"ok": ownership.healthy, "holder": ownership.holder}
    return JSONResponse(body, status_code=200 if ownership.healthy else 503)


@router.get("/api/host")
async def host(server: Server) -> dict[str, Any]:
    return server.manager.ownership.info()
