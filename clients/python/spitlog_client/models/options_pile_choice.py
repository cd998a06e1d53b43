from enum import StrEnum


class OptionsPileChoice(StrEnum):
    CHOOSE = "choose"
    SLAP = "slap"

    def __str__(self) -> str:
        return str(self.value)
