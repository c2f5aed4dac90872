"""A watcher's own edits (issue 34, the Watchlist page's logic): e-mail and webhooks checked as delivery would
check them (in the watcher's language), a generic hook's secret made once, alert rules read from what people
type, a rule for one instrument firing for that one alone, and a test notice through the real delivery code."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from datetime import datetime, timezone

import pytest

from finsearch.errors import InputError
from finsearch.settings import MailServer
from finsearch.sources.hub import DataHub
from finsearch.watch.alerts import check_alerts
from finsearch.watch.channel_edits import with_email, with_webhook, without_webhook
from finsearch.watch.lists import open_watchlists
from finsearch.watch.rule_edits import RuleInput, alert_rule, described, with_rule, without_rule
from finsearch.watch.trial import send_trial
from finsearch.watch.watchlist import AlertRule, Channels, WebhookTarget, new_watchlist, parse_watchlist
from tests.conftest import ROOT
from tests.delivery_kit import Receiver
from tests.redis_kit import free_port

PACK = ROOT / "tests" / "fixtures" / "report_pack"      # NVDA: -4.70% on 2024-10-31
ALICE = "anon:" + "a" * 32
MAIL = MailServer("127.0.0.1", 2525, "none", "finsearch@example.com")


def test_an_email_address_is_kept_only_when_it_is_one_and_mail_can_be_sent(settings):
    with_mail = settings.replace(mail=MAIL)
    assert with_email(Channels(), " jane@example.com ", with_mail, "en").email == "jane@example.com"
    assert with_email(Channels("jane@example.com"), "  ", settings, "en").email is None      # cleared, mail or not
    with pytest.raises(InputError, match="“jane@example.com, bob@example.com” is not one e-mail address"):
        with_email(Channels(), "jane@example.com, bob@example.com", with_mail, "en")
    with pytest.raises(InputError, match="尚未配置邮件服务器"):
        with_email(Channels(), "jane@example.com", settings, "zh")


def test_a_generic_webhook_gets_a_secret_made_once_and_never_shown_after(settings):
    added = with_webhook(Channels(), "generic", "https://hooks.example.com/fs", "", settings, "en")
    assert len(added.generated_secret) >= 40 and added.hook.secret == added.generated_secret
    assert added.channels.shown()["webhooks"] == [{"kind": "generic", "host": "hooks.example.com", "secret_set": True}]
    assert added.generated_secret not in repr(added) and added.generated_secret not in repr(added.channels)
    again = with_webhook(Channels(), "generic", "https://hooks.example.com/fs", "", settings, "en")
    assert again.generated_secret != added.generated_secret
    feishu = with_webhook(added.channels, "feishu", "https://open.feishu.cn/open-apis/bot/v2/hook/t1", "sEcReT",
                          settings, "en")
    assert feishu.generated_secret is None and feishu.hook.secret == "sEcReT"
    assert [w.kind for w in feishu.channels.webhooks] == ["generic", "feishu"]
    assert without_webhook(feishu.channels, added.hook.key).webhooks == (feishu.hook,)


@pytest.mark.parametrize(("url", "kind", "secret", "language", "message"), [
    ("hooks.example.com/fs", "generic", "", "en", "A webhook's URL starts with https://"),
    ("ftp://hooks.example.com/fs", "slack", "", "en", "A webhook's URL starts with https://"),
    ("https://[::1/x", "slack", "", "en", "A webhook's URL starts with https://"),
    ("javascript:alert(1)", "slack", "", "zh", "Webhook 的网址须以 https://"),
    ("http://127.0.0.1:8080/hook", "generic", "", "en", "“127.0.0.1” is inside a private network"),
    ("http://10.0.0.7/hook", "dingtalk", "", "zh", "“10.0.0.7”位于内部网络"),
    ("http://localhost/hook", "slack", "", "en", "“localhost” is inside a private network"),
    ("http://0x7f.1/hook", "slack", "", "en", "“0x7f.1” is inside a private network"),
    ("https://hooks.slack.com/services/T/B/x", "slack", "abc", "en", "A Slack webhook has no signing secret"),
    ("https://hooks.example.com/fs", "teams", "", "en", "Choose a webhook format"),
])
def test_a_webhook_delivery_would_refuse_is_refused_when_added_in_the_watchers_language(settings, url, kind, secret,
                                                                                        language, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("(", r"\(")):
        with_webhook(Channels(), kind, url, secret, settings, language)


def test_an_internal_hook_is_taken_where_the_operator_lets_visitors_name_internal_servers(settings):
    added = with_webhook(Channels(), "slack", "http://127.0.0.1:8080/hook", "",
                         settings.replace(visitor_model_servers="any"), "en")
    assert added.hook.url == "http://127.0.0.1:8080/hook"
    with pytest.raises(InputError, match="That webhook is already on your list"):
        with_webhook(added.channels, "slack", "http://127.0.0.1:8080/hook", "", settings.replace(
            visitor_model_servers="any"), "en")


@pytest.mark.parametrize(("typed", "rule", "said"), [
    (RuleInput("daily_move", pct="4"), AlertRule("daily_move", pct=4.0),
     "Every instrument: a daily move of 4% or more"),
    (RuleInput("daily_move", "NVDA", pct=" ４，５ ％"), AlertRule("daily_move", pct=4.5, instrument="NVDA"),
     "NVDA: a daily move of 4.5% or more"),
    (RuleInput("from_price", pct="5", price="1,234.5"), AlertRule("from_price", pct=5.0, price=1234.5),
     "Every instrument: a move of 5% or more from 1,234.5"),
    (RuleInput("filing", kinds="8-K， 10-Q、年度报告, 8-K"), AlertRule("filing", kinds=("8-K", "10-Q", "年度报告")),
     "Every instrument: a new filing or announcement: 8-K, 10-Q, 年度报告"),
    (RuleInput("filing"), AlertRule("filing"), "Every instrument: any new filing or announcement"),
    (RuleInput("earnings_within", "600519.SS", days="7"), AlertRule("earnings_within", days=7, instrument="600519.SS"),
     "600519.SS: earnings within 7 days"),
])
def test_an_alert_rule_is_read_from_what_people_type(typed, rule, said):
    watchlist = new_watchlist(ALICE, ["NVDA", "600519"])
    assert alert_rule(typed, watchlist) == rule
    assert described(rule, "en") == said


@pytest.mark.parametrize(("typed", "language", "message"), [
    (RuleInput("daily_move", pct="abc"), "en", "“abc” is not a percentage: give a number above 0 and at most 1,000"),
    (RuleInput("daily_move", pct="-3"), "en", "“-3” is not a percentage"),
    (RuleInput("daily_move", pct="0"), "en", "“0” is not a percentage"),
    (RuleInput("daily_move", pct="nan"), "en", "“nan” is not a percentage"),
    (RuleInput("daily_move", pct=""), "zh", "“”不是有效的百分比"),
    (RuleInput("from_price", pct="5", price="1e400"), "en", "“1e400” is not a price"),
    (RuleInput("from_price", pct="5", price="0"), "zh", "“0”不是有效的价格"),
    (RuleInput("earnings_within", days="7.5"), "en",
     "“7.5” is not a number of days: give a whole number from 0 to 366"),
    (RuleInput("earnings_within", days="400"), "en", "“400” is not a number of days"),
    (RuleInput("filing", kinds="x" * 41), "en", "Name at most 10 kinds of filing"),
    (RuleInput("daily_move", "AAPL", pct="4"), "en", "AAPL is not on your watchlist"),
    (RuleInput("crash", pct="4"), "en", "Choose what the alert watches"),
])
def test_bad_numbers_and_choices_get_a_clear_message_in_the_watchers_language(typed, language, message):
    watchlist = new_watchlist(ALICE, ["NVDA"], language=language)
    with pytest.raises(InputError, match=message):
        alert_rule(typed, watchlist)


def test_a_rule_is_added_once_and_removed_by_its_values():
    watchlist = new_watchlist(ALICE, ["NVDA"], alerts=(AlertRule("daily_move", pct=4.0),))
    more = with_rule(watchlist, AlertRule("earnings_within", days=7))
    with pytest.raises(InputError, match="You already have this alert"):
        with_rule(more, AlertRule("earnings_within", days=7))
    assert without_rule(more, AlertRule("daily_move", pct=4.0)).alerts == (AlertRule("earnings_within", days=7),)


def test_a_rule_for_one_instrument_fires_for_that_one_alone_and_is_kept_as_it_was_made(settings):
    settings = settings.replace(pack=PACK, offline=True)
    watchlist = dataclasses.replace(new_watchlist(ALICE, ["NVDA", "AAPL"], alerts=(
        AlertRule("daily_move", pct=4.0, instrument="AAPL"),)), watchlist_id="w1")
    at = datetime(2024, 10, 31, 21, tzinfo=timezone.utc)
    assert check_alerts(watchlist, settings, at, hub=DataHub(settings)) == []
    for_nvda = dataclasses.replace(watchlist, alerts=(AlertRule("daily_move", pct=4.0, instrument="NVDA"),))
    assert [n.notice_id for n in check_alerts(for_nvda, settings, at, hub=DataHub(settings))] == [
        "alert-w1-move-NVDA-2024-10-31"]
    assert parse_watchlist(json.dumps(for_nvda.to_json())) == for_nvda
    # a record from before rules named an instrument reads as one for every instrument
    assert AlertRule.from_json({"kind": "daily_move", "pct": 4.0}).instrument is None


def test_a_test_notice_goes_through_the_real_delivery_code_each_time_it_is_asked(settings):
    settings = settings.replace(visitor_model_servers="any")
    with Receiver() as receiver:
        hook = WebhookTarget("generic", receiver.url, "s3cret")
        watchlist = new_watchlist(ALICE, ["NVDA"], channels=Channels(webhooks=(hook,)))
        open_watchlists(settings).save(watchlist)
        assert send_trial(watchlist, hook.key, settings).outcome == "sent"
        assert send_trial(watchlist, hook.key, settings).outcome == "sent"          # an event of its own each
        first, second = receiver.requests
    ids = [json.loads(r.body)["event_id"] for r in (first, second)]
    assert ids[0] != ids[1] and all(i.startswith(f"test-{watchlist.watchlist_id}-") for i in ids)
    signed = hmac.new(b"s3cret", first.headers["x-finsearch-timestamp"].encode() + b"." + first.body,
                      hashlib.sha256).hexdigest()
    assert first.headers["x-finsearch-signature"] == f"sha256={signed}"
    assert json.loads(first.body)["notice"]["title"] == "FinSearch test notice"


def test_a_test_notice_says_whether_to_try_again_or_fix_the_hook(settings):
    settings = settings.replace(visitor_model_servers="any")
    with Receiver([(404, b"no such hook", {})]) as receiver:
        gone_hook = WebhookTarget("slack", receiver.url)
        down_hook = WebhookTarget("slack", f"http://127.0.0.1:{free_port()}/hook")
        watchlist = new_watchlist(ALICE, ["NVDA"], channels=Channels(webhooks=(gone_hook, down_hook)))
        open_watchlists(settings).save(watchlist)
        refused = send_trial(watchlist, gone_hook.key, settings)
        down = send_trial(watchlist, down_hook.key, settings)
    assert (refused.outcome, refused.detail) == ("refused", "the webhook refused the notice (HTTP 404)")
    assert down.outcome == "retry" and "could not be reached" in down.detail
    assert send_trial(watchlist, "webhook-0000000000", settings).outcome == "gone"
    assert send_trial(watchlist, "email", settings).outcome == "gone"


def test_removing_a_rule_neither_refires_nor_hides_another_rules_event(settings):
    # The event id named the rule by its place in the list: removing the first made the second take its place,
    # so its move, already told, was told again (and a new rule in that place found its event "already sent").
    settings = settings.replace(pack=PACK, offline=True)
    daily, from_price = AlertRule("daily_move", pct=4.0), AlertRule("from_price", pct=5.0, price=100.0)
    watchlist = dataclasses.replace(new_watchlist(ALICE, ["NVDA"], alerts=(daily, from_price)), watchlist_id="w1")
    at = datetime(2024, 10, 31, 21, tzinfo=timezone.utc)
    before = [n.notice_id for n in check_alerts(watchlist, settings, at, hub=DataHub(settings))]
    after = [n.notice_id for n in check_alerts(without_rule(watchlist, daily), settings, at, hub=DataHub(settings))]
    assert before == ["alert-w1-move-NVDA-2024-10-31", "alert-w1-price-NVDA-3ae9b893-2024-10-31"]
    assert after == ["alert-w1-price-NVDA-3ae9b893-2024-10-31"]
