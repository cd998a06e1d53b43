"""The game store: each game an append-only Redis Stream (``redis``, the only module that
knows the games' Redis keys), how a process connects to Redis (``connect``), and the live
hub that wakes the streams waiting on a game (``live``), and the names of every other key
the service keeps: the rate limits', the schedule's, the archive's objects (``keys``)."""
