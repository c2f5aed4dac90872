"""The phrasebook: every sentence the rules write for a person, once per language.

The wording lives in package data, `phrases/<language>.json` (one flat object of
key → template), so a third language is a new file, not edits across the code.
`say(key, language, **values)` fills one template with `str.format`.

The app's words around an answer (`ui.*`: status lines, badges, the search graph's legend and
node labels, the evidence panel, References, Share and Export) live here too rather than in
`ui/`: the core's exports say some of the same words and the core never imports the app, and
a third language stays one file. The app picks the answer's language (`result.analysis.language`,
or `language_of(question)` while it runs), so a Chinese answer gets Chinese chrome.

Every language's file has the same keys, and each template names the same values (a
test holds both). A language whose sentence leaves a value out still names it, as
`{name:omit}`, which writes nothing: a translator sees every value there is to use.
Numbers reach a template already written out (see `numbers`); templates format nothing,
but for two things only the language knows:

- a word that follows a count: `{n} {n:section|sections}` writes the form before the bar
  when `n` is exactly one, the one after it otherwise ("1 section", "0 sections", "2 sections";
  a count that is no number, "?", takes the second); Chinese needs none;
- the words between the two days of a `dates.DaySpan`: `{span: → }`, `{span: 至 }` (one day
  is written once).
"""

from __future__ import annotations

import functools
import json
import string
from importlib import resources
from typing import Literal, get_args

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = get_args(Language)


class _Filler(string.Formatter):
    def format_field(self, value, format_spec: str) -> str:
        if format_spec == "omit":
            return ""
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if _is_one(value) else many
        return super().format_field(value, format_spec)


def _is_one(count) -> bool:
    """Whether a count as code hands it over (1, "1", "1,000", "?") is exactly one."""
    try:
        return abs(float(str(count).replace(",", ""))) == 1
    except ValueError:
        return False


_FILLER = _Filler()


@functools.cache
def phrasebook(language: Language) -> dict[str, str]:
    """The templates of one language, from finsearch/phrases/LANGUAGE.json."""
    if language not in LANGUAGES:
        raise ValueError(f"no phrasebook for language {language!r} (have: {', '.join(LANGUAGES)})")
    text = resources.files("finsearch").joinpath(f"phrases/{language}.json").read_text("utf-8")
    return json.loads(text)


def placeholders(template: str) -> frozenset[str]:
    """The values a template names ("{day.month}" names `day`)."""
    return frozenset(field.split(".")[0].split("[")[0]
                     for _, field, _, _ in string.Formatter().parse(template) if field is not None)


def say(key: str, language: Language, /, **values) -> str:
    """The phrase `key` in `language` with `values` filled in. A key the phrasebook lacks,
    or a value the template names but was not given, raises KeyError; values it does not
    name are left unused (a table of rules hands every phrase the same values)."""
    book = phrasebook(language)
    if key not in book:
        raise KeyError(f"phrase {key!r} is not in the {language} phrasebook")
    missing = placeholders(book[key]) - values.keys()
    if missing:
        raise KeyError(f"phrase {key!r} needs {', '.join(sorted(missing))}")
    return _FILLER.format(book[key], **values)
