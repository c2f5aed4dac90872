"""What searches that ended after the answer began add to it: a last paragraph, said to have come late.

A model may begin the answer once the evidence its lead reads is in (`lead_needs`); a node the
model's plan added, a follow-up or a slower search may end after that, with evidence the writer
never saw. It is not dropped: once the text is written, a paragraph headed as having arrived
after it (`answer.late`) gives each new finance item's figures as the rules write them (`compose`)
and each new story as a dated headline line, every line cited. The citations continue the
answer's own numbers ([n+1] …) and their references join its list, so the audit traces them as
it traces the rest.
"""

from __future__ import annotations

import dataclasses
import re

from ..dedupe import near, title_key, url_key
from ..evidence import Evidence
from ..graph import NodeStatus, SearchGraph
from ..phrases import say
from ..plan.analysis import Analysis
from .citations import MARKER_PATTERN, Renumberer, references
from .compose import item_facts
from .dated import Dating
from .generator import Answer
from .markdown import escape
from .titles import instrument_names, reference_title

LATE_STORIES = 6          # stories said as headline lines; the evidence panel has every one
_MARKER = re.compile(MARKER_PATTERN)


def late_evidence(graph: SearchGraph, given: list[Evidence], early_nodes: frozenset[str]) -> list[Evidence]:
    """Evidence of the searches that ended after the writer was given its evidence (nodes not in
    `early_nodes`), less copies of what it was given (same address, near-identical title): finance
    items first, then the best-weighted stories, at most LATE_STORIES of them."""
    urls = {url_key(e.url) for e in given if e.url}
    titles = [title_key(e.title) for e in given if e.kind != "finance"]
    ids = {e.id for e in given}
    finance: list[Evidence] = []
    stories: list[Evidence] = []
    for node in graph:
        if node.id in early_nodes or node.status is not NodeStatus.DONE:
            continue
        for item in node.evidence:
            if item.id in ids:
                continue
            ids.add(item.id)
            if item.kind == "finance":
                finance.append(item)
                continue
            url, title = url_key(item.url), title_key(item.title)
            if (url and url in urls) or any(near(title, t) for t in titles):
                continue
            urls.add(url)
            titles.append(title)
            stories.append(item)
    stories.sort(key=lambda e: -(e.time_weight if e.time_weight is not None else 0.5))
    return finance + stories[:LATE_STORIES]


def extend(answer: Answer, late: list[Evidence], analysis: Analysis, graph: SearchGraph) -> tuple[str, Answer]:
    """(the text to append, the answer with it): `late` said after the answer's text, cited as
    [n+1] … after its `n` references. Nothing to say: ("", `answer`)."""
    if not late:
        return "", answer
    language = analysis.language
    names = instrument_names(analysis, language)
    when = analysis.time_context.label if analysis.time_context.explicit else say("when.over_the_period", language)
    dating = Dating.of(graph, list(names))
    numbers = {item.id: k for k, item in enumerate(late, start=1)}
    sentences = [s for item in late if item.kind == "finance"
                 for s in item_facts(item, numbers[item.id], names, language, when)]
    lines = []
    for item in late:
        if item.kind == "finance":
            continue
        day = dating.day(item)
        who = f" · {escape(item.publisher)}" if item.publisher else ""
        lines.append(f"- {day or say('answer.undated', language)}{who}: {escape(item.title)} [{numbers[item.id]}]")
    body = [part for part in (say("answer.sentence_sep", language).join(sentences), "\n".join(lines)) if part]
    if not body:
        return "", answer
    renum = Renumberer(late)
    text = renum.feed(say("answer.late", language) + "\n\n" + "\n\n".join(body)) + renum.flush()
    offset = len(answer.references)
    text = _MARKER.sub(lambda m: re.sub(r"\d+", lambda d: str(int(d.group(0)) + offset), m.group(0)), text)
    cited = references(renum.cited(), dating.day, lambda item: reference_title(item, names, language))
    added = [dataclasses.replace(ref, n=ref.n + offset) for ref in cited]
    piece = "\n\n" + text
    return piece, dataclasses.replace(answer, markdown=answer.markdown + piece,
                                      references=[*answer.references, *added])
