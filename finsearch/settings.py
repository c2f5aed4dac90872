"""Run settings, built from the environment inside a function and passed down.

Nothing reads the environment at import time; the UI builds its own `Settings` per
browser session (from `st.secrets` and the settings page) and hands it to the pipeline.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from datetime import datetime, time, timezone
from pathlib import Path
from typing import Literal

from .catalogue import default_freshness
from .env_values import count, flag, freshness, number, origins, positive, proxies, shown
from .errors import ConfigError
from .model.prices import ModelPrice, parse_prices
from .timecontext import EARLIEST, LATEST

LLM_CHOICES = ("auto", "openai", "heuristic")
# May visitors point the app at another model server? (finsearch.model.endpoint)
VisitorModelServers = Literal["off", "public", "any"]
LLMChoice = Literal["auto", "openai", "heuristic"]      # auto: a model when one is configured
Backend = Literal["openai", "heuristic"]                # what a run actually uses
Schedule = Literal["graph", "sequential"]   # graph: as dependencies allow | sequential: the paper's way
# Which way candles are coloured: auto follows the question's language (Chinese: red up, green
# down, as on mainland and Hong Kong screens; otherwise green up), or one way for every question.
CandleColours = Literal["auto", "red_up", "green_up"]
CANDLE_COLOURS: tuple[CandleColours, ...] = ("auto", "red_up", "green_up")
VISITOR_POLICIES: tuple[VisitorModelServers, ...] = ("off", "public", "any")
# How the connection to the operator's mail server is secured: STARTTLS on the submission port,
# TLS from the first byte, or none (a relay on this machine or inside the private network).
MailSecurity = Literal["starttls", "ssl", "none"]
MAIL_SECURITY: tuple[MailSecurity, ...] = ("starttls", "ssl", "none")
MAIL_PORTS: dict[str, int] = {"starttls": 587, "ssl": 465, "none": 25}
DEFAULT_MODEL = "gpt-4o-mini"
NETWORK_SHARE = 5      # a network's question allowance by default, in visitors' allowances

# RSS feeds the news source reads, as URL templates. Placeholders: {ticker}, {query}
# (URL-encoded) and the edition of the question's language: {hl}, {gl}, {ceid}, {region}, {lang}.
DEFAULT_FEEDS = (
    "https://feeds.finance.yahoo.com/rss/2.0/headline?s={ticker}&region={region}&lang={lang}",
    "https://news.google.com/rss/search?q={query}&hl={hl}&gl={gl}&ceid={ceid}",
)


@dataclasses.dataclass(frozen=True)
class MailServer:
    """The operator's SMTP server, through which notices are e-mailed (`finsearch.delivery.smtp`)."""
    host: str
    port: int
    security: MailSecurity
    sender: str                            # the From address
    user: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)   # a secret: never shown


