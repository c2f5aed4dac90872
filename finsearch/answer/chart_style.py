"""How a chart speaks: the language of its labels and which colour means up.

Chinese screens (mainland and Hong Kong) colour a rise red and a fall green, the opposite of
Western ones; a Chinese question gets that convention and Chinese labels. The setting
`candle_colours` (FINSEARCH_CANDLE_COLOURS) picks one way for every question instead.
"""

from __future__ import annotations

import dataclasses

from ..phrases import Language, say
from ..settings import CandleColours

GREEN, RED = "#1a9c5b", "#d64545"


@dataclasses.dataclass(frozen=True)
class ChartStyle:
    language: Language = "en"
    red_up: bool = False

    @property
    def up(self) -> str:
        return RED if self.red_up else GREEN

    @property
    def down(self) -> str:
        return GREEN if self.red_up else RED

    def say(self, key: str, /, **values) -> str:
        """The chart phrase `chart.<key>` in this chart's language."""
        return say(f"chart.{key}", self.language, **values)


def chart_style(language: Language = "en", candle_colours: CandleColours = "auto") -> ChartStyle:
    """The style of a chart answering a question in `language` under the colour setting."""
    red_up = candle_colours == "red_up" or (candle_colours == "auto" and language == "zh")
    return ChartStyle(language=language, red_up=red_up)
