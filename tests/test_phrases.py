"""The phrasebook: one file per language with the same keys and values, every phrase in
use, loud failures for a missing phrase or value, and numbers in each language's units."""

from __future__ import annotations

import ast
import json
import string

import pytest

from finsearch.answer import facts
from finsearch.evidence import Evidence
from finsearch.phrases import LANGUAGES, phrasebook, placeholders, say
from finsearch.phrases.numbers import SCALES, money, pct
from tests.conftest import ROOT

BOOKS = {language: json.loads((ROOT / "finsearch" / "phrases" / f"{language}.json").read_text("utf-8"))
         for language in LANGUAGES}


def test_every_language_has_a_phrasebook_and_number_units():
    assert set(LANGUAGES) == {"en", "zh"}
    assert sorted(p.stem for p in (ROOT / "finsearch" / "phrases").glob("*.json")) == sorted(LANGUAGES)
    assert set(SCALES) == set(LANGUAGES)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_phrasebooks_have_the_same_keys_in_the_same_order(language):
    assert list(BOOKS[language]) == list(BOOKS["en"])


@pytest.mark.parametrize("key", sorted(BOOKS["en"]))
def test_every_translation_names_the_same_values(key):
    named = {language: placeholders(book[key]) for language, book in BOOKS.items()}
    assert len(set(named.values())) == 1, named


@pytest.mark.parametrize("language", LANGUAGES)
def test_templates_format_no_numbers_themselves(language):
    """Numbers are written out in code (phrases.numbers); a template only places them, says it
    leaves one out, picks the word after a count ("{n:section|sections}") or says what goes
    between a span's days ("{span: → }")."""
    for key, template in BOOKS[language].items():
        assert isinstance(template, str), key
        for _, field, spec, conversion in string.Formatter().parse(template):
            if field is not None:
                assert field, f"{language} {key}: an unnamed {{}}"
                is_span = field == "span" or field.endswith("_span")
                assert conversion is None and (spec in ("", "omit") or is_span or spec.count("|") == 1), \
                    f"{language} {key}: {{{field}:{spec}}}"
                assert not is_span or spec == "" or spec.startswith(" ") and spec.endswith(" "), f"{language} {key}"


def _package_strings() -> tuple[set[str], set[str]]:
    """Every string constant in the package's and the app's code (the app's words around an
    answer are `ui.*` phrases), and every head of an f-string."""
    constants, heads = set(), set()
    for path in [p for folder in ("finsearch", "ui", "pages") for p in (ROOT / folder).rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                heads.add(node.values[0].value)
    return constants, heads


def test_every_phrase_is_used():
    constants, heads = _package_strings()
    unused = [key for key in BOOKS["en"]
              if key not in constants and not any(h.endswith(".") and key.startswith(h) for h in heads)]
    assert unused == []


def test_a_phrase_or_value_that_is_not_there_fails_loudly():
    with pytest.raises(KeyError, match="no.such.phrase"):
        say("no.such.phrase", "en")
    with pytest.raises(KeyError, match="ticker"):
        say("instrument", "zh", name="Apple")
    with pytest.raises(ValueError, match="fr"):
        say("instrument", "fr", name="Apple", ticker="AAPL")


def test_values_are_filled_in_as_given():
    assert say("instrument", "en", name="Apple", ticker="AAPL") == "Apple (AAPL)"
    assert say("instrument", "zh", name="苹果", ticker="AAPL") == "苹果（AAPL）"
    assert say("gap.no_data", "en", what="{x}", who="NVDA") == "Found no {x} for NVDA."


def test_a_value_a_language_leaves_out_writes_nothing():
    assert "{who:omit}" in phrasebook("zh")["facts.institutions"]
    assert say("facts.institutions", "zh", who="Apple", share="61.20%", ref=3) == "机构持股比例 61.20% [3]。"
    assert say("facts.institutions", "en", who="Apple", share="61.20%", ref=3) == \
        "Institutions hold 61.20% of Apple [3]."


@pytest.mark.parametrize(("value", "currency", "language", "shown"), [
    (7.8e12, "USD", "en", "$7.80T"), (3.4e9, "USD", "en", "$3.40B"), (-2.5e7, "SEK", "en", "-25.00M SEK"),
    (999_999.5, "EUR", "en", "€999,999.50"), (7.8e12, "CNY", "zh", "7.80万亿元"), (1.2e8, "HKD", "zh", "1.20亿港元"),
    (3.4e9, "USD", "zh", "34.00亿美元"), (5e7, "USD", "zh", "50,000,000.00美元"), (12.345, None, "zh", "12.35"),
    # Chinese: the currency word after, 亿 counts kept to about four figures
    (7.05e11, "USD", "zh", "7,050亿美元"), (7.0534e10, "USD", "zh", "705.3亿美元"),
    (1.96e12, "CNY", "zh", "1.96万亿元"),
    (1560, "CNY", "zh", "1,560.00元"), (-2.5e7, "SEK", "zh", "-25,000,000.00 SEK"), (7.05e11, "USD", "en", "$705.00B"),
    (None, "USD", "en", "n/a"), (True, "USD", "en", "n/a"), (float("nan"), "USD", "zh", "n/a"),
])
def test_money_in_each_languages_units(value, currency, language, shown):
    assert money(value, currency, language) == shown


def test_percentages():
    assert (pct(1.234), pct(-1.234), pct(-1.234, False), pct("x")) == ("+1.23%", "-1.23%", "1.23%", "n/a")


def test_heuristic_sentences_in_both_languages():
    item = Evidence("q", "quote", "finance", "AAPL quote", published="2024-10-15T20:00:00Z",
                    data={"ticker": "AAPL", "currency": "USD", "last": 233.85, "change_pct": -1.21,
                          "market_cap": 3.55e12})
    assert facts.quote(item, 2, {"AAPL": "Apple"}, "en") == [
        "Apple (AAPL) last traded at $233.85 (-1.21% on the day), market cap $3.55T, as of 2024-10-15 [2]."]
    assert facts.quote(item, 2, {"AAPL": "苹果"}, "zh") == [
        "苹果（AAPL）最新价 233.85美元（当日 -1.21%），市值 3.55万亿美元，截至 2024-10-15 [2]。"]


def test_phrasebooks_are_package_data():
    package_data = (ROOT / "pyproject.toml").read_text("utf-8").split("[tool.setuptools.package-data]")[1]
    assert '"phrases/*.json"' in package_data.split("[")[1]
