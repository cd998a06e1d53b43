from enum import StrEnum


class LeaderboardGame(StrEnum):
    SPEED = "speed"
    SPIT = "spit"

    def __str__(self) -> str:
        return str(self.value)
