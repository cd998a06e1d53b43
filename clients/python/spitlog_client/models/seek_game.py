from enum import StrEnum


class SeekGame(StrEnum):
    SPEED = "speed"
    SPIT = "spit"

    def __str__(self) -> str:
        return str(self.value)
