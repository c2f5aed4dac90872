"""A streamed reply's clock: when a stream not yet begun, stalled, dripping or over the run's budget is given up.

    watch = StreamWatch(deadline, asked=…, first_wait=…, stall=…, begin_within=…)
    watch.verdict(now) → None | (LLMError, ends_run)     asked at every tick, piece or not
    watch.heard_piece(now, text=…)                       told of every piece that came

`LLMClient.stream` reads the pieces; this says when to stop waiting for them. A verdict that
`ends_run` is one that makes further calls in the run pointless (a hang, a stall, a drip); the
others end this call only (Stop, or a reply not begun within `begin_within`).
"""

from __future__ import annotations

import dataclasses
import time

from ..deadline import Deadline
from ..errors import LLMError, Stopped

STREAM_FLOOR_PER_S = 1.0       # fewer pieces a second than this, from half a stall window on: abandoned


@dataclasses.dataclass
class StreamWatch:
    """The timing of one streamed reply, from the moment its stream opened."""
    deadline: Deadline
    asked: float                   # time.monotonic() when the request was sent
    first_wait: float              # seconds the first piece may take (a local model reads a long prompt first)
    stall: float                   # the longest silence once a piece has come
    begin_within: float | None = None   # seconds from `asked` by which the reply must have begun
    last: float = dataclasses.field(default_factory=time.monotonic)   # the last piece, or the stream's opening
    heard: bool = False            # whether any piece came (reasoning may come before text)
    first: float | None = None     # when the first text arrived
    texts: int = 0                 # text pieces so far

    def heard_piece(self, now: float, text: bool) -> None:
        """A piece came at `now`; `text` when it carried text (not only reasoning, usage or a finish)."""
        self.last, self.heard = now, True
        if text:
            self.texts += 1
            self.first = self.first or now

    def verdict(self, now: float) -> tuple[LLMError, bool] | None:
        """None while the stream is worth waiting on at `now`; else the error that ends it and whether
        that error ends the run's calls to the model too."""
        if self.deadline.stopped:
            return Stopped("stopped by the user"), False
        if self.deadline.remaining() <= 1.0:
            return LLMError(f"the model's answer did not finish within this question's "
                            f"{self.deadline.seconds:g} s budget"), True
        if not self.heard and now - self.last > self.first_wait:
            return LLMError(f"the model sent nothing for {self.first_wait:g} s"), True
        if not self.heard and self.begin_within is not None and now - self.asked > self.begin_within:
            return LLMError(f"it had not begun writing {self.begin_within:.1f} s after it was asked "
                            "(still reading its prompt)"), False
        if self.heard and now - self.last > self.stall:
            return LLMError(f"the model's answer stalled for more than {self.stall:g} s"), True
        if self.first is not None and now - self.first > self.stall / 2 \
                and (self.texts - 1) / (now - self.first) < STREAM_FLOOR_PER_S:
            return LLMError("the model's answer came too slowly "
                            f"(under {STREAM_FLOOR_PER_S:g} piece a second)"), True
        return None
