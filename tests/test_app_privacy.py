"""Privacy through AppTest: each visitor sees and deletes only their own history, share links are
tokens that open one answer read-only and can be revoked, conversations are private, questions
are limited per visitor, sign-in keys history by the person, Evaluate's folders are the operator's.

Each AppTest is one browser session with an identity of its own; a test that means "the same
browser, reloaded" gives the new session the first one's identity (AppTest cannot send cookies:
that part is the browser test's)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from finsearch.hosting.identity import signed_in_owner
from finsearch.settings import from_env
from finsearch.store import open_store
from tests.app_kit import APP, text_of
from tests.test_app import ask

NVDA, TSLA = "Why did NVDA fall last week?", "What's the latest news on Tesla?"
AUTH = {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "not-a-real-secret",
        "client_id": "finsearch-test", "client_secret": "not-a-real-secret",
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration"}


@pytest.fixture
def env(sample_app_env):
    return sample_app_env


def visitor() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def same_browser(first: AppTest, **params: str) -> AppTest:
    """A new session of `first`'s browser (its cookie), opened with `params`."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["finsearch_visitor"] = first.session_state["finsearch_visitor"]
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    return at


def history(at: AppTest) -> AppTest:
    at.switch_page("pages/history.py").run()
    assert not at.exception
    return at


def store():
    return open_store(from_env())


def make_share_link(at: AppTest, turn: int = 0) -> str:
    key = at.session_state["finsearch_chat"].turns[turn].key
    # Share opens a dialog; its button makes the link (a whole rerun here, where the browser reruns
    # only the dialog), and the dialog opened again shows it.
    for button in ("share-open", "share", "share-open"):
        at.button(key=f"{key}-{button}").click().run()
        assert not at.exception
    [code] = [c.value for c in at.code if "?s=" in c.value]
    return code.rsplit("?s=", 1)[1]


def test_history_lists_only_the_visitors_own_runs(env):
    alice = ask(visitor(), NVDA)
    bob = ask(visitor(), TSLA)
    assert NVDA in text_of(history(same_browser(alice))) and TSLA not in text_of(history(same_browser(alice)))
    bobs = text_of(history(same_browser(bob)))
    assert TSLA in bobs and NVDA not in bobs
    assert len({s.owner for s in store().list()}) == 2 and all(s.owner.startswith("anon:") for s in store().list())


def test_only_the_owner_can_delete_and_another_visitor_cannot_open_the_run_by_id(env):
    alice = ask(visitor(), NVDA)
    run_id = alice.session_state["finsearch_chat"].turns[0].result.run_id
    bob = history(visitor())
    assert not [b for b in bob.button if b.key and run_id in b.key], "no Delete for another's run"
    assert "No answers yet" in bob.info[0].value
    by_id = AppTest.from_file(APP, default_timeout=30)
    by_id.query_params["run"] = run_id
    by_id.run()
    assert not by_id.exception and "does not exist" in by_id.error[0].value
    assert NVDA not in text_of(by_id)
    mine = history(same_browser(alice))
    mine.button(key=f"delete-{run_id}").click().run()
    mine.button(key=f"really-delete-{run_id}").click().run()
    assert not mine.exception and store().load(run_id) is None


