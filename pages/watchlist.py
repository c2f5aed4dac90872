"""Watchlist: the instruments this visitor watches (remove one), when their brief comes, "Brief me now", where
notices go (e-mail, webhooks) and the alert rules.

The schedule is daily or weekly, at a local time in an IANA time zone; "Brief me now" writes the brief at
once into the Inbox. Instruments are added from an answer's "Watch" buttons."""

import streamlit as st

from finsearch.answer.markdown import plain
from finsearch.errors import StoreUnavailable
from finsearch.phrases import say
from finsearch.watch.watchlist import id_part
from ui import identity, shell
from ui.watch import brief_now, channels_form, mine, rules_form, schedule_form

shell.ensure()


def remove(ticker: str) -> None:
    visitor = identity.visitor()
    st.toast(mine.unwatch(visitor.owner, ticker, mine.language(visitor.owner)), icon=":material/visibility_off:")


owner = identity.visitor().owner
try:
    watchlist = mine.mine(owner)
except StoreUnavailable as exc:
    st.title(say("ui.watchlist.title", "en"))
    st.error(plain(say("ui.watchlist.unavailable", "en", why=str(exc))), icon=":material/cloud_off:")
    st.stop()
language = watchlist.language if watchlist is not None else "en"
st.title(say("ui.watchlist.title", language))
if watchlist is None:
    st.info(say("ui.watchlist.empty", language), icon=":material/visibility:")
    st.stop()

st.caption(say("ui.watchlist.caption", language))
for ticker in watchlist.instruments:
    with st.container(border=True, key=f"watched-{id_part(ticker)}"):
        name, remove_col = st.columns([8, 1.4], vertical_alignment="center")
        name.markdown(f"**{plain(ticker)}**")
        remove_col.button(say("ui.watchlist.remove", language), key=f"unwatch-{ticker}", icon=":material/delete:",
                          width="stretch", on_click=remove, args=(ticker,))
schedule_form.render(watchlist)
st.subheader(say("ui.brief_now.title", language))
st.caption(say("ui.brief_now.caption", language))
brief_now.render(watchlist)
rules_form.render(watchlist)
channels_form.render(watchlist)
