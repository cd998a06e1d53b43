from enum import StrEnum


class DeadlineRule(StrEnum):
    T_1 = "T-1"
    T_2 = "T-2"
    T_3 = "T-3"
    T_4 = "T-4"
    T_5 = "T-5"
    T_6 = "T-6"

    def __str__(self) -> str:
        return str(self.value)