def test_a_share_link_opens_one_answer_read_only_for_anyone_and_revoking_closes_it(env):
    alice = ask(ask(visitor(), NVDA), TSLA)
    assert not [c for c in alice.code if "?s=" in c.value], "no link until Share is asked for"
    token = make_share_link(alice, turn=1)
    assert len(token) == 32 and token not in {t.result.run_id for t in alice.session_state["finsearch_chat"].turns}

    bob = AppTest.from_file(APP, default_timeout=30)
    bob.query_params["s"] = token
    bob.run()
    assert not bob.exception
    shown = text_of(bob)
    assert "Shared FinSearch answer (read-only)" in shown and "Tesla (TSLA) last traded" in shown
    assert NVDA not in shown, "no other run of its owner"
    assert not bob.chat_input, "read-only: no chat"
    assert not [b for b in bob.button if b.key and b.key.endswith("-share")], "nothing to re-share or edit"
    # The same token with the research page's address opens the answer too, not "not found".
    on_research = AppTest.from_file(APP, default_timeout=30)
    on_research.run()
    on_research.switch_page("pages/research.py")
    on_research.query_params["s"] = token
    on_research.run()
    assert not on_research.exception and not on_research.error
    assert "Tesla (TSLA) last traded" in text_of(on_research)

    guessed = AppTest.from_file(APP, default_timeout=30)
    guessed.query_params["s"] = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    guessed.run()
    assert "does not exist" in guessed.error[0].value and TSLA not in text_of(guessed)

    links = history(same_browser(alice))
    assert any(token in c.value for c in links.code), "History lists the link"
    links.button(key=f"revoke-{token[:12]}").click().run()
    assert not links.exception and not any(token in c.value for c in links.code)
    bob.run()
    assert "does not exist" in bob.error[0].value, "a revoked link opens nothing"
    assert store().load(alice.session_state["finsearch_chat"].turns[1].result.run_id) is not None, "the run stays"

    again = make_share_link(same_browser(alice, c=alice.session_state["finsearch_chat"].conversation), turn=0)
    run_id = alice.session_state["finsearch_chat"].turns[0].result.run_id
    links = history(same_browser(alice))
    links.button(key=f"delete-{run_id}").click().run()
    links.button(key=f"really-delete-{run_id}").click().run()
    assert not links.exception and store().shared(again) is None, "deleting an answer closes its links"


def test_a_conversation_link_is_private_unless_shared_as_a_snapshot(env):
    alice = ask(ask(visitor(), NVDA), TSLA)
    conversation = alice.session_state["finsearch_chat"].conversation

    bob = AppTest.from_file(APP, default_timeout=30)
    bob.query_params["c"] = conversation
    bob.run()
    assert not bob.exception and "does not exist" in bob.error[0].value
    assert NVDA not in text_of(bob) and TSLA not in text_of(bob)
    ask(bob, "Compare AAPL and MSFT year to date")
    assert bob.session_state["finsearch_chat"].conversation != conversation, "Bob's question starts his own"
    assert len(store().conversation(conversation)) == 2, "nothing was added to Alice's conversation"

    alice.button(key="share-conversation-2").click().run()
    [token] = [c.value.rsplit("?s=", 1)[1] for c in alice.code if "?s=" in c.value]
    ask(alice, "Compare AAPL and MSFT year to date")                   # asked after sharing: private
    reader = AppTest.from_file(APP, default_timeout=30)
    reader.query_params["s"] = token
    reader.run()
    shown = text_of(reader)
    assert "Shared FinSearch conversation (read-only)" in shown
    assert NVDA in shown and TSLA in shown and "Compare AAPL and MSFT" not in shown


def test_the_question_limit_says_so_and_starts_nothing(env, monkeypatch):
    monkeypatch.setenv("FINSEARCH_QUESTION_LIMIT", "1")
    at = ask(visitor(), NVDA)
    at.chat_input[0].set_value(TSLA).run()
    assert not at.exception
    assert [t.question for t in at.session_state["finsearch_chat"].turns] == [NVDA]
    [warning] = [w.value for w in at.warning]
    assert warning.startswith("You have asked the most questions this server allows (1 in 1 hour). "
                              "You can ask again in ")
    assert ask(visitor(), TSLA).session_state["finsearch_chat"].turns[0].result is not None, "others still may"


