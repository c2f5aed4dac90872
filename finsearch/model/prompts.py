"""The prompts: templates kept as package data (finsearch/prompts/NAME.md), read once and filled in.

    prompt(name) → the template's text
    fill(template, name=value, …) → the template with each {{name}} replaced
"""

from __future__ import annotations

import functools
from importlib import resources


@functools.lru_cache(maxsize=16)
def prompt(name: str) -> str:
    """A prompt template from finsearch/prompts/NAME.md."""
    return resources.files("finsearch").joinpath(f"prompts/{name}.md").read_text("utf-8")


def fill(template: str, **values: str) -> str:
    """Replace {{name}} markers; the templates hold literal JSON braces elsewhere."""
    for name, value in values.items():
        template = template.replace("{{" + name + "}}", value)
    return template
