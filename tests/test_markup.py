"""Markup stripped in linear time (issue 31 §10): the same result as the regular expressions it
replaces, on seeded random strings of tags that open and close, or not; and a megabyte of
openings that never close stripped in well under a second (the regular expressions took about
seven seconds for an eighth of that, and the time grows with its square)."""

from __future__ import annotations

import random
import re
import time

import pytest

from finsearch.evidence import plain_text
from finsearch.markup import drop_blocks, sub_tags
from finsearch.sources.sec.text import plain_lines

BLOCKS = ("script", "style", "iframe", "object", "template")
AS_REGEX = re.compile(r"<(script|style|iframe|object|template)\b.*?</\1\s*>", re.I | re.S)
TAG = re.compile(r"<[^>]*>")
PIECES = ["<", ">", "<script", "</script>", "</SCRIPT >", "<style", "</style>", "a", " ", "<b>", "</b", "x>",
          "<iframe", "</iframe>", "<scripts", "\n", "é"]


def test_the_same_result_as_the_regular_expressions():
    rng = random.Random(31)
    for _ in range(20_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14)))
        assert drop_blocks(text, BLOCKS) == AS_REGEX.sub(" ", text), text
        assert sub_tags(TAG, " ", text) == TAG.sub(" ", text), text


@pytest.mark.parametrize("text", ["<script>" * 125_000, "<" * 1_000_000, "<p" * 500_000,
                                  "<style>a</style><script" * 50_000],
                         ids=["unclosed-scripts", "angles", "unclosed-p", "mixed"])
def test_a_megabyte_of_unclosed_markup_is_stripped_in_linear_time(text):
    started = time.monotonic()
    plain_text(text, 300)
    plain_lines(text)
    assert time.monotonic() - started < 3.0
