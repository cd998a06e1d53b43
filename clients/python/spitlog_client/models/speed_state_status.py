from enum import StrEnum


class SpeedStateStatus(StrEnum):
    ABORTED = "aborted"
    FINISHED = "finished"
    RUNNING = "running"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
