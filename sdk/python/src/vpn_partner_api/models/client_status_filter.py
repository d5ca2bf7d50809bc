from enum import StrEnum


class ClientStatusFilter(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    NONE = "none"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)
