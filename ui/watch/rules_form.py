"""The visitor's alert rules, edited: each said in a line with a Remove button, and a new one added for one
instrument or for all (a daily move, a move from a reference price, a new filing of a chosen kind, earnings
within N days).

Reading what was typed is `finsearch.watch.rule_edits`'; this draws it. The kind is chosen outside a form, so
only the fields it uses are shown; the add runs in a button callback and leaves what to say for the drawing.
"""

from __future__ import annotations

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.phrases import Language, say
from finsearch.watch.rule_edits import RuleInput, alert_rule, described, with_rule, without_rule
from finsearch.watch.watchlist import ALERT_KINDS, AlertRule, Watchlist
from ui import identity
from ui.watch.amend import amend
from ui.watch.channels_form import Said

SAID_KEY = "finsearch_rules_said"
EVERY = ""                              # the instrument choice "every instrument"
FIELDS = {"daily_move": ("pct",), "from_price": ("pct", "price"), "filing": ("kinds",), "earnings_within": ("days",)}


def _add(language: Language) -> None:
    typed = RuleInput(st.session_state.get("rule-kind") or "daily_move",
                      st.session_state.get("rule-instrument") or None,
                      *(st.session_state.get(f"rule-{field}") or "" for field in ("pct", "price", "kinds", "days")))
    made: list[AlertRule] = []

    def change(watchlist: Watchlist) -> Watchlist:
        made.append(alert_rule(typed, watchlist))
        return with_rule(watchlist, made[-1])

    saved, why_not = amend(identity.visitor().owner, change, language)
    if saved is None:
        st.session_state[SAID_KEY] = Said(why_not, False)
        return
    st.session_state[SAID_KEY] = Said(say("ui.rules.added", language, rule=described(made[-1], language)), True)
    for field in ("pct", "price", "kinds", "days"):
        st.session_state[f"rule-{field}"] = ""


def _remove(language: Language, rule: AlertRule) -> None:
    saved, why_not = amend(identity.visitor().owner, lambda w: without_rule(w, rule), language)
    st.session_state[SAID_KEY] = Said(say("ui.rules.removed", language, rule=described(rule, language))
                                      if saved is not None else why_not, saved is not None)


def render(watchlist: Watchlist) -> None:
    language = watchlist.language
    st.subheader(say("ui.rules.title", language))
    st.caption(say("ui.rules.caption", language))
    if not watchlist.alerts:
        st.caption(say("ui.rules.none", language))
    for index, rule in enumerate(watchlist.alerts):
        with st.container(border=True, key=f"rule-{index}"):
            line, remove_col = st.columns([8, 1.4], vertical_alignment="center")
            line.markdown(plain(described(rule, language)))
            remove_col.button(say("ui.watchlist.remove", language), key=f"remove-rule-{index}",
                              icon=":material/delete:", width="stretch", on_click=_remove, args=(language, rule))
    said = st.session_state.pop(SAID_KEY, None)
    if isinstance(said, Said):
        with st.container(key="rule-said-ok" if said.ok else "rule-said-error"):
            (st.success if said.ok else st.error)(plain(said.text),
                                                  icon=":material/check:" if said.ok else ":material/error:")
    with st.container(border=True, key="rule-new"):
        st.markdown(f"**{say('ui.rules.new', language)}**")
        kind_col, who_col = st.columns(2)
        kind = kind_col.selectbox(say("ui.rules.kind", language), ALERT_KINDS, key="rule-kind",
                                  format_func=lambda k: say(f"ui.rules.kind.{k}", language))
        who_col.selectbox(say("ui.rules.instrument", language), (EVERY, *watchlist.instruments), key="rule-instrument",
                          format_func=lambda t: t or say("watch.rules.every_instrument", language))
        fields = FIELDS.get(kind, ())
        for field, column in zip(fields, st.columns(max(1, len(fields))), strict=False):
            column.text_input(say(f"ui.rules.{field}", language), key=f"rule-{field}",
                              help=say(f"ui.rules.{field}_help", language))
        st.button(say("ui.rules.add", language), key="rule-add", icon=":material/notifications:", on_click=_add,
                  args=(language,))