def test_signed_in_history_is_keyed_by_the_person_in_any_browser(env):
    claims = {"is_logged_in": True, "iss": "https://accounts.example", "sub": "ada-1", "name": "Ada Lovelace",
              "email": "ada@example.com"}
    laptop = AppTest.from_file(APP, default_timeout=30)
    laptop.secrets["auth"] = AUTH
    laptop.user = dict(claims)
    laptop.run()
    assert "Signed in as Ada Lovelace" in text_of(laptop)
    ask(laptop, NVDA)
    [summary] = store().list()
    assert summary.owner == signed_in_owner(claims) and "ada" not in summary.owner

    phone = AppTest.from_file(APP, default_timeout=30)             # another browser: another cookie
    phone.secrets["auth"] = AUTH
    phone.user = dict(claims)
    phone.run()
    assert NVDA in text_of(history(phone)), "the same person's history"
    stranger = AppTest.from_file(APP, default_timeout=30)
    stranger.secrets["auth"] = AUTH
    stranger.user = {"is_logged_in": False}
    stranger.run()
    assert NVDA not in text_of(history(stranger))
    assert any(b.label == "Sign in" for b in stranger.button) or "Authlib is not installed" in text_of(stranger)


def test_without_auth_configured_the_browser_identity_applies(env):
    at = AppTest.from_file(APP, default_timeout=30)
    at.user = {"is_logged_in": True, "sub": "ada-1", "email": "ada@example.com"}   # not configured: ignored
    at.run()
    ask(at, NVDA)
    assert store().list()[0].owner.startswith("anon:")
    assert not [b for b in at.button if b.label.startswith("Sign")]


def test_evaluate_folder_browsing_is_for_the_operator(env, monkeypatch):
    at = visitor()
    at.switch_page("pages/evaluate.py").run()
    assert not at.exception and not at.text_input, "no folder to type"
    assert "Browsing the server's folders is for its operator" in at.info[0].value
    monkeypatch.setenv("FINSEARCH_ADMIN", "1")
    at.run()
    assert at.text_input and at.text_input[0].label == "Folder with evaluation runs"


def test_the_browser_token_is_never_stored_only_its_digest(env, redis_server, monkeypatch):
    for url in (None, redis_server.url):          # files, then Redis
        if url:
            monkeypatch.setenv("FINSEARCH_REDIS_URL", url)
        at = ask(visitor(), NVDA)
        make_share_link(at)
        token = at.session_state["finsearch_visitor"].token
        assert token and len(token) == 22
        written = [p for p in (env / "data").rglob("*") if p.is_file()]
        assert written and [str(p) for p in written if token.encode() in p.read_bytes()] == []
    keyspace = redis_server.values()
    assert "finsearch:share:" in keyspace and "finsearch:limit:" in keyspace and token not in keyspace


def test_sign_in_is_configured_by_an_auth_section_streamlit_can_use():
    from ui.identity import sign_in_providers

    assert sign_in_providers({}) is None
    assert sign_in_providers({"auth": AUTH}) == (None,), "one unnamed provider"
    named = {"redirect_uri": AUTH["redirect_uri"], "cookie_secret": "s",
             "google": {"client_id": "g", "client_secret": "x", "server_metadata_url": "https://g.example"},
             "microsoft": {"client_id": "m", "client_secret": "x", "server_metadata_url": "https://m.example"}}
    assert sign_in_providers({"auth": named}) == ("google", "microsoft")
    assert sign_in_providers({"auth": {k: v for k, v in AUTH.items() if k != "cookie_secret"}}) is None
    assert sign_in_providers({"auth": {"redirect_uri": "x", "cookie_secret": "s"}}) is None, "no provider"
    assert sign_in_providers({"auth": "yes"}) is None


def test_with_the_shared_counter_down_the_question_is_still_answered(env, monkeypatch):
    from tests.redis_kit import free_port

    monkeypatch.setenv("FINSEARCH_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")     # nothing listens
    at = ask(visitor(), TSLA)
    assert "Tesla (TSLA) last traded" in text_of(at), "answering matters more than counting"
    assert any("could not be saved on the server" in w.value for w in at.warning)
