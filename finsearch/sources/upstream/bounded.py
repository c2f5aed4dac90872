"""An HTTP answer read as a stream and bounded: by bytes as decoded, and by a time after which a trickle is given up.

A body that never ends, a gzip bomb or one that arrives a byte at a time ends as `TooLarge` or a
read timeout (`httpx.ReadTimeout`, which the adapters' `classify` reads as a timeout), never as a
thread holding gigabytes or waiting for ever. The SEC and HKEXnews adapters read every answer here.
"""

from __future__ import annotations

import time

import httpx

from ...errors import Unreachable


class TooLarge(Unreachable):
    """The upstream sent more than a document of its kind can be: the rest was not read."""


def read_bounded(response: httpx.Response, name: str, url: str, limit: int, give_up_at: float) -> bytes:
    """The body of a streamed `response`, decoded, refused past `limit` bytes (TooLarge, naming the
    upstream `name`) or past `give_up_at` (time.monotonic(); a read timeout: the node has long
    stopped waiting)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit and not response.headers.get("content-encoding"):
        raise TooLarge(f"{name} sent a document of {int(declared) / 2**20:.0f} MB ({url}); "
                       f"at most {limit / 2**20:g} MB is read")
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"{name} sent more than {limit / 2**20:g} MB for {url}; the rest was not read")
        if time.monotonic() > give_up_at:
            raise httpx.ReadTimeout(f"{url} was still arriving when the call's time ran out", request=response.request)
        chunks.append(chunk)
    return b"".join(chunks)
