"""What a later section would only repeat: sections are written independently, so the same
quote line, earnings sentence or headline turns up in three of them. A sentence or list
item said once (after renumbering, so the same text cites the same numbers) is dropped
where it comes again; dropping it orphans no reference, as its numbers were given where it
was first said. A section's lead (the first sentence of its first paragraph: the answer to
its own question) is kept, and a news section, or one whose supplementary searches found
headlines, keeps its whole list.
"""

from __future__ import annotations

import re

# A sentence ends at a full stop after its citations, or at a stop before a capital or a CJK letter.
_SENTENCE_END = re.compile(r"(?<=\]\.)\s+|(?<=[。！？])|(?<=[.!?])\s+(?=[A-Z“\"(\u4e00-\u9fff])")
# The sections whose own question is the news: their headlines are their content.
NEWS_SECTIONS = frozenset({"news", "industry_news", "what_happened", "macro_picture", "candidate_news"})


class Repeats:
    def __init__(self, already: set[str] | None = None):
        self.seen: set[str] = set(already or ())

    def fresh(self, paragraph: str, keep: bool = False) -> str:
        """The paragraph without what was said before ("" when nothing is new); with `keep`, a
        list whole and a paragraph's first sentence; remembers what it says."""
        lines = paragraph.split("\n")
        if lines[0].startswith("|"):
            return paragraph
        items = [line for line in lines if line.startswith("- ")]
        if items:
            new = [line for line in items if keep or line not in self.seen]
            self.seen.update(items)
            if not new:
                return ""
            return "\n".join(line for line in lines if not line.startswith("- ") or line in new)
        if paragraph in self.seen and not keep:
            return ""
        kept, dropped = [], False
        for i, sentence in enumerate(s.strip() for s in _SENTENCE_END.split(paragraph)):
            if sentence in self.seen and not (keep and i == 0):
                dropped = True
            elif sentence:
                kept.append(sentence)
                self.seen.add(sentence)
        self.seen.add(paragraph)
        return " ".join(kept) if dropped else paragraph
