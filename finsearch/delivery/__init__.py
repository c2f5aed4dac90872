"""Notices delivered: the in-app inbox, e-mail over SMTP and webhooks, once per event, retried with backoff."""
