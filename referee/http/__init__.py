"""The HTTP room: the Flask app and its WSGI entry (``app``, ``wsgi``,
``gunicorn_conf``), the request context, the access log, rate limits and
fair-share quotas, streams (SSE and long-poll), problem responses, the API
blueprints (``api``) and their request schemas (``schemas``), the served
contract (``contract``) and rule texts (``ruletexts``).

It may import the service, play (tournaments), the store's types, the engine
and the ground floor (settings, errors, tokens, keys); rate limiting never
reads the store. Nothing below it imports it."""
