"""Calls the service makes out to others: webhook deliveries (``webhooks``)."""
