"""The play room: what plays games above one game — tournaments and their
standings (``tournaments``, ``standings``), the in-process arena
(``arena``) and the training environment (``env``).

The arena and the environment play in process through the rulesets alone
(no store, no service, no Redis); tournaments use the service and their own
store. Nothing in the service or below imports this room."""
