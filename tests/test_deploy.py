"""The deployment files (Docker cannot run here): the Dockerfile copies files that exist, runs
as a non-root user and checks Streamlit's health endpoint; compose.yaml runs several replicas
on one persistent Redis behind a sticky proxy whose config names the same service and port."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()
CADDYFILE = (ROOT / "deploy" / "Caddyfile").read_text()


def instructions(name: str) -> list[str]:
    """The arguments of every `name` instruction, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.+)$", joined, re.MULTILINE)]


def test_the_image_is_slim_unprivileged_and_health_checked():
    assert re.fullmatch(r"python:3\.1[1-9]-slim", instructions("FROM")[0])
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0"), "the app runs as a non-root user"
    [health] = instructions("HEALTHCHECK")
    assert "http://127.0.0.1:8501/_stcore/health" in health
    assert instructions("EXPOSE") == ["8501"]
    assert '"app.py"' in instructions("CMD")[0] and '"--server.port", "8501"' in instructions("CMD")[0]


def test_every_file_the_dockerfile_copies_exists_and_is_not_ignored():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()}
    for copy in instructions("COPY"):
        *sources, _ = [part for part in copy.split() if not part.startswith("--")]
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert source.rstrip("/") not in ignored, f"COPY {source} is excluded by .dockerignore"
    assert "requirements.txt" in instructions("COPY")[0], "dependencies install before the code is copied"


def test_compose_runs_replicas_on_one_persistent_redis_behind_a_sticky_proxy():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed; the text checks below still ran")
    spec = yaml.safe_load(COMPOSE)
    app, redis, proxy = (spec["services"][name] for name in ("app", "redis", "proxy"))
    assert app["environment"]["FINSEARCH_REDIS_URL"] == "redis://redis:6379/0"
    assert str(app["deploy"]["replicas"]).endswith(":-2}") or int(app["deploy"]["replicas"]) >= 2
    assert "--appendonly" in redis["command"] and redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert any(v.startswith("./deploy/Caddyfile:") for v in proxy["volumes"])


def test_compose_and_the_proxy_agree_as_text():
    """What the YAML test checks, on the text alone (it runs without a YAML parser)."""
    assert re.search(r"^  app:\n(    .*\n|\n)*?    deploy:\n      replicas: \$\{FINSEARCH_REPLICAS:-2\}", COMPOSE,
                     re.MULTILINE)
    assert "FINSEARCH_REDIS_URL: redis://redis:6379/0" in COMPOSE and "\n  redis:\n" in COMPOSE
    assert '"--appendonly", "yes"' in COMPOSE and '"noeviction"' in COMPOSE
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in COMPOSE
    assert re.search(r"dynamic a \{\s+name app\s+port 8501\b", CADDYFILE), "the proxy finds every app replica"
    assert re.search(r"^\s*lb_policy cookie \w+", CADDYFILE, re.MULTILINE), "sticky sessions"
    assert "health_uri" not in CADDYFILE, "active health checks do not run for dynamic upstreams"


def test_compose_runs_the_http_api_beside_the_replicas_on_the_same_redis_with_keys_required():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed; the text checks below still ran")
    services = yaml.safe_load(COMPOSE)["services"]
    app, api = services["app"], services["api"]
    assert api["image"] == app["image"] and api["command"][:4] == ["python", "-m", "finsearch", "api"]
    host = api["command"][api["command"].index("--host") + 1]
    port = api["command"][api["command"].index("--port") + 1]
    assert host == "0.0.0.0", "reached from outside its container: every call then needs an API key"
    assert api["environment"]["FINSEARCH_REDIS_URL"] == app["environment"]["FINSEARCH_REDIS_URL"]
    assert "FINSEARCH_API_KEYS_REQUIRED" not in api["environment"]
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"
    assert api["ports"] == [f"{port}:{port}"] and f"http://127.0.0.1:{port}/openapi.json" in " ".join(
        api["healthcheck"]["test"])


def test_compose_names_the_api_as_text():
    command = r'    command: \["python", "-m", "finsearch", "api", "--host", "0\.0\.0\.0"'
    assert re.search(r"^  api:\n(    .*\n|\n)*?" + command, COMPOSE, re.MULTILINE)


def test_compose_runs_job_workers_and_a_scheduler_on_the_same_redis():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed; the text checks below still ran")
    services = yaml.safe_load(COMPOSE)["services"]
    app, worker, scheduler = services["app"], services["worker"], services["scheduler"]
    assert worker["image"] == app["image"] == scheduler["image"]
    assert worker["command"] == ["python", "-m", "finsearch", "worker"]
    assert scheduler["command"] == ["python", "-m", "finsearch", "scheduler"]
    for service in (worker, scheduler):
        assert service["environment"]["FINSEARCH_REDIS_URL"] == app["environment"]["FINSEARCH_REDIS_URL"]
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    assert worker["stop_grace_period"] == "2h", "a report in hand is finished before the worker stops"
    assert "ports" not in worker and "ports" not in scheduler


def test_compose_names_the_worker_as_text():
    assert re.search(r'^  worker:\n(    .*\n|\n)*?    command: \["python", "-m", "finsearch", "worker"\]', COMPOSE,
                     re.MULTILINE)


def test_every_finsearch_service_runs_on_the_same_settings():
    """A report or brief asked on a replica is written by a worker, a notice e-mailed by one: the model,
    the mail server and the visitor policy must be the app's."""
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    services = yaml.safe_load(COMPOSE)["services"]
    app = services["app"]["environment"]
    shared = {"FINSEARCH_SMTP_HOST", "FINSEARCH_SMTP_FROM", "OPENAI_API_KEY", "FINSEARCH_VISITOR_MODEL_SERVERS"}
    assert shared <= set(app)
    for name in ("api", "worker", "scheduler"):
        environment = services[name]["environment"]
        assert {key: environment[key] for key in app} == app, name
    assert services["worker"]["command"][-1] == "worker" and services["scheduler"]["command"][-1] == "scheduler"
