"""Being told without asking: watchlists, and the briefs and alerts they get (as `delivery.notice` Notices)."""
