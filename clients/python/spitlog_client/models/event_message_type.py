from enum import StrEnum


class EventMessageType(StrEnum):
    EVENT = "event"

    def __str__(self) -> str:
        return str(self.value)
