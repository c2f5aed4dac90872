"""The MCP server itself: the question tools, a tool per data source and the stored records,
on one `MCPServer` built from the settings the command line uses (`settings.from_env`)."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

from ..catalogue import CATALOGUE
from ..settings import Settings
from .callers import Callers, LocalCallers
from .questions import QuestionTools
from .records import Records
from .source_tools import SourceTools

NAME = "finsearch"
INSTRUCTIONS = (
    "FinSearch answers financial questions with cited, time-weighted evidence. `ask` plans the searches, "
    "runs them and writes a cited answer; `plan` shows the searches only; `research_report` writes a long "
    "report section by section. Each data source is also a tool of its own (quote, price_history, news, "
    "sec_filings, cn_announcements …) for agents that plan their own searches. Runs and reports are kept: "
    "read them again as finsearch://runs/{run_id} and finsearch://reports/{report_id}.")


def build_server(settings: Settings, callers: Callers | None = None) -> MCPServer:
    """The server for `settings`, its callers told apart by `callers` (this machine's user by default)."""
    callers = callers or LocalCallers()
    questions = QuestionTools(settings, callers).tools()
    fixed = {t.name for t in questions}
    clash = fixed & set(CATALOGUE)
    if clash:                              # a source named like a question tool would hide it
        raise ValueError(f"sources named like the question tools: {sorted(clash)}")
    server = MCPServer(NAME, instructions=INSTRUCTIONS, tools=questions + SourceTools(settings).tools(),
                       log_level="WARNING", warn_on_duplicate_tools=False)
    Records(settings, callers).register(server)
    return server
