"""Stored runs and reports as read-only resources, `finsearch://runs/{run_id}` and
`finsearch://reports/{report_id}`: the JSON `ask --json` and `report --json` print, opened by the
app's privacy rules (`service.records.stored`) for the caller's owner. Another's record is
"not found", as one that never was: an id reveals nothing about whose it is."""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from ..errors import StoreUnavailable
from ..service.records import stored
from ..settings import Settings
from ..store import open_store
from ..store.runs import RecordKind
from .callers import Callers
from .tools import as_text

RUNS = "finsearch://runs/{run_id}"
REPORTS = "finsearch://reports/{report_id}"


class Records:
    def __init__(self, settings: Settings, callers: Callers):
        self.store = open_store(settings)
        self.callers = callers

    def register(self, server: MCPServer) -> None:
        @server.resource(RUNS, name="run", title="A stored answer", mime_type="application/json",
                         description="A finished run by its id (the run_id `ask` returns): the question, how it "
                                     "was read, the search graph with its evidence, the cited answer, the audit.")
        async def run(run_id: str, ctx: Context) -> str:
            return await self.read("run", run_id, ctx)

        @server.resource(REPORTS, name="report", title="A stored research report", mime_type="application/json",
                         description="A finished research report by its id (the report_id `research_report` "
                                     "returns): its outline, markdown, references and audit.")
        async def report(report_id: str, ctx: Context) -> str:
            return await self.read("report", report_id, ctx)

    async def read(self, kind: RecordKind, record_id: str, ctx: Context) -> str:
        owner = self.callers.of(ctx).owner
        try:
            found = await anyio.to_thread.run_sync(stored, self.store, kind, record_id, owner)
        except StoreUnavailable as exc:
            raise ResourceError(str(exc)) from exc
        if found is None:
            raise ResourceNotFoundError(f"no {kind} {record_id[:40]!r} here: it was never saved, it was "
                                        "deleted, or it is not yours")
        return as_text(found.to_dict())
