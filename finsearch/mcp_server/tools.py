"""A tool that reads its own arguments: the SDK lists the schema we give it and hands the call's
arguments over as sent, so the checks and their messages are the service core's (`AskRequest`)
and the catalogue's (`source_args`), one home each, and never a second validator's.

A bad argument is a tool error whose text names the field; an unexpected failure is a tool error
that says so without its details (those go to the server's log, on stderr), never a traceback.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from ..errors import FinSearchError
from ..surrogates import replace_lone

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any], Context], Awaitable[CallToolResult]]


class ArgumentsTool(Tool):
    """A tool whose handler gets the raw arguments (a dict, as the client sent them) and the
    request's context, and returns the whole result."""

    async def run(self, arguments: dict[str, Any], context: Context, convert_result: bool = False) -> Any:
        try:
            return await self.fn(dict(arguments), context)
        except FinSearchError as exc:            # InputError (a bad argument), SourceError (no data) …
            raise ToolError(str(exc)) from exc
        except ToolError:
            raise
        except Exception as exc:
            log.exception("tool %s failed", self.name)
            raise ToolError(f"{self.name} failed unexpectedly ({type(exc).__name__}); "
                            "the server's log has the details") from exc


def tool(name: str, description: str, schema: dict, handler: Handler, *, read_only: bool = True,
         title: str | None = None) -> ArgumentsTool:
    """A tool named `name` advertising `schema` (a JSON Schema object) and answered by `handler`."""
    return ArgumentsTool(fn=handler, name=name, title=title, description=description, parameters=schema,
                         fn_metadata=FuncMetadata(arg_model=ArgModelBase), is_async=True,
                         annotations=ToolAnnotations(read_only_hint=read_only, open_world_hint=True))


def wire_json(value: Any) -> Any:
    """`value` as JSON will carry it: every string UTF-8-safe (a lone surrogate is U+FFFD), so no
    text a source or a model wrote can break the client's decoder."""
    return json.loads(replace_lone(json.dumps(value, ensure_ascii=False)))


def result(text: str, structured: dict | None = None, *, error: bool = False) -> CallToolResult:
    """A tool's result: `text` for the model to read, `structured` for a program."""
    return CallToolResult(content=[TextContent(type="text", text=replace_lone(text))],
                          structured_content=wire_json(structured) if structured is not None else None,
                          is_error=error)


def as_text(value: Any) -> str:
    """A structured value as the text content of a result that has no prose of its own."""
    return json.dumps(wire_json(value), ensure_ascii=False, indent=1)
