"""Settings from the environment: every variable is read, checked, and documented; a bad
value is a clear ConfigError (exit 2 at the CLI), never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from finsearch.errors import ConfigError
from finsearch.settings import ENV_NAMES, from_env
from tests.conftest import ROOT


@pytest.mark.parametrize(("env", "field", "value"), [
    ({"FINSEARCH_DEADLINE_S": "30"}, "deadline_s", 30.0),
    ({"FINSEARCH_QUESTION_LIMIT": "10"}, "question_limit", 10),
    ({"FINSEARCH_QUESTION_WINDOW_S": "600"}, "question_window_s", 600.0),
    ({"FINSEARCH_MAX_RUNS_PER_VISITOR": "3"}, "max_runs_per_visitor", 3),
    ({"FINSEARCH_MAX_RUNS": "4"}, "max_runs", 4),
    ({"FINSEARCH_ADMIN": "yes"}, "admin", True),
    ({"FINSEARCH_VISITOR_MODEL_SERVERS": " Public "}, "visitor_model_servers", "public"),
    ({"FINSEARCH_EVAL_ANY_FOLDER": "yes"}, "eval_any_folder", True),
    ({"FINSEARCH_CACHE_MB": "12"}, "cache_size_mb", 12),
    ({"FINSEARCH_REPLAY_DELAY_MS": "1500"}, "replay_delay_s", 1.5),
    ({"FINSEARCH_WINDOW_HOURS": "24"}, "window_hours", 24.0),
    ({"FINSEARCH_JUDGE_MODEL": "judge-1"}, "judge_model", "judge-1"),
])
def test_variables_reach_their_setting(env, field, value):
    assert getattr(from_env(env), field) == value


@pytest.mark.parametrize(("env", "message"), [
    ({"FINSEARCH_DEADLINE_S": "soon"}, "FINSEARCH_DEADLINE_S must be a number, not 'soon'"),
    ({"FINSEARCH_DEADLINE_S": "-5"}, "FINSEARCH_DEADLINE_S must be a positive number"),
    ({"FINSEARCH_DEADLINE_S": "inf"}, "FINSEARCH_DEADLINE_S must be a finite number"),
    ({"FINSEARCH_VISITOR_MODEL_SERVERS": "everyone"}, "must be one of off, public, any, not 'everyone'"),
    ({"FINSEARCH_CACHE_MB": "lots"}, "FINSEARCH_CACHE_MB must be a number"),
    ({"FINSEARCH_LLM": "gpt\x1b[31m"}, "FINSEARCH_LLM must be one of auto, openai, heuristic, not 'gpt[31m'"),
    ({"FINSEARCH_NOW": "0001-01-01"}, "out of range"),
])
def test_bad_values_are_config_errors_with_a_reason(env, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        from_env(env)


def test_every_variable_is_documented_in_the_readme():
    readme = Path(ROOT / "README.md").read_text("utf-8")
    missing = [name for name in ENV_NAMES if f"`{name}" not in readme]
    assert not missing, f"README's configuration table lacks {missing}"


def test_every_variable_the_settings_read_is_listed():
    source = Path(ROOT / "finsearch" / "settings.py").read_text("utf-8")
    read = set(re.findall(r'env(?:\.get\(|\[)"([A-Z_]+)"', source))
    assert read == set(ENV_NAMES)


@pytest.mark.parametrize(("typed", "kept"), [
    ("Jane Doe jane@example.com", "Jane Doe jane@example.com"),
    ("  FinSearch   ops@finsearch.dev ", "FinSearch ops@finsearch.dev"),
    ("jane@example.com", None), ("Jane Doe", None), ("Jane Doe jane@example", None), ("", None), (None, None)])
def test_an_sec_contact_is_a_name_then_an_email(typed, kept):
    from finsearch.settings import sec_identity

    assert sec_identity(typed) == kept
