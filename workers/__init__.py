"""Background work: the hosted bots and the timeouts (T-1..T-6), on RQ workers.

- ``schedule``  due-time scheduling on the queue Redis: one sorted set scored in
                milliseconds (the only module that knows its keys) and ``Scheduler``,
                the service's hook that arms a game's next decisions after each append.
- ``ticker``    ``spitlog scheduler``: claims due decisions when they fall due (woken by
                the arms that bring a sooner one) and enqueues them as RQ jobs; its
                sweeper re-arms what a crash lost.
- ``jobs``      the RQ job functions: ``bot_turn`` and ``fire_deadline``, guarded by the
                game's version, through the service's one decide-and-append path.
- ``worker``    ``spitlog worker``: an RQ worker that runs jobs in its own process.
"""
