from enum import StrEnum


class WebhookEvents(StrEnum):
    ALL = "all"
    LIFECYCLE = "lifecycle"

    def __str__(self) -> str:
        return str(self.value)
