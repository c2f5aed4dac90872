"""An API key used for a run is never written anywhere: not in the data directory, not in the
cache, not in any Redis key or value (nor Redis's append-only file), not in the logs or the
output. On both backends, with a model that really was called with it."""

from __future__ import annotations

import logging
import secrets

from finsearch import pipeline
from finsearch.sources.hub import DataHub
from finsearch.sources.setup import source_cache
from finsearch.store import open_store


class Network:
    def fetch(self, source, args):
        return [{"title": f"{source} {args.get('ticker') or args.get('query')}",
                 "data": {"ticker": "NVDA", "last": 131.6}}]


def test_the_api_key_appears_nowhere_after_a_run(backend, fake_llm, tmp_path, caplog, capfd):
    caplog.set_level(logging.DEBUG)                  # every logger, the libraries' debug lines too
    key = "sk-proj-" + secrets.token_hex(20)
    settings = backend.settings.replace(llm="openai", base_url=fake_llm.base_url, api_key=key, model="fake-model",
                                        llm_timeout_s=3.0)
    hub = DataHub(settings, adapters={s: Network() for s in ("quote", "price_history", "news", "web_search")},
                  cache=source_cache(settings))
    result = pipeline.ask("Why did NVDA fall last week?", settings=settings, hub=hub)
    open_store(settings).save(result, "conv-withkey1")
    assert fake_llm.kinds(), "the model server was called (with the key)"
    assert open_store(settings).load(result.run_id) is not None

    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written, "the run left files to look through (cache, runs or Redis's own)"
    assert [str(p) for p in written if key.encode() in p.read_bytes()] == []
    if backend.server is not None:
        keyspace = backend.server.values()
        assert "finsearch:run:" in keyspace and "finsearch:cache:entries" in keyspace
        assert key not in keyspace
    assert caplog.records, "the logs were captured (so their silence about the key means something)"
    out, err = capfd.readouterr()
    assert key not in caplog.text and key not in out and key not in err
    assert key not in repr(settings) and key not in repr(result)
