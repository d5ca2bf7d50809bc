from enum import StrEnum


class Purpose(StrEnum):
    DEVICES = "devices"
    SUBSCRIPTION = "subscription"

    def __str__(self) -> str:
        return str(self.value)
