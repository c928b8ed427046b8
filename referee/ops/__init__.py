"""The operations room: the ``referee`` command line (``cli``), the
scaled-out topology on one machine (``topology``) and signing-key pinning
(``pinning``). It may import every other room; none imports it."""
