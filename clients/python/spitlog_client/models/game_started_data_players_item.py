from enum import StrEnum


class GameStartedDataPlayersItem(StrEnum):
    BOT = "bot"
    BOTEASY = "bot:easy"
    BOTHARD = "bot:hard"
    BOTMEDIUM = "bot:medium"
    BOTRANDOM = "bot:random"
    HUMAN = "human"

    def __str__(self) -> str:
        return str(self.value)
