from enum import StrEnum


class RematchStatus(StrEnum):
    EXPIRED = "expired"
    MADE = "made"
    NONE = "none"
    OFFERED = "offered"

    def __str__(self) -> str:
        return str(self.value)