@dataclasses.dataclass(frozen=True)
class Settings:
    llm: LLMChoice = "auto"
    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = dataclasses.field(default=None, repr=False)
    cache_dir: Path = Path("~/.cache/finsearch").expanduser()
    data_dir: Path = Path("~/.local/share/finsearch").expanduser()
    offline: bool = False
    pack: Path | None = None
    record_to: Path | None = None          # write every live source call into this pack
    window_hours: float = 72.0
    floor: float = 0.1
    undated_weight: float = 0.5
    time_weighting: bool = True
    rewriter: bool = True
    now: datetime | None = None            # pins the clock (demos, tests)
    deadline_s: float = 45.0               # one budget per question: model and source calls share it
    node_timeout_s: float = 20.0
    llm_timeout_s: float = 20.0            # the most one model call may take (within the deadline)
    stream_stall_s: float = 10.0           # a streamed answer silent this long is abandoned
    # When a question's answer is due: the model's plan is waited for only until half of it has
    # passed, and its answer must have begun writing before it, else the rules take that stage (a
    # small local model on a busy machine can read a prompt for 20 s before its first token). A reply
    # already being written is bounded by the deadline, its token cap and its judgement.
    answer_due_s: float = 20.0
    max_workers: int = 8
    schedule: Schedule = "graph"
    disabled_sources: frozenset[str] = frozenset()
    news_feeds: tuple[str, ...] = DEFAULT_FEEDS
    freshness_s: dict[str, float] = dataclasses.field(default_factory=default_freshness)   # s, per source
    cache_size_mb: int = 256
    judge: bool = False                    # the optional LLM judge of presentation and entailment
    judge_model: str | None = None         # defaults to `model`
    replay_delay_s: float = 0.0            # simulate network latency on replayed calls (demos, benchmark)
    replay_jitter: float = 0.2             # ± fraction of that delay, from a fixed seed per call
    visitor_model_servers: VisitorModelServers | None = None   # None: the app decides by where it listens
    visitor_endpoint: bool = False         # base_url is a visitor's model server, not the operator's
    visitor_key: bool = False              # api_key is the visitor's own: the operator's model budget spares it
    model_guard: bool = False              # connect only to public addresses (a visitor's model server)
    eval_any_folder: bool = False          # the Evaluate page may read folders outside the data directory
    candle_colours: CandleColours = "auto"
    # Deep research in the app: the outline is researched as drafted after this many seconds
    # unless the user approves or edits it first (0: wait for the user).
    research_approve_s: float = 5.0
    # A public instance's limits (`finsearch.hosting.limits`): questions per identity per window (0: no
    # limit), runs at once per identity and per server process.
    question_limit: int = 60
    question_window_s: float = 3600.0
    max_runs_per_visitor: int = 2
    max_runs: int = 32
    # Questions per client network per window (`hosting.network`: an IPv4 address, an IPv6 /64),
    # which a script cannot shed by dropping its cookie. None: NETWORK_SHARE visitors' worth
    # (a network may hold a household or an office); 0: no limit.
    network_question_limit: int | None = None
    # Who may say where a visitor connects from: 0 trusts no proxy (the peer is the visitor and
    # X-Forwarded-For is ignored), a number N trusts that many proxy hops in front of the app, a
    # tuple trusts the proxies at those addresses or networks.
    trusted_proxies: int | tuple[str, ...] = 0
    # The operator's model budget (`model.budget`): calls a minute and a day on the server's own
    # model account, shared by replicas; 0: no budget. A visitor's own key or server is not counted.
    model_calls_per_minute: int = 0
    model_calls_per_day: int = 0
    admin: bool | None = None              # folder browsing on Evaluate; None: only for this machine
    # Shared state for replicas: runs, conversations and the source cache in Redis instead of
    # files. Hidden from repr: the URL may carry a password.
    redis_url: str | None = dataclasses.field(default=None, repr=False)
    # Who is asking SEC EDGAR ("Name email"): SEC refuses clients that do not say.
    sec_identity: str | None = None
    # USD per million input / output tokens, per model (`model.prices`): an answer's cost. None ship.
    model_prices: tuple[ModelPrice, ...] = ()
    # The HTTP API (`finsearch api`): whether a call needs an API key (None: only when the server
    # listens beyond loopback or behind a trusted proxy), and the origins a browser may call it from
    # (none: CORS off).
    api_keys_required: bool | None = None
    api_cors_origins: tuple[str, ...] = ()
    # The mail server notices are e-mailed through (None: no e-mail delivery).
    mail: MailServer | None = None

    def replace(self, **changes) -> Settings:
        return dataclasses.replace(self, **changes)

    @property
    def network_limit(self) -> int:
        """Questions one client network may ask per window (0: no limit)."""
        if self.network_question_limit is not None:
            return self.network_question_limit
        return self.question_limit * NETWORK_SHARE

    def clock(self) -> datetime:
        """The run's `now`: the pinned time when set, else the real UTC time."""
        return self.now or datetime.now(timezone.utc)


# The clock may be pinned anywhere markets have had data, with room for dates computed from it.
NOW_RANGE = (datetime.combine(EARLIEST, time(0), tzinfo=timezone.utc),
             datetime.combine(LATEST, time(23, 59, 59), tzinfo=timezone.utc))


_SEC_IDENTITY = re.compile(r"^\S.*\s[^\s@]+@[^\s@]+\.[^\s@]+$")


def sec_identity(text: str | None) -> str | None:
    """A contact SEC accepts ("Jane Doe jane@example.com": a name, then an email address),
    whitespace collapsed; None when `text` is not one."""
    value = " ".join(str(text or "").split())
    return value if _SEC_IDENTITY.match(value) else None


