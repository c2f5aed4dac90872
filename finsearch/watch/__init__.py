"""Being told without asking: watchlists, the briefs and alerts they get, and the notices that carry them."""
