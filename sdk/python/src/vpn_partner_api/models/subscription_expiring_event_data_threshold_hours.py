from enum import IntEnum


class SubscriptionExpiringEventDataThresholdHours(IntEnum):
    VALUE_72 = 72
    VALUE_24 = 24

    def __str__(self) -> str:
        return str(self.value)