def parse_now(text: str) -> datetime:
    """An ISO time as an aware UTC datetime; a date alone means 00:00 UTC.

    Raises ConfigError with a readable message on anything else, or on a time outside
    1900–2199 (dates computed from it must stay representable).
    """
    raw = text.strip() if isinstance(text, str) else ""
    if not raw:
        raise ConfigError("the time is empty (example: 2024-10-15T20:00:00Z)")
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise ConfigError(f"not an ISO time: {shown(text)} (example: 2024-10-15T20:00:00Z)") from None
    if not NOW_RANGE[0] <= value <= NOW_RANGE[1]:
        raise ConfigError(f"the time {shown(text)} is out of range: use a time between 1900 and 2199")
    return value


def _mail_server(env: Mapping[str, str]) -> MailServer:
    """The SMTP server from FINSEARCH_SMTP_*; the password is never echoed in an error."""
    security = (env.get("FINSEARCH_SMTP_SECURITY") or "starttls").strip().lower()
    if security not in MAIL_SECURITY:
        raise ConfigError(f"FINSEARCH_SMTP_SECURITY must be one of {', '.join(MAIL_SECURITY)}, not {shown(security)}")
    port = MAIL_PORTS[security]
    if env.get("FINSEARCH_SMTP_PORT"):
        port = int(positive("FINSEARCH_SMTP_PORT", env["FINSEARCH_SMTP_PORT"]))
        if port > 65535:
            raise ConfigError("FINSEARCH_SMTP_PORT must be a port number (1–65535)")
    sender = (env.get("FINSEARCH_SMTP_FROM") or "").strip()
    if not re.fullmatch(r"[^\s@<>]+@[^\s@<>]+", sender):
        raise ConfigError("FINSEARCH_SMTP_FROM must be the address notices are sent from "
                          f"(example: finsearch@example.com), not {shown(sender)}")
    user = (env.get("FINSEARCH_SMTP_USER") or "").strip() or None
    password = env.get("FINSEARCH_SMTP_PASSWORD") or None
    if (user is None) != (password is None):
        raise ConfigError("FINSEARCH_SMTP_USER and FINSEARCH_SMTP_PASSWORD go together: set both or neither")
    return MailServer(env["FINSEARCH_SMTP_HOST"].strip(), port, security, sender, user, password)


