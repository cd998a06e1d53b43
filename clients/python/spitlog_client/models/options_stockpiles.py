from enum import IntEnum


class OptionsStockpiles(IntEnum):
    VALUE_4 = 4
    VALUE_5 = 5

    def __str__(self) -> str:
        return str(self.value)
