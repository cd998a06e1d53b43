from enum import StrEnum


class AbortedBy(StrEnum):
    OPERATOR = "operator"
    SERVICE = "service"

    def __str__(self) -> str:
        return str(self.value)
