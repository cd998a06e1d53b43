from enum import StrEnum


class ViewMessageType(StrEnum):
    VIEW = "view"

    def __str__(self) -> str:
        return str(self.value)
