from enum import StrEnum


class SpitStateStatus(StrEnum):
    ABORTED = "aborted"
    FINISHED = "finished"
    RUNNING = "running"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