# Every environment variable `from_env` reads (the app also reads them from secrets.toml).
ENV_NAMES = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "FINSEARCH_MODEL", "FINSEARCH_LLM", "FINSEARCH_CACHE_DIR",
             "FINSEARCH_DATA_DIR", "FINSEARCH_OFFLINE", "FINSEARCH_PACK", "FINSEARCH_WINDOW_HOURS", "FINSEARCH_NOW",
             "FINSEARCH_FEEDS", "FINSEARCH_JUDGE", "FINSEARCH_JUDGE_MODEL", "FINSEARCH_REPLAY_DELAY_MS",
             "FINSEARCH_FRESHNESS", "FINSEARCH_CACHE_MB", "FINSEARCH_DEADLINE_S", "FINSEARCH_ANSWER_DUE_S",
             "FINSEARCH_VISITOR_MODEL_SERVERS",
             "FINSEARCH_EVAL_ANY_FOLDER", "FINSEARCH_CANDLE_COLOURS", "FINSEARCH_REDIS_URL",
             "FINSEARCH_QUESTION_LIMIT", "FINSEARCH_QUESTION_WINDOW_S", "FINSEARCH_MAX_RUNS_PER_VISITOR",
             "FINSEARCH_MAX_RUNS", "FINSEARCH_ADMIN", "FINSEARCH_SEC_IDENTITY",
             "FINSEARCH_RESEARCH_APPROVE_S", "FINSEARCH_NETWORK_QUESTION_LIMIT", "FINSEARCH_TRUSTED_PROXIES",
             "FINSEARCH_MODEL_CALLS_PER_MINUTE", "FINSEARCH_MODEL_CALLS_PER_DAY", "FINSEARCH_MODEL_PRICES",
             "FINSEARCH_API_KEYS_REQUIRED", "FINSEARCH_API_CORS_ORIGINS", "FINSEARCH_SMTP_HOST",
             "FINSEARCH_SMTP_PORT", "FINSEARCH_SMTP_SECURITY", "FINSEARCH_SMTP_USER", "FINSEARCH_SMTP_PASSWORD",
             "FINSEARCH_SMTP_FROM")
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def from_env(env: Mapping[str, str] | None = None, **overrides) -> Settings:
    """Settings from environment variables (see DESIGN.md), then `overrides`."""
    env = os.environ if env is None else env
    values: dict = {}
    if env.get("FINSEARCH_LLM"):
        llm = env["FINSEARCH_LLM"].strip().lower()
        if llm not in LLM_CHOICES:
            raise ConfigError(f"FINSEARCH_LLM must be one of {', '.join(LLM_CHOICES)}, not {shown(llm)}")
        values["llm"] = llm
    if env.get("FINSEARCH_MODEL"):
        values["model"] = env["FINSEARCH_MODEL"].strip()
    if env.get("OPENAI_BASE_URL"):
        values["base_url"] = env["OPENAI_BASE_URL"].strip()
    if env.get("OPENAI_API_KEY"):
        values["api_key"] = env["OPENAI_API_KEY"].strip()
    if env.get("FINSEARCH_CACHE_DIR"):
        values["cache_dir"] = Path(env["FINSEARCH_CACHE_DIR"]).expanduser()
    if env.get("FINSEARCH_DATA_DIR"):
        values["data_dir"] = Path(env["FINSEARCH_DATA_DIR"]).expanduser()
    if env.get("FINSEARCH_OFFLINE"):
        values["offline"] = flag(env["FINSEARCH_OFFLINE"])
    if env.get("FINSEARCH_PACK"):
        values["pack"] = Path(env["FINSEARCH_PACK"]).expanduser()
    if env.get("FINSEARCH_WINDOW_HOURS"):
        values["window_hours"] = positive("FINSEARCH_WINDOW_HOURS", env["FINSEARCH_WINDOW_HOURS"])
    if env.get("FINSEARCH_NOW"):
        values["now"] = parse_now(env["FINSEARCH_NOW"])
    if env.get("FINSEARCH_FEEDS"):
        feeds = tuple(f.strip() for f in env["FINSEARCH_FEEDS"].replace("\n", ",").split(",") if f.strip())
        values["news_feeds"] = feeds
    if env.get("FINSEARCH_JUDGE"):
        values["judge"] = flag(env["FINSEARCH_JUDGE"])
    if env.get("FINSEARCH_JUDGE_MODEL"):
        values["judge_model"] = env["FINSEARCH_JUDGE_MODEL"].strip()
    if env.get("FINSEARCH_REPLAY_DELAY_MS"):
        values["replay_delay_s"] = max(0.0, number("FINSEARCH_REPLAY_DELAY_MS", env["FINSEARCH_REPLAY_DELAY_MS"])
                                       / 1000)
    if env.get("FINSEARCH_FRESHNESS"):
        values["freshness_s"] = {**default_freshness(), **freshness(env["FINSEARCH_FRESHNESS"])}
    if env.get("FINSEARCH_CACHE_MB"):
        values["cache_size_mb"] = max(1, int(number("FINSEARCH_CACHE_MB", env["FINSEARCH_CACHE_MB"])))
    if env.get("FINSEARCH_DEADLINE_S"):
        values["deadline_s"] = positive("FINSEARCH_DEADLINE_S", env["FINSEARCH_DEADLINE_S"])
    if env.get("FINSEARCH_ANSWER_DUE_S"):
        values["answer_due_s"] = positive("FINSEARCH_ANSWER_DUE_S", env["FINSEARCH_ANSWER_DUE_S"])
    if env.get("FINSEARCH_VISITOR_MODEL_SERVERS"):
        policy = env["FINSEARCH_VISITOR_MODEL_SERVERS"].strip().lower()
        if policy not in VISITOR_POLICIES:
            raise ConfigError(f"FINSEARCH_VISITOR_MODEL_SERVERS must be one of {', '.join(VISITOR_POLICIES)}, "
                              f"not {shown(policy)}")
        values["visitor_model_servers"] = policy
    if env.get("FINSEARCH_EVAL_ANY_FOLDER"):
        values["eval_any_folder"] = flag(env["FINSEARCH_EVAL_ANY_FOLDER"])
    if env.get("FINSEARCH_CANDLE_COLOURS"):
        colours = env["FINSEARCH_CANDLE_COLOURS"].strip().lower().replace("-", "_")
        if colours not in CANDLE_COLOURS:
            raise ConfigError(f"FINSEARCH_CANDLE_COLOURS must be one of {', '.join(CANDLE_COLOURS)}, "
                              f"not {shown(colours)}")
        values["candle_colours"] = colours
    if env.get("FINSEARCH_REDIS_URL"):
        url = env["FINSEARCH_REDIS_URL"].strip()
        if not url.lower().startswith(REDIS_SCHEMES):
            # Never echo the value: it may hold a password.
            raise ConfigError("FINSEARCH_REDIS_URL must start with redis://, rediss:// or unix:// "
                              "(example: redis://redis:6379/0)")
        values["redis_url"] = url
    if env.get("FINSEARCH_QUESTION_LIMIT"):
        values["question_limit"] = count("FINSEARCH_QUESTION_LIMIT", env["FINSEARCH_QUESTION_LIMIT"])
    if env.get("FINSEARCH_QUESTION_WINDOW_S"):
        values["question_window_s"] = positive("FINSEARCH_QUESTION_WINDOW_S", env["FINSEARCH_QUESTION_WINDOW_S"])
    if env.get("FINSEARCH_MAX_RUNS_PER_VISITOR"):
        values["max_runs_per_visitor"] = max(1, int(positive("FINSEARCH_MAX_RUNS_PER_VISITOR",
                                                              env["FINSEARCH_MAX_RUNS_PER_VISITOR"])))
    if env.get("FINSEARCH_MAX_RUNS"):
        values["max_runs"] = max(1, int(positive("FINSEARCH_MAX_RUNS", env["FINSEARCH_MAX_RUNS"])))
    if env.get("FINSEARCH_NETWORK_QUESTION_LIMIT"):
        values["network_question_limit"] = count("FINSEARCH_NETWORK_QUESTION_LIMIT",
                                                  env["FINSEARCH_NETWORK_QUESTION_LIMIT"])
    if env.get("FINSEARCH_TRUSTED_PROXIES"):
        values["trusted_proxies"] = proxies(env["FINSEARCH_TRUSTED_PROXIES"])
    if env.get("FINSEARCH_MODEL_CALLS_PER_MINUTE"):
        values["model_calls_per_minute"] = count("FINSEARCH_MODEL_CALLS_PER_MINUTE",
                                                  env["FINSEARCH_MODEL_CALLS_PER_MINUTE"])
    if env.get("FINSEARCH_MODEL_CALLS_PER_DAY"):
        values["model_calls_per_day"] = count("FINSEARCH_MODEL_CALLS_PER_DAY", env["FINSEARCH_MODEL_CALLS_PER_DAY"])
    if env.get("FINSEARCH_ADMIN"):
        values["admin"] = flag(env["FINSEARCH_ADMIN"])
    if env.get("FINSEARCH_RESEARCH_APPROVE_S"):
        values["research_approve_s"] = max(0.0, number("FINSEARCH_RESEARCH_APPROVE_S",
                                                        env["FINSEARCH_RESEARCH_APPROVE_S"]))
    if env.get("FINSEARCH_SEC_IDENTITY"):
        values["sec_identity"] = " ".join(env["FINSEARCH_SEC_IDENTITY"].split())
    if env.get("FINSEARCH_MODEL_PRICES"):
        values["model_prices"] = parse_prices(env["FINSEARCH_MODEL_PRICES"])
    if env.get("FINSEARCH_API_KEYS_REQUIRED"):
        values["api_keys_required"] = flag(env["FINSEARCH_API_KEYS_REQUIRED"])
    if env.get("FINSEARCH_API_CORS_ORIGINS"):
        values["api_cors_origins"] = origins(env["FINSEARCH_API_CORS_ORIGINS"])
    if env.get("FINSEARCH_SMTP_HOST"):
        values["mail"] = _mail_server(env)
    values.update(overrides)
    for name in ("cache_dir", "data_dir", "pack", "record_to"):    # accept str paths from callers
        if isinstance(values.get(name), str):
            values[name] = Path(values[name]).expanduser()
    return Settings(**values)
