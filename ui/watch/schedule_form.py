"""The schedule of the visitor's watchlist, edited: daily or weekly, a local time, an IANA time zone.

Saved with one click; the brief then comes at that time on that zone's clock."""

from __future__ import annotations

import functools
from datetime import time
from zoneinfo import available_timezones

import streamlit as st

from finsearch.errors import StoreUnavailable
from finsearch.phrases import say
from finsearch.watch.watchlist import Schedule, Watchlist
from ui import identity
from ui.watch import mine


@functools.cache
def zones() -> tuple[str, ...]:
    """Every IANA name this machine knows, UTC first."""
    return ("UTC", *sorted(z for z in available_timezones() if z != "UTC" and "/" in z))


def render(watchlist: Watchlist) -> None:
    language, current = watchlist.language, watchlist.schedule
    st.subheader(say("ui.schedule.title", language))
    shown = st.empty()             # filled after the form: a save changes what it says
    with st.form("watch-schedule", border=True):
        cadences = ("daily", "weekly")
        cadence = st.radio(say("ui.schedule.cadence", language), cadences, index=cadences.index(current.cadence),
                           format_func=lambda c: say(f"ui.schedule.{c}", language), horizontal=True)
        days = tuple(range(7))
        weekday = st.selectbox(say("ui.schedule.weekday", language), days, index=current.weekday or 0,
                               format_func=lambda d: say(f"ui.watch.weekday.{d}", language),
                               help=say("ui.schedule.weekday_help", language))
        at = st.time_input(say("ui.schedule.at", language), value=current.at, step=15 * 60)
        names = zones()
        zone = st.selectbox(say("ui.schedule.zone", language), names,
                            index=names.index(current.timezone) if current.timezone in names else 0)
        if st.form_submit_button(say("ui.schedule.save", language), icon=":material/schedule:"):
            schedule = Schedule(cadence, at if isinstance(at, time) else current.at, zone,
                                weekday if cadence == "weekly" else None, current.closed_days)
            st.toast(mine.reschedule(identity.visitor().owner, schedule, language), icon=":material/schedule:")
            try:
                current = (mine.mine(identity.visitor().owner) or watchlist).schedule
            except StoreUnavailable:       # the toast said it was not saved
                pass
    shown.caption(say("ui.schedule.now", language, when=mine.when(current, language)))
